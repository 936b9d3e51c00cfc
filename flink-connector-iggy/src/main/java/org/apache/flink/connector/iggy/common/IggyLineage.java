/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.apache.flink.connector.iggy.common;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.LineageDatasetFacet;
import org.apache.flink.streaming.api.lineage.LineageVertex;
import org.apache.flink.streaming.api.lineage.SourceLineageVertex;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * What the source and the sinks report to Flink's lineage: one dataset per topic, with namespace
 * {@code iggy://host:port} and name {@code stream.topic} (names, or numeric ids in decimal).
 */
@Internal
public final class IggyLineage {

    private IggyLineage() {}

    /** The topic as a lineage dataset. */
    public static LineageDataset dataset(
            IggyConnectionConfig connection, IggyId stream, IggyId topic) {
        return new Dataset(
                "iggy://" + connection.address(), stream.asText() + "." + topic.asText());
    }

    /** The topics matching patterns, as one dataset {@code streamPattern.topicPattern}. */
    public static LineageDataset patternDataset(
            IggyConnectionConfig connection, String streamPattern, String topicPattern) {
        return new Dataset("iggy://" + connection.address(), streamPattern + "." + topicPattern);
    }

    /** A source reading the datasets. */
    public static SourceLineageVertex sourceVertex(
            List<LineageDataset> read, Boundedness boundedness) {
        return new SourceVertex(boundedness, List.copyOf(read));
    }

    private record SourceVertex(Boundedness boundedness, List<LineageDataset> datasets)
            implements SourceLineageVertex {}

    /** A sink writing the topic. */
    public static LineageVertex sinkVertex(
            IggyConnectionConfig connection, IggyId stream, IggyId topic) {
        List<LineageDataset> datasets = List.of(dataset(connection, stream, topic));
        return () -> datasets;
    }

    private record Dataset(String namespace, String name) implements LineageDataset {

        @Override
        public Map<String, LineageDatasetFacet> facets() {
            return Collections.emptyMap();
        }

        @Override
        public String toString() {
            return namespace + "/" + name;
        }
    }
}

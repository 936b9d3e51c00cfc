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

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.LineageVertex;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;
import org.apache.flink.streaming.api.lineage.SourceLineageVertex;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The dataset the source and both sinks report to Flink's lineage, on every Flink line. */
class IggyLineageTest {

    private static final IggyConnectionConfig CONNECTION =
            IggyConnectionConfig.builder()
                    .setAddress("iggy.example:8090")
                    .setCredentials("u", "secret-pw")
                    .build();

    @Test
    void sourceReportsItsTopicAndBoundedness() {
        IggySource<String> unbounded = source().build();
        SourceLineageVertex vertex = unbounded.getLineageVertex();
        assertThat(vertex.boundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertOneDataset(vertex, "iggy://iggy.example:8090", "orders.created");

        IggySource<String> bounded = source().setBounded(IggyStoppingOffsets.latest()).build();
        assertThat(bounded.getLineageVertex().boundedness()).isEqualTo(Boundedness.BOUNDED);
    }

    @Test
    void recordSinkReportsItsTopic() {
        IggySink<String> sink =
                IggySink.<String>builder()
                        .setConnection(CONNECTION)
                        .setStream("orders")
                        .setTopic("shipped")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .build();
        assertOneDataset(sink.getLineageVertex(), "iggy://iggy.example:8090", "orders.shipped");
    }

    @Test
    void keyedMapSinkReportsItsTopic() {
        Sink<IggyMapChange<String, String>> sink =
                IggySink.<String, String>keyedMap()
                        .setConnection(CONNECTION)
                        .setStream("orders")
                        .setTopic("latest")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .build();
        assertThat(sink).isInstanceOf(LineageVertexProvider.class);
        assertOneDataset(
                ((LineageVertexProvider) sink).getLineageVertex(),
                "iggy://iggy.example:8090",
                "orders.latest");
    }

    @Test
    void numericIdsAppearInDecimalAndCredentialsNowhere() {
        LineageDataset dataset = IggyLineage.dataset(CONNECTION, IggyId.of(7), IggyId.of(42));
        assertThat(dataset.namespace()).isEqualTo("iggy://iggy.example:8090");
        assertThat(dataset.name()).isEqualTo("7.42");
        assertThat(dataset.facets()).isEmpty();
        assertThat(dataset.toString()).doesNotContain("secret-pw");
        assertThat(dataset)
                .isEqualTo(IggyLineage.dataset(CONNECTION, IggyId.of(7), IggyId.of(42)))
                .isNotEqualTo(IggyLineage.dataset(CONNECTION, IggyId.of(7), IggyId.of(43)));
    }

    private static IggySourceBuilder<String> source() {
        return IggySource.<String>builder()
                .setConnection(CONNECTION)
                .setStream("orders")
                .setTopic("created")
                .setConsumerName("c")
                .setValueOnlyDeserializer(new SimpleStringSchema());
    }

    private static void assertOneDataset(LineageVertex vertex, String namespace, String name) {
        assertThat(vertex.datasets()).hasSize(1);
        LineageDataset dataset = vertex.datasets().get(0);
        assertThat(dataset.namespace()).isEqualTo(namespace);
        assertThat(dataset.name()).isEqualTo(name);
    }
}

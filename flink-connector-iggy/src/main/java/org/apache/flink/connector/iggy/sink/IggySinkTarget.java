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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;

import java.io.Serializable;
import java.util.Objects;

/**
 * A topic of a stream that the sink writes a record to: what an {@link IggyTopicSelector} returns
 * and an {@link IggySinkRecord} may carry. A record without one goes to the sink's own stream and
 * topic ({@code setStream}, {@code setTopic}).
 *
 * @param stream the stream, by name or numeric id
 * @param topic the topic, by name or numeric id
 */
@PublicEvolving
public record IggySinkTarget(IggyId stream, IggyId topic) implements Serializable {

    public IggySinkTarget {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(topic, "topic");
    }

    /** A topic of a stream, both by name. */
    public static IggySinkTarget of(String stream, String topic) {
        return new IggySinkTarget(IggyId.of(stream), IggyId.of(topic));
    }

    /** One partition of this topic. */
    public IggyTopicPartition partition(long partition) {
        return new IggyTopicPartition(stream, topic, partition);
    }

    /** The topic of {@code partition}. */
    public static IggySinkTarget of(IggyTopicPartition partition) {
        return new IggySinkTarget(partition.stream(), partition.topic());
    }

    @Override
    public String toString() {
        return "topic " + topic + " of stream " + stream;
    }
}

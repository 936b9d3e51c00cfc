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

import org.apache.flink.annotation.PublicEvolving;

import java.io.Serializable;
import java.util.Comparator;
import java.util.Objects;

/**
 * One partition of one topic of one stream (each by name or numeric id, as configured): what a
 * split reads, and the key of specific starting and stopping offsets.
 */
@PublicEvolving
public record IggyTopicPartition(IggyId stream, IggyId topic, long partition)
        implements Serializable, Comparable<IggyTopicPartition> {

    private static final Comparator<IggyTopicPartition> ORDER =
            Comparator.comparing((IggyTopicPartition p) -> p.stream.toString())
                    .thenComparing(p -> p.topic.toString())
                    .thenComparingLong(IggyTopicPartition::partition);

    public IggyTopicPartition {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(topic, "topic");
        if (partition < 0) {
            throw new IllegalArgumentException("A partition id is >= 0, but is " + partition);
        }
    }

    /** The partition of a topic of a stream, both by name. */
    public static IggyTopicPartition of(String stream, String topic, long partition) {
        return new IggyTopicPartition(IggyId.of(stream), IggyId.of(topic), partition);
    }

    /** Orders by stream, then topic, then partition. */
    @Override
    public int compareTo(IggyTopicPartition other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return "partition " + partition + " of topic " + topic + " of stream " + stream;
    }
}

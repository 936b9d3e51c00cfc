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
package org.apache.flink.connector.iggy.source.split;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;

import java.util.Objects;

/**
 * One partition to read: from {@link #startingOffset()} (the next offset to emit, in reader state
 * too) up to the exclusive {@link #stoppingOffset()}.
 */
@Internal
public record IggyPartitionSplit(
        IggyId stream, IggyId topic, long partitionId, long startingOffset, long stoppingOffset)
        implements SourceSplit {

    /** The stopping offset of a split that never ends. */
    public static final long NO_STOPPING_OFFSET = Long.MAX_VALUE;

    public IggyPartitionSplit {
        if (partitionId < 0 || startingOffset < 0 || stoppingOffset < 0) {
            throw new IllegalArgumentException(
                    "Invalid split: partition "
                            + partitionId
                            + ", starting offset "
                            + startingOffset
                            + ", stopping offset "
                            + stoppingOffset);
        }
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(topic, "topic");
    }

    @Override
    public String splitId() {
        return stream + "/" + topic + "/partition-" + partitionId;
    }

    public TopicPath topicPath() {
        return new TopicPath(stream, topic);
    }

    public IggyTopicPartition topicPartition() {
        return new IggyTopicPartition(stream, topic, partitionId);
    }

    public boolean isBounded() {
        return stoppingOffset != NO_STOPPING_OFFSET;
    }

    public IggyPartitionSplit withStartingOffset(long offset) {
        return new IggyPartitionSplit(stream, topic, partitionId, offset, stoppingOffset);
    }

    @Override
    public String toString() {
        return "IggyPartitionSplit{stream="
                + stream
                + ", topic="
                + topic
                + ", partition="
                + partitionId
                + ", from="
                + startingOffset
                + (isBounded() ? ", to=" + stoppingOffset : "")
                + '}';
    }
}

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
package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.connector.iggy.source.OffsetSpecs;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import javax.annotation.Nullable;

import java.io.Serializable;

/**
 * Turns the configured starting and stopping positions into concrete offsets for one partition.
 * Runs only for partitions without restored state.
 */
@Internal
public final class IggySplitPlanner implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String consumerName;
    private final IggyStartingOffsets starting;
    @Nullable private final IggyStoppingOffsets stopping;

    public IggySplitPlanner(
            String consumerName,
            IggyStartingOffsets starting,
            @Nullable IggyStoppingOffsets stopping) {
        this.consumerName = consumerName;
        this.starting = starting;
        this.stopping = stopping;
    }

    /**
     * A split for a partition of a topic present when the job starts (or, restored, first read by
     * this job): from the configured starting position.
     */
    IggyPartitionSplit initialSplit(TopicPath topic, long partitionId, PartitionOffsets offsets) {
        return new IggyPartitionSplit(
                topic.stream(),
                topic.topic(),
                partitionId,
                startingOffset(topic, partitionId, offsets),
                stoppingOffset(topic, partitionId, offsets));
    }

    /**
     * A split for a partition, topic or stream that appeared while the job runs: it starts at the
     * beginning, whatever the starting position, so that nothing written to it is skipped.
     */
    IggyPartitionSplit discoveredSplit(TopicPath topic, long partitionId) {
        return new IggyPartitionSplit(
                topic.stream(),
                topic.topic(),
                partitionId,
                0,
                IggyPartitionSplit.NO_STOPPING_OFFSET);
    }

    long startingOffset(TopicPath topic, long partitionId, PartitionOffsets offsets) {
        switch (OffsetSpecs.kind(starting)) {
            case EARLIEST:
                return 0;
            case LATEST:
                return offsets.highWatermark(partitionId);
            case TIMESTAMP:
                return offsets.firstOffsetAtOrAfter(
                                partitionId, OffsetSpecs.timestampMillis(starting))
                        .orElseGet(() -> offsets.highWatermark(partitionId));
            case SPECIFIC:
                Long start = OffsetSpecs.offsets(starting).offsetOf(topic.partition(partitionId));
                return start != null ? start : 0L;
            case COMMITTED:
                return offsets.storedOffset(partitionId)
                        .map(stored -> stored + 1)
                        .orElseGet(() -> committedFallback(topic, partitionId, offsets));
            default:
                throw new IllegalStateException("Unknown starting position " + starting);
        }
    }

    private long committedFallback(TopicPath topic, long partitionId, PartitionOffsets offsets) {
        switch (OffsetSpecs.committedFallback(starting)) {
            case EARLIEST:
                return 0;
            case LATEST:
                return offsets.highWatermark(partitionId);
            default:
                throw new IggyConfigurationException(
                        "Consumer '"
                                + consumerName
                                + "' has no stored offset for partition "
                                + partitionId
                                + " of "
                                + topic
                                + ", and the committed starting position has fallback FAIL. "
                                + "Store an offset first, or choose fallback EARLIEST or LATEST.");
        }
    }

    long stoppingOffset(TopicPath topic, long partitionId, PartitionOffsets offsets) {
        if (stopping == null) {
            return IggyPartitionSplit.NO_STOPPING_OFFSET;
        }
        switch (OffsetSpecs.kind(stopping)) {
            case LATEST:
                return offsets.highWatermark(partitionId);
            case SPECIFIC:
                Long end = OffsetSpecs.offsets(stopping).offsetOf(topic.partition(partitionId));
                return end != null ? end : offsets.highWatermark(partitionId);
            case TIMESTAMP:
                return offsets.firstOffsetAtOrAfter(
                                partitionId, OffsetSpecs.timestampMillis(stopping))
                        .orElseGet(() -> offsets.highWatermark(partitionId));
            default:
                throw new IllegalStateException("Unknown stopping position " + stopping);
        }
    }
}

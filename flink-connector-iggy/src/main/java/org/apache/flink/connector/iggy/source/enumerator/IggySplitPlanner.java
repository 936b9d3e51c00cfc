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
import org.apache.flink.connector.iggy.source.OffsetSpecs.Spec;
import org.apache.flink.connector.iggy.source.OffsetSpecs.StartKind;
import org.apache.flink.connector.iggy.source.OffsetSpecs.StopKind;
import org.apache.flink.connector.iggy.source.internal.SpecificOffsets;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import javax.annotation.Nullable;

import java.io.Serializable;

/** Turns the configured starting and stopping positions into offsets of unrestored partitions. */
@Internal
public final class IggySplitPlanner implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String consumerName;
    private final Spec<StartKind> start;
    @Nullable private final Spec<StopKind> stop;

    public IggySplitPlanner(
            String consumerName,
            IggyStartingOffsets starting,
            @Nullable IggyStoppingOffsets stopping) {
        this.consumerName = consumerName;
        this.start = OffsetSpecs.of(starting);
        this.stop = stopping == null ? null : OffsetSpecs.of(stopping);
    }

    /** A split from the configured starting position, for a topic first read by this job. */
    IggyPartitionSplit initialSplit(TopicPath topic, long partitionId, PartitionOffsets offsets) {
        return new IggyPartitionSplit(
                topic.stream(),
                topic.topic(),
                partitionId,
                startingOffset(topic, partitionId, offsets),
                stoppingOffset(topic, partitionId, offsets));
    }

    /** A split from offset 0, for what appeared while the job runs: nothing in it is skipped. */
    IggyPartitionSplit discoveredSplit(TopicPath topic, long partitionId) {
        return new IggyPartitionSplit(
                topic.stream(),
                topic.topic(),
                partitionId,
                0,
                IggyPartitionSplit.NO_STOPPING_OFFSET);
    }

    long startingOffset(TopicPath topic, long partitionId, PartitionOffsets offsets) {
        return switch (start.kind()) {
            case EARLIEST -> 0;
            case LATEST -> offsets.highWatermark(partitionId);
            case TIMESTAMP -> firstAtOrAfter(start.timestampMillis(), partitionId, offsets);
            case SPECIFIC -> orElse(start.offsets(), topic, partitionId, 0L);
            case COMMITTED ->
                    offsets.storedOffset(partitionId)
                            .map(stored -> stored + 1)
                            .orElseGet(() -> committedFallback(topic, partitionId, offsets));
        };
    }

    private long committedFallback(TopicPath topic, long partitionId, PartitionOffsets offsets) {
        return switch (start.fallback()) {
            case EARLIEST -> 0;
            case LATEST -> offsets.highWatermark(partitionId);
            case FAIL ->
                    throw new IggyConfigurationException(
                            "Consumer '"
                                    + consumerName
                                    + "' has no stored offset for partition "
                                    + partitionId
                                    + " of "
                                    + topic
                                    + ", and the committed starting position has fallback FAIL. "
                                    + "Store an offset first, or choose fallback EARLIEST or LATEST.");
        };
    }

    long stoppingOffset(TopicPath topic, long partitionId, PartitionOffsets offsets) {
        if (stop == null) {
            return IggyPartitionSplit.NO_STOPPING_OFFSET;
        }
        return switch (stop.kind()) {
            case LATEST -> offsets.highWatermark(partitionId);
            case SPECIFIC ->
                    orElse(stop.offsets(), topic, partitionId, offsets.highWatermark(partitionId));
            case TIMESTAMP -> firstAtOrAfter(stop.timestampMillis(), partitionId, offsets);
        };
    }

    private static long firstAtOrAfter(long millis, long partitionId, PartitionOffsets offsets) {
        return offsets.firstOffsetAtOrAfter(partitionId, millis)
                .orElseGet(() -> offsets.highWatermark(partitionId));
    }

    private static long orElse(
            SpecificOffsets specific, TopicPath topic, long partitionId, long otherwise) {
        Long offset = specific.offsetOf(topic.partition(partitionId));
        return offset != null ? offset : otherwise;
    }
}

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
package org.apache.flink.connector.iggy.source;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.source.OffsetSpecs.StopKind;
import org.apache.flink.connector.iggy.source.internal.SpecificOffsets;

import java.io.Serializable;
import java.util.Map;
import java.util.Objects;

/**
 * Where each partition of a bounded source stops (exclusive). Resolved once per partition when the
 * job starts, so a bounded read covers what existed then (a catch-up read).
 */
@PublicEvolving
public final class IggyStoppingOffsets implements Serializable {

    private static final long serialVersionUID = 1L;

    private final StopKind kind;
    private final long timestampMillis;
    private final SpecificOffsets offsets;

    private IggyStoppingOffsets(StopKind kind, long timestampMillis, SpecificOffsets offsets) {
        this.kind = kind;
        this.timestampMillis = timestampMillis;
        this.offsets = offsets;
    }

    public static IggyStoppingOffsets latest() {
        return new IggyStoppingOffsets(StopKind.LATEST, -1, SpecificOffsets.NONE);
    }

    /** Exclusive end offset per partition id (the initial high watermark). */
    public static IggyStoppingOffsets specific(Map<Long, Long> endOffsetsByPartition) {
        return new IggyStoppingOffsets(
                StopKind.SPECIFIC,
                -1,
                SpecificOffsets.byPartitionId(endOffsetsByPartition, "stopping"));
    }

    /**
     * Exclusive end offset per listed partition; every other partition stops at its high watermark
     * at job start.
     */
    public static IggyStoppingOffsets specificByTopic(Map<IggyTopicPartition, Long> endOffsets) {
        return new IggyStoppingOffsets(
                StopKind.SPECIFIC, -1, SpecificOffsets.byTopicPartition(endOffsets, "stopping"));
    }

    /**
     * Stops before the first message whose server timestamp (epoch ms) is at or after {@code
     * timestampMillis}, or at the high watermark at job start when there is none yet.
     */
    public static IggyStoppingOffsets timestamp(long timestampMillis) {
        if (timestampMillis < 0) {
            throw new IllegalArgumentException(
                    "Stopping timestamp must be epoch milliseconds >= 0, but is "
                            + timestampMillis);
        }
        return new IggyStoppingOffsets(StopKind.TIMESTAMP, timestampMillis, SpecificOffsets.NONE);
    }

    StopKind kind() {
        return kind;
    }

    long timestampMillis() {
        return timestampMillis;
    }

    SpecificOffsets offsets() {
        return offsets;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof IggyStoppingOffsets)) {
            return false;
        }
        IggyStoppingOffsets that = (IggyStoppingOffsets) o;
        return kind == that.kind
                && timestampMillis == that.timestampMillis
                && offsets.equals(that.offsets);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, timestampMillis, offsets);
    }

    @Override
    public String toString() {
        switch (kind) {
            case TIMESTAMP:
                return "timestamp " + timestampMillis;
            case SPECIFIC:
                return "specific " + offsets;
            default:
                return "latest";
        }
    }
}

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

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.source.internal.SpecificOffsets;

/**
 * What an {@link IggyStartingOffsets} or {@link IggyStoppingOffsets} holds, for the builder and the
 * enumerator that resolve it. Users pick positions with the factory methods of those types; this
 * view is not API.
 */
@Internal
public final class OffsetSpecs {

    /** The kinds of starting position. */
    public enum StartKind {
        /** The first offset of the partition (0). */
        EARLIEST,
        /** The end of the partition at job start: only messages sent later are read. */
        LATEST,
        /** The offset stored under the consumer name, plus one; a fallback when none is stored. */
        COMMITTED,
        /** The first message whose server timestamp is at or after a point in time. */
        TIMESTAMP,
        /** An explicit offset per partition; partitions not listed start at the earliest offset. */
        SPECIFIC
    }

    /** The kinds of stopping position. */
    public enum StopKind {
        /** The partition's high watermark (next offset) at job start. */
        LATEST,
        /**
         * An explicit exclusive end per partition (an initial high watermark); partitions not
         * listed stop at their high watermark at job start.
         */
        SPECIFIC,
        /** Before the first message whose server timestamp is at or after a point in time. */
        TIMESTAMP
    }

    private OffsetSpecs() {}

    public static StartKind kind(IggyStartingOffsets starting) {
        return starting.kind();
    }

    /** Where a partition without a stored offset starts under {@link StartKind#COMMITTED}. */
    public static IggyStartingOffsets.CommittedFallback committedFallback(
            IggyStartingOffsets starting) {
        return starting.committedFallback();
    }

    /** The point in time of {@link StartKind#TIMESTAMP}, epoch milliseconds. */
    public static long timestampMillis(IggyStartingOffsets starting) {
        return starting.timestampMillis();
    }

    /** The next offset per partition id of {@link StartKind#SPECIFIC}. */
    public static SpecificOffsets offsets(IggyStartingOffsets starting) {
        return starting.offsets();
    }

    public static StopKind kind(IggyStoppingOffsets stopping) {
        return stopping.kind();
    }

    /** The point in time of {@link StopKind#TIMESTAMP}, epoch milliseconds. */
    public static long timestampMillis(IggyStoppingOffsets stopping) {
        return stopping.timestampMillis();
    }

    /** The exclusive end offset per partition id of {@link StopKind#SPECIFIC}. */
    public static SpecificOffsets offsets(IggyStoppingOffsets stopping) {
        return stopping.offsets();
    }
}

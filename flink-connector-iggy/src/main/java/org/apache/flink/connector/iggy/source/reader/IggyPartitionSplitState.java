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
package org.apache.flink.connector.iggy.source.reader;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;

/**
 * Progress of one split in a reader. The task thread advances {@link #nextOffset()} as records are
 * emitted; the fetcher thread publishes what it learns about the partition's end; metric reporters
 * read both.
 */
@Internal
public final class IggyPartitionSplitState {

    private static final long UNKNOWN = -1;

    private final IggyPartitionSplit split;

    /** Where this reader took the split over: nothing at or before it is stored again. */
    private final long assignedAtOffset;

    // Written per record on the task thread: plain, not volatile. Metric threads may read a
    // slightly stale value, which is fine for a gauge.
    private long nextOffset;
    private volatile long endOffset = UNKNOWN;
    private volatile long caughtUpOffset = UNKNOWN;
    private volatile long committedOffset = UNKNOWN;

    IggyPartitionSplitState(IggyPartitionSplit split) {
        this.split = split;
        this.assignedAtOffset = split.startingOffset();
        this.nextOffset = split.startingOffset();
    }

    public IggyPartitionSplit split() {
        return split;
    }

    public long partitionId() {
        return split.partitionId();
    }

    long assignedAtOffset() {
        return assignedAtOffset;
    }

    /** The offset after the last emitted record. */
    public long nextOffset() {
        return nextOffset;
    }

    void setNextOffset(long nextOffset) {
        this.nextOffset = nextOffset;
    }

    /** The partition's exclusive end as last seen by a poll, or -1 before the first poll. */
    long endOffset() {
        return endOffset;
    }

    void setEndOffset(long endOffset) {
        this.endOffset = endOffset;
    }

    /** The partition's end at the first poll: reaching it means caught up; -1 until known. */
    long caughtUpOffset() {
        return caughtUpOffset;
    }

    void setCaughtUpOffsetIfUnknown(long offset) {
        if (caughtUpOffset == UNKNOWN) {
            caughtUpOffset = offset;
        }
    }

    boolean isCaughtUp() {
        long target = caughtUpOffset;
        return target != UNKNOWN && nextOffset >= target;
    }

    /** The last offset this reader stored under the consumer name, or -1. */
    long committedOffset() {
        return committedOffset;
    }

    void setCommittedOffset(long committedOffset) {
        this.committedOffset = committedOffset;
    }

    /** Records known to be in the partition but not yet emitted. */
    long pendingRecords() {
        long end = endOffset;
        return end == UNKNOWN ? 0 : Math.max(0, end - nextOffset);
    }

    IggyPartitionSplit toSplit() {
        return split.withStartingOffset(nextOffset);
    }
}

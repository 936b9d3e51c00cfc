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

/** A split's progress on the task thread: the emitter advances {@link #nextOffset()} per record. */
@Internal
public final class IggyPartitionSplitState {

    private final IggyPartitionSplit split;

    // Written per record on the task thread: plain, not volatile; a gauge may read a stale value.
    private long nextOffset;

    IggyPartitionSplitState(IggyPartitionSplit split) {
        this.split = split;
        this.nextOffset = split.startingOffset();
    }

    public IggyPartitionSplit split() {
        return split;
    }

    public String splitId() {
        return split.splitId();
    }

    /** Where this reader took the split over: nothing at or before it is stored again. */
    long assignedAtOffset() {
        return split.startingOffset();
    }

    /** The offset after the last emitted record. */
    public long nextOffset() {
        return nextOffset;
    }

    void setNextOffset(long nextOffset) {
        this.nextOffset = nextOffset;
    }

    IggyPartitionSplit toSplit() {
        return split.withStartingOffset(nextOffset);
    }
}

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

import javax.annotation.Nullable;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one source reader knows about its partitions' progress, shared between its threads. The task
 * thread writes {@link Partition#reading}, {@link Partition#lastNextOffset} and {@link #caughtUp};
 * the fetcher thread every other field. The map, by split id, is concurrent: an entry is added by
 * whichever thread first needs it and never removed.
 */
@Internal
public final class IggySourceProgress {

    /** An offset not known yet. */
    static final long UNKNOWN = -1;

    private final Map<String, Partition> partitions = new ConcurrentHashMap<>();

    /** Every partition read here reached the end first seen. */
    private volatile boolean caughtUp;

    /** One partition's progress. */
    static final class Partition {
        /** The split read here, or null once it finished; its next offset is a gauge. */
        @Nullable volatile IggyPartitionSplitState reading;

        volatile long lastNextOffset = UNKNOWN;
        volatile long endOffset = UNKNOWN;
        volatile long caughtUpOffset = UNKNOWN;
        volatile long committedOffset = UNKNOWN;

        /** Epoch milliseconds of the last successful offset store, or -1 before one. */
        volatile long lastOffsetStoreTime = -1;

        /** The offset after the last emitted record, read here or last read. */
        long nextOffset() {
            IggyPartitionSplitState state = reading;
            return state != null ? state.nextOffset() : lastNextOffset;
        }
    }

    Partition partition(String splitId) {
        return partitions.computeIfAbsent(splitId, id -> new Partition());
    }

    /** Task thread: a split starts being read here. */
    void splitAdded(IggyPartitionSplitState state) {
        partition(state.splitId()).reading = state;
    }

    /** Task thread: the split finished; its offsets stay for the gauges. */
    void splitFinished(IggyPartitionSplitState state) {
        Partition partition = partitions.get(state.splitId());
        if (partition != null && partition.reading == state) {
            partition.lastNextOffset = state.nextOffset();
            partition.reading = null;
        }
    }

    /** Fetcher thread: the partition's end as last seen; true if it is the first one. */
    static boolean publishEnd(Partition partition, long end) {
        partition.endOffset = end;
        if (partition.caughtUpOffset == UNKNOWN) {
            partition.caughtUpOffset = end;
            return true;
        }
        return false;
    }

    /** Fetcher thread. */
    void committed(String splitId, long offset, long epochMillis) {
        Partition partition = partition(splitId);
        partition.committedOffset = offset;
        partition.lastOffsetStoreTime = epochMillis;
    }

    /** The last offset stored for the split's partition, or {@link #UNKNOWN}. */
    long committedOffset(String splitId) {
        Partition partition = partitions.get(splitId);
        return partition == null ? UNKNOWN : partition.committedOffset;
    }

    /** Task thread: true once every split read here reached the end it first saw. */
    boolean checkCaughtUp(Iterable<IggyPartitionSplitState> active) {
        for (IggyPartitionSplitState state : active) {
            Partition partition = partitions.get(state.splitId());
            long target = partition == null ? UNKNOWN : partition.caughtUpOffset;
            if (target == UNKNOWN || state.nextOffset() < target) {
                return false;
            }
        }
        caughtUp = true;
        return true;
    }

    boolean caughtUp() {
        return caughtUp;
    }

    /** Records known to be in the partitions being read here but not emitted yet. */
    long pendingRecords() {
        long pending = 0;
        for (Partition partition : partitions.values()) {
            IggyPartitionSplitState state = partition.reading;
            long end = partition.endOffset;
            if (state != null && end != UNKNOWN) {
                pending += Math.max(0, end - state.nextOffset());
            }
        }
        return pending;
    }
}

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
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;

import javax.annotation.Nullable;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one source reader publishes about its partitions, safe for every thread that touches it: the
 * fetcher thread publishes partition ends, the task thread registers splits and reads the ends for
 * caught-up, offset-store callbacks record commits, and metric reporters read it all.
 *
 * <p>Metrics: {@code commitsSucceeded}, {@code commitsFailed}, {@code caughtUp}, the standard
 * {@code pendingRecords}, and per partition {@code partition.<id>.currentOffset}, {@code
 * committedOffset} and {@code endOffset}.
 */
@Internal
public final class IggySourceReaderMetrics {

    static final long UNKNOWN = -1;

    private final SourceReaderMetricGroup group;
    private final Counter commitsSucceeded;
    private final Counter commitsFailed;
    private final Map<Long, Partition> partitions = new ConcurrentHashMap<>();
    private volatile boolean caughtUp;

    public IggySourceReaderMetrics(SourceReaderMetricGroup group) {
        this.group = group;
        this.commitsSucceeded = group.counter("commitsSucceeded", new ThreadSafeSimpleCounter());
        this.commitsFailed = group.counter("commitsFailed", new ThreadSafeSimpleCounter());
        group.gauge("caughtUp", () -> caughtUp ? 1 : 0);
        group.setPendingRecordsGauge(this::pendingRecords);
    }

    /** One partition's published progress. */
    static final class Partition {
        /** The split being read here, or null once it finished; its next offset is a gauge. */
        @Nullable volatile IggyPartitionSplitState reading;

        volatile long lastNextOffset = UNKNOWN;
        volatile long endOffset = UNKNOWN;
        volatile long caughtUpOffset = UNKNOWN;
        volatile long committedOffset = UNKNOWN;

        /** Task thread only. */
        boolean gaugesRegistered;

        long nextOffset() {
            IggyPartitionSplitState state = reading;
            return state != null ? state.nextOffset() : lastNextOffset;
        }
    }

    /** Task thread: a split starts being read here; registers the partition's gauges once. */
    void splitAdded(IggyPartitionSplitState state) {
        Partition partition = partition(state.partitionId());
        if (!partition.gaugesRegistered) {
            MetricGroup g = group.addGroup("partition", Long.toString(state.partitionId()));
            g.gauge("currentOffset", () -> partition.nextOffset() - 1);
            g.gauge("committedOffset", () -> partition.committedOffset);
            g.gauge("endOffset", () -> partition.endOffset);
            partition.gaugesRegistered = true;
        }
        partition.reading = state;
    }

    /** Task thread: the split finished; its gauges keep the last values. */
    void splitFinished(IggyPartitionSplitState state) {
        Partition partition = partitions.get(state.partitionId());
        if (partition != null && partition.reading == state) {
            partition.lastNextOffset = state.nextOffset();
            partition.reading = null;
        }
    }

    /** The entry the fetcher publishes a partition's end to. */
    Partition partition(long partitionId) {
        return partitions.computeIfAbsent(partitionId, id -> new Partition());
    }

    /**
     * Fetcher thread: the partition's exclusive end as last seen. The first end seen is the one
     * reaching which counts as caught up.
     */
    static void publishEnd(Partition partition, long end) {
        partition.endOffset = end;
        if (partition.caughtUpOffset == UNKNOWN) {
            partition.caughtUpOffset = end;
        }
    }

    /** Task thread: true once every split read here reached the end it first saw. */
    boolean checkCaughtUp(Iterable<IggyPartitionSplitState> active) {
        for (IggyPartitionSplitState state : active) {
            Partition partition = partitions.get(state.partitionId());
            long target = partition == null ? UNKNOWN : partition.caughtUpOffset;
            if (target == UNKNOWN || state.nextOffset() < target) {
                return false;
            }
        }
        caughtUp = true;
        return true;
    }

    long committedOffset(long partitionId) {
        Partition partition = partitions.get(partitionId);
        return partition == null ? UNKNOWN : partition.committedOffset;
    }

    /** Any thread: an offset store succeeded. */
    void committed(long partitionId, long offset) {
        partition(partitionId).committedOffset = offset;
        commitsSucceeded.inc();
    }

    /** Any thread: an offset store failed. */
    void commitFailed() {
        commitsFailed.inc();
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

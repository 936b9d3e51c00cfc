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
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;

import java.util.HashSet;
import java.util.Set;

/**
 * The metrics of one source reader, read from {@link IggySourceProgress}: {@code caughtUp}, {@code
 * pendingRecords}, per partition gauges, and the counters of offset stores, which the fetcher
 * thread increments.
 *
 * <p>Gauges are registered on the task thread; metric reporters read them on theirs.
 */
@Internal
public final class IggySourceReaderMetrics {

    private final SourceReaderMetricGroup group;
    private final IggySourceProgress progress;
    final Counter commitsSucceeded;
    final Counter commitsFailed;

    /** Task thread only: splits whose gauges exist. */
    private final Set<String> registered = new HashSet<>();

    public IggySourceReaderMetrics(SourceReaderMetricGroup group, IggySourceProgress progress) {
        this.group = group;
        this.progress = progress;
        this.commitsSucceeded = group.counter("commitsSucceeded", new ThreadSafeSimpleCounter());
        this.commitsFailed = group.counter("commitsFailed", new ThreadSafeSimpleCounter());
        group.gauge("caughtUp", () -> progress.caughtUp() ? 1 : 0);
        group.setPendingRecordsGauge(progress::pendingRecords);
    }

    /** Task thread: registers the partition's gauges once. */
    void splitAdded(IggyPartitionSplit split) {
        if (registered.add(split.splitId())) {
            IggySourceProgress.Partition partition = progress.partition(split.splitId());
            MetricGroup g =
                    group.addGroup("stream", split.stream().asText())
                            .addGroup("topic", split.topic().asText())
                            .addGroup("partition", Long.toString(split.partitionId()));
            g.gauge("currentOffset", () -> partition.nextOffset() - 1);
            g.gauge("committedOffset", () -> partition.committedOffset);
            g.gauge("endOffset", () -> partition.endOffset);
            g.gauge("lastOffsetStoreTime", () -> partition.lastOffsetStoreTime);
        }
    }
}

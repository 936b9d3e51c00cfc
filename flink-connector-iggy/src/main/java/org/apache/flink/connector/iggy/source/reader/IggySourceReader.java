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
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.connector.base.source.reader.fetcher.SingleThreadFetcherManager;
import org.apache.flink.connector.base.source.reader.fetcher.SplitFetcher;
import org.apache.flink.connector.base.source.reader.fetcher.SplitFetcherTask;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.enumerator.RestoreCheck;
import org.apache.flink.connector.iggy.source.enumerator.RestoredSplitsEvent;
import org.apache.flink.connector.iggy.source.internal.IggySourceConfig;
import org.apache.flink.connector.iggy.source.internal.TopicSubscription;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.util.UserCodeClassLoader;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Reads the partitions assigned to one subtask. When a checkpoint completes, it has the fetcher
 * thread store each split's last covered offset under the consumer name ({@link OffsetStore}):
 * nothing for a split not read past where it was assigned, nothing without a consumer name.
 *
 * <p>Every field is the task thread's; what the fetcher learns is shared through {@link
 * IggySourceProgress}.
 */
@Internal
public final class IggySourceReader<T>
        extends SingleThreadMultiplexSourceReaderBase<
                IggyMessage, T, IggyPartitionSplit, IggyPartitionSplitState> {

    private static final Logger LOG = LoggerFactory.getLogger(IggySourceReader.class);

    /** Caught-up is also checked after this many records while data keeps flowing. */
    private static final int CAUGHT_UP_CHECK_EVERY = 4096;

    private final IggyReadRequests requests;
    private final IggySourceProgress progress;
    private final IggySourceReaderMetrics metrics;
    private final FetcherManager fetchers;
    private final TopicSubscription subscription;
    private final boolean storesOffsets;

    /** Restored splits of topics no longer subscribed, failing the first poll (not the start). */
    private final Set<String> unsubscribedRestoredTopics = new TreeSet<>();

    private final Map<String, IggyPartitionSplitState> activeSplits = new HashMap<>();
    private final Map<String, IggyPartitionSplitState> finishedSplitsToStore = new HashMap<>();
    private final TreeMap<Long, List<OffsetToStore>> offsetsByCheckpoint = new TreeMap<>();

    private boolean caughtUp;
    private int recordsSinceCaughtUpCheck;

    private IggySourceReader(
            IggyReadRequests requests,
            IggySourceProgress progress,
            IggySourceReaderMetrics metrics,
            IggySourceConfig config,
            FetcherManager fetchers,
            IggyRecordEmitter<T> emitter,
            Configuration flinkConfig,
            SourceReaderContext context) {
        super(fetchers, emitter, flinkConfig, context);
        this.requests = requests;
        this.progress = progress;
        this.metrics = metrics;
        this.subscription = config.subscription();
        this.fetchers = fetchers;
        this.storesOffsets = config.storesOffsets();
    }

    /** Opens the deserializer; connects nowhere: the fetcher connects once the task runs. */
    public static <T> IggySourceReader<T> create(
            IggySourceConfig config,
            IggyRecordDeserializationSchema<T> deserializer,
            Configuration flinkConfig,
            SourceReaderContext context)
            throws Exception {
        SourceReaderMetricGroup group = context.metricGroup();
        Counter skipped = group.counter("numRecordsSkipped");
        deserializer.open(new DeserializerContext(context, skipped));
        IggyRecordEmitter<T> emitter =
                new IggyRecordEmitter<>(
                        deserializer,
                        config.skipUndecodableRecords(),
                        group.getIOMetricGroup().getNumBytesInCounter(),
                        skipped);
        IggySourceProgress progress = new IggySourceProgress();
        return wire(
                new IggyClientReadRequests(
                        config.connection(),
                        config.consumerName(),
                        group.counter(IggyClients.RECONNECTS, new ThreadSafeSimpleCounter())),
                progress,
                new IggySourceReaderMetrics(group, progress),
                config,
                emitter,
                flinkConfig,
                context);
    }

    static <T> IggySourceReader<T> wire(
            IggyReadRequests requests,
            IggySourceProgress progress,
            IggySourceReaderMetrics metrics,
            IggySourceConfig config,
            IggyRecordEmitter<T> emitter,
            Configuration flinkConfig,
            SourceReaderContext context) {
        FetcherManager fetchers =
                new FetcherManager(
                        () ->
                                new IggyPartitionSplitReader(
                                        requests,
                                        progress,
                                        events ->
                                                new OffsetStore(
                                                        requests,
                                                        progress,
                                                        metrics,
                                                        config.consumerName(),
                                                        events),
                                        () -> new PollSize(config.fixedPollBatchSize()),
                                        () ->
                                                new DescribeSchedule(
                                                        config.pollMinInterval(),
                                                        config.pollInterval(),
                                                        config.pollBackOff(),
                                                        System.nanoTime()),
                                        onDeletedTopic(config),
                                        SharedPollLimit.JVM),
                        flinkConfig);
        return new IggySourceReader<>(
                requests, progress, metrics, config, fetchers, emitter, flinkConfig, context);
    }

    private static TopologyGuard.OnDeletedTopic onDeletedTopic(IggySourceConfig config) {
        if (config.deletedTopicSkip()) {
            return TopologyGuard.OnDeletedTopic.SKIP;
        }
        return config.recreatedTopicReadFromStart()
                ? TopologyGuard.OnDeletedTopic.READ_RECREATED_FROM_START
                : TopologyGuard.OnDeletedTopic.FAIL;
    }

    /** Flink's initialization context for deserializers, plus the skip counter. */
    private record DeserializerContext(SourceReaderContext context, Counter skippedRecordsCounter)
            implements IggyRecordDeserializationSchema.Context {
        @Override
        public MetricGroup getMetricGroup() {
            return context.metricGroup().addGroup("deserializer");
        }

        @Override
        public UserCodeClassLoader getUserCodeClassLoader() {
            return context.getUserCodeClassLoader();
        }
    }

    @Override
    protected IggyPartitionSplitState initializedState(IggyPartitionSplit split) {
        if (!subscription.contains(split.topicPath())) {
            // Only restored splits can be of another topic; failing while the task starts could
            // take the TaskManager down (FLINK-39330), so the first poll fails instead.
            unsubscribedRestoredTopics.add(split.topicPath().toString());
        }
        IggyPartitionSplitState state = new IggyPartitionSplitState(split);
        activeSplits.put(split.splitId(), state);
        progress.splitAdded(state);
        metrics.splitAdded(split);
        return state;
    }

    @Override
    protected IggyPartitionSplit toSplitType(String splitId, IggyPartitionSplitState state) {
        return state.toSplit();
    }

    @Override
    protected void onSplitFinished(Map<String, IggyPartitionSplitState> finishedSplitIds) {
        finishedSplitIds.forEach(
                (id, state) -> {
                    activeSplits.remove(id);
                    progress.splitFinished(state);
                    finishedSplitsToStore.put(id, state);
                    LOG.info("Finished reading {} at offset {}", state.split(), state.nextOffset());
                });
    }

    /** Tells the enumerator the splits this reader restored, never to be assigned again. */
    @Override
    public void start() {
        List<IggyTopicPartition> restored = new ArrayList<>();
        activeSplits.values().forEach(state -> restored.add(state.split().topicPartition()));
        context.sendSourceEventToCoordinator(new RestoredSplitsEvent(restored));
    }

    /** Fails on a split this reader holds already: reading it twice would emit it twice. */
    @Override
    public void addSplits(List<IggyPartitionSplit> splits) {
        for (IggyPartitionSplit split : splits) {
            if (activeSplits.containsKey(split.splitId())) {
                throw RestoreCheck.assignedTwice(split.topicPath());
            }
        }
        super.addSplits(splits);
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
        if (!unsubscribedRestoredTopics.isEmpty()) {
            throw RestoreCheck.notSubscribed(unsubscribedRestoredTopics, subscription);
        }
        InputStatus status = super.pollNext(output);
        if (!caughtUp
                && (status != InputStatus.MORE_AVAILABLE
                        || ++recordsSinceCaughtUpCheck >= CAUGHT_UP_CHECK_EVERY)) {
            recordsSinceCaughtUpCheck = 0;
            checkCaughtUp();
        }
        return status;
    }

    private void checkCaughtUp() {
        if (activeSplits.isEmpty() && finishedSplitsToStore.isEmpty()) {
            return; // nothing assigned yet
        }
        if (progress.checkCaughtUp(activeSplits.values())) {
            caughtUp = true;
            if (!activeSplits.isEmpty()) {
                LOG.info(
                        "Caught up: every partition of this reader reached its end as first seen ({} partitions)",
                        activeSplits.size());
            }
        }
    }

    @Override
    public List<IggyPartitionSplit> snapshotState(long checkpointId) {
        List<IggyPartitionSplit> splits = super.snapshotState(checkpointId);
        List<OffsetToStore> offsets = new ArrayList<>();
        for (IggyPartitionSplitState state : activeSplits.values()) {
            offsets.add(new OffsetToStore(state, state.nextOffset(), false));
        }
        for (IggyPartitionSplitState state : finishedSplitsToStore.values()) {
            offsets.add(new OffsetToStore(state, state.nextOffset(), true));
        }
        offsetsByCheckpoint.put(checkpointId, offsets);
        return splits;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        List<OffsetToStore> offsets = offsetsByCheckpoint.get(checkpointId);
        // Older pending checkpoints are subsumed by this one.
        offsetsByCheckpoint.headMap(checkpointId, true).clear();
        if (offsets == null) {
            return;
        }
        List<OffsetStore.PartitionOffset> toStore = new ArrayList<>();
        for (OffsetToStore offset : offsets) {
            if (offset.splitFinished) {
                finishedSplitsToStore.remove(offset.state.split().splitId(), offset.state);
            }
            long last = offset.nextOffset - 1;
            if (storesOffsets
                    && offset.nextOffset > offset.state.assignedAtOffset()
                    && last != progress.committedOffset(offset.state.splitId())) {
                toStore.add(new OffsetStore.PartitionOffset(offset.state.split(), last));
            }
        }
        if (!toStore.isEmpty()) {
            fetchers.storeOffsets(toStore);
        }
    }

    /**
     * Closes the fetcher (which waits at most {@link OffsetStore#CLOSE_WAIT_NANOS} for offsets
     * being stored), then the client.
     */
    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            requests.close();
        }
    }

    /**
     * @param splitFinished recorded after the split finished: its final offset, stored once
     */
    private record OffsetToStore(
            IggyPartitionSplitState state, long nextOffset, boolean splitFinished) {}

    /**
     * The one fetcher of a source reader, which also stores offsets: the task thread hands them
     * over as a task run between two fetches, so that every request is sent from the fetcher
     * thread. With no fetcher running (every split finished), one is started for the task.
     */
    private static final class FetcherManager
            extends SingleThreadFetcherManager<IggyMessage, IggyPartitionSplit> {

        FetcherManager(
                Supplier<SplitReader<IggyMessage, IggyPartitionSplit>> splitReaders,
                Configuration config) {
            super(splitReaders, config);
        }

        /** Task thread. */
        void storeOffsets(List<OffsetStore.PartitionOffset> offsets) {
            SplitFetcher<IggyMessage, IggyPartitionSplit> running = getRunningFetcher();
            SplitFetcher<IggyMessage, IggyPartitionSplit> fetcher =
                    running != null ? running : createSplitFetcher();
            IggyPartitionSplitReader reader = (IggyPartitionSplitReader) fetcher.getSplitReader();
            reader.offerOffsets(offsets);
            fetcher.enqueueTask(
                    new SplitFetcherTask() {
                        @Override
                        public boolean run() throws IOException {
                            reader.storeOffsets();
                            return true;
                        }

                        @Override
                        public void wakeUp() {
                            reader.wakeUp();
                        }
                    });
            if (running == null) {
                startFetcher(fetcher);
            }
        }
    }
}

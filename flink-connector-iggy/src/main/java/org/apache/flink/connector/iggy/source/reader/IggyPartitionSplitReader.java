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
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsRemoval;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reads the assigned partitions, of any number of topics, with explicit offset polls (auto-commit
 * off). {@link PartitionPolls} polls partitions with unread data; a {@link TopicWatch} per topic
 * describes it to learn which partitions grew; {@link WatchedTopics} checks quiet topics together;
 * {@link OffsetStore} stores the offsets of completed checkpoints. This class runs the fetch loop
 * over the {@link FetchEvent}s the SDK's threads queue; a fetch handles only what arrived.
 *
 * <p>Every field is the fetcher thread's, except {@link #events}, which any thread adds to, and
 * {@link #offsetsToStore}, which the task thread adds to.
 */
@Internal
public final class IggyPartitionSplitReader
        implements SplitReader<IggyMessage, IggyPartitionSplit> {

    /** A fetch returns at least this often, empty if need be. */
    private static final long MAX_FETCH_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final IggySourceProgress progress;
    private final LinkedBlockingQueue<FetchEvent> events = new LinkedBlockingQueue<>();
    private final PartitionPolls partitions;
    private final WatchedTopics topics;
    private final OffsetStore offsetStore;

    /** A queue, not only a fetcher task: a fetcher shut down early still stores these in close. */
    private final Queue<List<OffsetStore.PartitionOffset>> offsetsToStore =
            new ConcurrentLinkedQueue<>();

    IggyPartitionSplitReader(
            IggyReadRequests requests,
            IggySourceProgress progress,
            Function<Consumer<FetchEvent>, OffsetStore> offsetStores,
            Supplier<PollSize> pollSizes,
            Supplier<DescribeSchedule> schedules,
            TopologyGuard.OnDeletedTopic onDeleted,
            SharedPollLimit sharedPollLimit) {
        this.progress = progress;
        this.offsetStore = offsetStores.apply(events::add);
        this.partitions = new PartitionPolls(requests, events::add, sharedPollLimit);
        this.topics =
                new WatchedTopics(
                        requests,
                        events::add,
                        (topic, watched) ->
                                new TopicWatch(
                                        topic,
                                        requests,
                                        pollSizes.get(),
                                        partitions,
                                        schedules.get(),
                                        onDeleted,
                                        watched,
                                        events::add));
    }

    @Override
    public RecordsWithSplitIds<IggyMessage> fetch() throws IOException {
        Fetch fetch = new Fetch();
        long returnByNanos = System.nanoTime() + MAX_FETCH_NANOS;
        try {
            while (true) {
                FetchEvent event;
                while ((event = events.poll()) != null) {
                    fetch.handle(event);
                }
                partitions.finishReachedSplits(fetch.records);
                // Before the hand-over, which may wait: the next batches are read meanwhile.
                partitions.startDuePolls();
                if (!fetch.records.isEmpty()
                        || fetch.wokenUp
                        || partitions.takeFirstEndLearned()
                        || partitions.isEmpty()) {
                    return fetch.records;
                }
                long now = System.nanoTime();
                if (now - returnByNanos >= 0) {
                    return fetch.records;
                }
                long waitNanos = Math.min(topics.describeDue(now), returnByNanos - now);
                event = events.poll(waitNanos, TimeUnit.NANOSECONDS);
                if (event != null) {
                    fetch.handle(event);
                    if (fetch.wokenUp) {
                        return fetch.records;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fetch.records;
        }
    }

    /** What one fetch does with each event. */
    private final class Fetch {
        final IggyPolledRecords records = new IggyPolledRecords();
        boolean wokenUp;

        void handle(FetchEvent event) throws IOException {
            if (event instanceof FetchEvent.PollAnswer answer) {
                pollAnswered(answer);
            } else if (event instanceof FetchEvent.DescribeAnswer answer) {
                topics.described(answer);
            } else if (event instanceof FetchEvent.StreamAnswer answer) {
                topics.streamDescribed(answer);
            } else if (event instanceof FetchEvent.ListAnswer answer) {
                topics.streamsListed(answer);
            } else if (event instanceof FetchEvent.StoreAnswer answer) {
                offsetStore.answered(answer);
            } else {
                wokenUp = true; // FetchEvent.WakeUp, the one other kind
            }
        }

        private void pollAnswered(FetchEvent.PollAnswer answer) throws IOException {
            PartitionCursor cursor = partitions.answered(answer);
            if (cursor == null) {
                return;
            }
            TopicWatch watch = topics.of(cursor.topic);
            boolean caughtUp =
                    answer.error() == null
                            ? partitions.polled(cursor, answer.polled(), records)
                            : watch.pollFailed(cursor, answer.error());
            caughtUp |= partitions.followWithReadAhead(cursor, records);
            if (caughtUp) {
                watch.caughtUpAfterData(System.nanoTime());
            }
        }
    }

    /** Task thread: offsets for {@link #storeOffsets()} or, at the latest, {@link #close()}. */
    void offerOffsets(List<OffsetStore.PartitionOffset> offsets) {
        offsetsToStore.add(offsets);
    }

    /**
     * Fetcher thread, as a task between fetches. With no partition to fetch from, no fetch would
     * take the answers, so they are waited for here (bounded, or until a wake-up).
     */
    void storeOffsets() throws IOException {
        storeOffered();
        if (partitions.isEmpty()) {
            awaitStores(false);
        }
    }

    private void storeOffered() {
        List<OffsetStore.PartitionOffset> offsets;
        while ((offsets = offsetsToStore.poll()) != null) {
            offsetStore.store(offsets);
        }
    }

    /** Handles events until the stores answered, the bound or a wake-up; closing, only stores. */
    private void awaitStores(boolean closing) throws IOException {
        Fetch fetch = new Fetch();
        long deadline = System.nanoTime() + OffsetStore.CLOSE_WAIT_NANOS;
        try {
            while (!offsetStore.idle()) {
                long left = deadline - System.nanoTime();
                FetchEvent event = left > 0 ? events.poll(left, TimeUnit.NANOSECONDS) : null;
                if (event == null) {
                    return;
                }
                if (closing) {
                    if (event instanceof FetchEvent.StoreAnswer answer) {
                        offsetStore.answered(answer);
                    }
                } else {
                    fetch.handle(event);
                    if (fetch.wokenUp) {
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void handleSplitsChanges(SplitsChange<IggyPartitionSplit> splitsChanges) {
        if (splitsChanges instanceof SplitsAddition) {
            long now = System.nanoTime();
            for (IggyPartitionSplit split : splitsChanges.splits()) {
                TopicWatch watch = topics.of(split.topicPath());
                partitions.add(split, progress.partition(split.splitId()), watch.pollSize());
                watch.partitionsAdded(now);
            }
        } else if (splitsChanges instanceof SplitsRemoval) {
            for (IggyPartitionSplit split : splitsChanges.splits()) {
                partitions.remove(split.splitId());
            }
        }
    }

    @Override
    public void pauseOrResumeSplits(
            Collection<IggyPartitionSplit> splitsToPause,
            Collection<IggyPartitionSplit> splitsToResume) {
        for (IggyPartitionSplit split : splitsToPause) {
            partitions.pause(split.splitId());
        }
        for (IggyPartitionSplit split : splitsToResume) {
            PartitionCursor watched = partitions.resume(split.splitId());
            if (watched != null) {
                topics.of(watched.topic).describeNow(System.nanoTime());
            }
        }
    }

    @Override
    public void wakeUp() {
        events.add(FetchEvent.WakeUp.INSTANCE);
    }

    /**
     * Fetcher thread: drops the polls, stores the offsets still offered and waits, bounded, for the
     * stores, so that their outcome is counted and logged. The requests are the source reader's.
     */
    @Override
    public void close() {
        partitions.close();
        storeOffered();
        try {
            awaitStores(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // not thrown while closing: only stores answer
        }
    }
}

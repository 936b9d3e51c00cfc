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
import java.util.function.Supplier;

/**
 * Reads the assigned partitions, of any number of topics, with explicit partition polls ({@code
 * PollingStrategy.offset}, auto-commit off): Flink, not Iggy, decides who reads what and where.
 *
 * <p>The jobs are split: {@link PartitionPolls} polls partitions known to hold unread data, with a
 * read-ahead; one {@link TopicWatch} per topic, with the topic's own {@link PollSize}, watches the
 * topic's partitions that reached their end by describing it, and checks each description for a
 * topic or partition that changed under the reader; {@link WatchedTopics} checks the quiet topics
 * together, one request a round, and has only those that changed described; {@link OffsetStore}
 * stores the offsets of completed checkpoints. This class only runs the fetch loop: answers come
 * back on the SDK's threads as typed {@link FetchEvent}s into one queue, dispatched to the {@link
 * FetchEvent.Handler} below, and a fetch handles only what arrived, so that its cost follows the
 * partitions with data.
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

    /**
     * Completed checkpoints' offsets, added by the task thread and taken by the fetcher thread. A
     * queue rather than only a fetcher task: a fetcher shut down before it ran its tasks still
     * closes this reader, which stores what is left here.
     */
    private final Queue<List<OffsetStore.PartitionOffset>> offsetsToStore =
            new ConcurrentLinkedQueue<>();

    IggyPartitionSplitReader(
            IggyReadRequests requests,
            IggySourceProgress progress,
            OffsetStore.Factory offsetStores,
            Supplier<PollSize> pollSizes,
            Supplier<DescribeSchedule> schedules,
            TopologyGuard.OnDeletedTopic onDeleted,
            SharedPollLimit sharedPollLimit) {
        this.progress = progress;
        this.offsetStore = offsetStores.create(events::add);
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
        Fetch fetch = new Fetch(new IggyPolledRecords());
        long returnByNanos = System.nanoTime() + MAX_FETCH_NANOS;
        try {
            while (true) {
                FetchEvent event;
                while ((event = events.poll()) != null) {
                    event.dispatch(fetch);
                }
                partitions.finishReachedSplits(fetch.records);
                // Before the hand-over, which waits while the task thread is two batches behind:
                // the next batches are read meanwhile.
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
                long waitNanos = Math.min(describeDueTopics(now), returnByNanos - now);
                event = events.poll(waitNanos, TimeUnit.NANOSECONDS);
                if (event != null) {
                    event.dispatch(fetch);
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

    /** Describes each topic whose description is due; returns how long to wait for answers. */
    private long describeDueTopics(long now) {
        long wait = topics.describeDue(now);
        return wait == Long.MAX_VALUE ? MAX_FETCH_NANOS : wait;
    }

    /** What one fetch does with each event; {@code records} collects what it hands over. */
    private final class Fetch implements FetchEvent.Handler {
        final IggyPolledRecords records;
        boolean wokenUp;

        Fetch(IggyPolledRecords records) {
            this.records = records;
        }

        @Override
        public void pollAnswered(FetchEvent.PollAnswer answer) throws IOException {
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

        @Override
        public void described(FetchEvent.DescribeAnswer answer) throws IOException {
            topics.described(answer);
        }

        @Override
        public void streamDescribed(FetchEvent.StreamAnswer answer) {
            topics.streamDescribed(answer);
        }

        @Override
        public void streamsListed(FetchEvent.ListAnswer answer) {
            topics.streamsListed(answer);
        }

        @Override
        public void stored(FetchEvent.StoreAnswer answer) {
            offsetStore.answered(answer);
        }

        @Override
        public void wokenUp() {
            wokenUp = true;
        }
    }

    /**
     * Task thread: hands a completed checkpoint's offsets to the fetcher thread, which stores them
     * in {@link #storeOffsets()} or, at the latest, in {@link #close()}.
     */
    void offerOffsets(List<OffsetStore.PartitionOffset> offsets) {
        offsetsToStore.add(offsets);
    }

    /**
     * Fetcher thread, as a task between fetches: stores the offsets offered so far. With no
     * partition to fetch from, no fetch would take the answers, so they are waited for here, at
     * most {@link OffsetStore#CLOSE_WAIT_NANOS} or until a wake-up (new splits or tasks).
     */
    void storeOffsets() throws IOException {
        storeOffered();
        if (partitions.isEmpty()) {
            awaitStores(false);
        }
    }

    private void storeOffered() {
        for (List<OffsetStore.PartitionOffset> offsets = offsetsToStore.poll();
                offsets != null;
                offsets = offsetsToStore.poll()) {
            offsetStore.store(offsets);
        }
    }

    /**
     * Handles events until the offset stores answered, the wait's bound or a wake-up; closing, only
     * the stores' answers.
     */
    private void awaitStores(boolean closing) throws IOException {
        Fetch fetch = new Fetch(new IggyPolledRecords());
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
                    event.dispatch(fetch);
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
     * Fetcher thread, as the fetcher ends: drops the polls, stores the offsets still offered (a
     * fetcher shut down early skips its queued tasks) and waits for the offsets being stored, at
     * most {@link OffsetStore#CLOSE_WAIT_NANOS}, so that a store's outcome is counted and logged.
     * The task thread's {@code close()} waits for this.
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
        // The requests belong to the source reader, which closes them.
    }
}

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

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggySourceTestSupport;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.testutils.source.reader.TestingReaderContext;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.runtime.metrics.groups.InternalSourceReaderMetricGroup;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The split reader's scheduling against a topic in memory: what is polled, when, and how much. */
class IggyPartitionSplitReaderTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private final List<String> payloads = new ArrayList<>();
    private final Set<String> finished = new HashSet<>();
    private static final Duration LOW_LATENCY = Duration.ofMillis(4);

    private IggySourceProgress progress;
    private IggySourceReaderMetrics metrics;
    private IggyPartitionSplitReader reader;

    @AfterEach
    void close() {
        if (reader != null) {
            reader.close();
        }
    }

    private IggyPartitionSplitReader reader(
            FakeTopicRequests topic, int batchSize, Duration pollInterval, boolean readFromStart) {
        return reader(topic, new PollSize(batchSize), pollInterval, readFromStart);
    }

    private IggyPartitionSplitReader reader(
            FakeTopicRequests topic,
            PollSize pollSize,
            Duration pollInterval,
            boolean readFromStart) {
        return reader(
                topic,
                pollSize,
                pollInterval,
                readFromStart,
                new SharedPollLimit(SharedPollLimit.SHARED_POLLS));
    }

    private IggyPartitionSplitReader reader(
            FakeTopicRequests topic,
            PollSize pollSize,
            Duration pollInterval,
            boolean readFromStart,
            SharedPollLimit sharedLimit) {
        progress = new IggySourceProgress();
        metrics =
                new IggySourceReaderMetrics(
                        InternalSourceReaderMetricGroup.mock(new MetricListener().getMetricGroup()),
                        progress);
        // The shortest delay of a low-latency setting: tests then see data within milliseconds.
        Duration pollMinInterval =
                pollInterval.compareTo(LOW_LATENCY) < 0 ? pollInterval : LOW_LATENCY;
        reader =
                new IggyPartitionSplitReader(
                        topic,
                        progress,
                        events -> new OffsetStore(topic, progress, metrics, "c", events),
                        () -> pollSize,
                        () ->
                                new DescribeSchedule(
                                        pollMinInterval,
                                        pollInterval,
                                        pollInterval.multipliedBy(250),
                                        System.nanoTime()),
                        readFromStart
                                ? TopologyGuard.OnDeletedTopic.READ_RECREATED_FROM_START
                                : TopologyGuard.OnDeletedTopic.FAIL,
                        sharedLimit);
        return reader;
    }

    private static IggyPartitionSplit split(long partition, long from, long to) {
        return new IggyPartitionSplit(IggyId.of("s"), IggyId.of("t"), partition, from, to);
    }

    /** The id of the split of a partition of topic 't'. */
    private static String id(long partition) {
        return split(partition, 0, IggyPartitionSplit.NO_STOPPING_OFFSET).splitId();
    }

    private void assign(IggyPartitionSplit... splits) {
        reader.handleSplitsChanges(new SplitsAddition<>(List.of(splits)));
    }

    private void fetchUntil(BooleanSupplier done) throws Exception {
        Fetches.fetchUntil(reader, done, DEADLINE, payloads, finished);
    }

    private volatile boolean stopFetching;

    /** Fetches on another thread, as the fetcher does, until {@link #stopFetching}. */
    private CompletableFuture<Void> fetchInBackground() {
        stopFetching = false;
        return CompletableFuture.runAsync(
                () -> {
                    try {
                        while (!stopFetching) {
                            reader.fetch();
                        }
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
    }

    private void stopFetching(CompletableFuture<Void> fetching) {
        stopFetching = true;
        reader.wakeUp();
        fetching.join();
    }

    /** Holds the polls and fetches until {@code count} of them wait for an answer. */
    private void fetchUntilPollsAreHeld(FakeTopicRequests topic, int count) {
        topic.holdPolls = true;
        CompletableFuture<Void> fetching = fetchInBackground();
        waitFor(() -> topic.heldPollCount() == count, count + " held polls");
        stopFetching(fetching);
    }

    /** Payloads "p:from" to "p:(to - 1)". */
    private static String[] numbered(long partition, int from, int to) {
        String[] payloads = new String[to - from];
        for (int i = from; i < to; i++) {
            payloads[i - from] = partition + ":" + i;
        }
        return payloads;
    }

    private static void waitFor(BooleanSupplier condition, String what) {
        try {
            waitUntil(what, DEADLINE, condition::getAsBoolean);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while waiting until " + what, e);
        }
    }

    @Test
    void pollsOnlyPartitionsThatHoldData() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(1000);
        for (long p = 0; p < 1000; p += 100) {
            for (int i = 0; i < 50; i++) {
                topic.append(p, p + ":" + i);
            }
        }
        reader(topic, 20, Duration.ofMillis(100), false);
        List<IggyPartitionSplit> splits = new ArrayList<>();
        for (long p = 0; p < 1000; p++) {
            splits.add(split(p, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        }
        assign(splits.toArray(new IggyPartitionSplit[0]));

        fetchUntil(() -> payloads.size() == 500);

        assertThat(new HashSet<>(topic.polls))
                .containsExactlyInAnyOrder(
                        0L, 100L, 200L, 300L, 400L, 500L, 600L, 700L, 800L, 900L);
        assertThat(topic.polls).as("three polls of 20 per partition of 50").hasSize(30);
        assertThat(payloads).contains("0:0", "0:49", "900:49").doesNotHaveDuplicates();
        assertThat(progress.partition(id(100)).endOffset).isEqualTo(50);
        assertThat(progress.partition(id(101)).endOffset).isZero();
    }

    /**
     * One partition of {@code count} messages of 100 KiB: 102,464 bytes each as the server counts
     * them, 10 to a MiB.
     */
    private static FakeTopicRequests largeMessages(int count) {
        FakeTopicRequests topic = new FakeTopicRequests(1);
        String large = "x".repeat(100 * 1024);
        for (int i = 0; i < count; i++) {
            topic.append(0, large);
        }
        return topic;
    }

    @Test
    void pollsAskForAboutOneMebibyteByTheTopicsMessageSize() throws Exception {
        FakeTopicRequests topic = largeMessages(25);
        reader(topic, new PollSize(0), Duration.ofMillis(100), false);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));

        fetchUntil(() -> payloads.size() == 25);

        assertThat(topic.pollCounts).hasSize(3).containsOnly(10L);
    }

    @Test
    void smallMessagesComeAtMostTenThousandToAPoll() throws Exception {
        // One-byte payloads: 65 bytes a message, 16,131 to a MiB.
        FakeTopicRequests topic = new FakeTopicRequests(1).append(0, "a", "b", "c");
        reader(topic, new PollSize(0), Duration.ofMillis(100), false);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));

        fetchUntil(() -> payloads.size() == 3);

        assertThat(topic.pollCounts).containsOnly((long) PollSize.MAX_MESSAGES);
    }

    @Test
    void aBatchSizeSetByTheUserIsKeptWhateverTheMessageSize() throws Exception {
        FakeTopicRequests topic = largeMessages(7);
        reader(topic, 3, Duration.ofMillis(100), false);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));

        fetchUntil(() -> payloads.size() == 7);

        assertThat(topic.pollCounts).containsOnly(3L);
    }

    @Test
    void asksForTheNextBatchBeforeHandingOverThisOne() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(1).append(0, numbered(0, 0, 20));
        reader(topic, 20, Duration.ofMillis(100), false);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        fetchUntilPollsAreHeld(topic, 1);
        // Unknown to the reader until the answer says so: there is more.
        topic.append(0, numbered(0, 20, 50));

        topic.answerHeldPolls();
        topic.holdPolls = true;
        RecordsWithSplitIds<IggyMessage> first = reader.fetch();
        assertThat(first.nextSplit()).isEqualTo(id(0));
        assertThat(topic.polls)
                .as(
                        "the next batch and its read-ahead are asked for before the first is handed over")
                .hasSize(3);
        assertThat(topic.heldPollCount()).isEqualTo(2);
    }

    @Test
    void readsAheadAndKeepsTheOrderWhenTheLaterBatchAnswersFirst() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(1).append(0, numbered(0, 0, 100));
        reader(topic, 20, Duration.ofMillis(100), false);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        // The description says the partition holds 100: the first two batches are asked for at
        // once.
        fetchUntilPollsAreHeld(topic, 2);

        topic.answerHeldPollsLastFirst();
        fetchUntil(() -> payloads.size() == 100);
        assertThat(payloads).containsExactly(numbered(0, 0, 100));
    }

    @Test
    void aShortAnswerDropsTheReadAheadAndReadsTheGap() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(1).append(0, numbered(0, 0, 100));
        reader(topic, 20, Duration.ofMillis(100), false);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        // The server answers 7 messages to a poll for 20: every read-ahead starts past where the
        // answer before it ended.
        topic.mostPerAnswer = 7;
        fetchUntil(() -> payloads.size() == 100);
        assertThat(payloads).containsExactly(numbered(0, 0, 100));
    }

    @Test
    void anIdleTopicIsDescribedNotPolled() {
        FakeTopicRequests topic = new FakeTopicRequests(4);
        reader(topic, 20, Duration.ofMillis(5), false);
        for (long p = 0; p < 4; p++) {
            assign(split(p, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        }
        CompletableFuture<Void> fetching = fetchInBackground();
        waitFor(() -> topic.describes.get() >= 5, "five descriptions");
        stopFetching(fetching);
        assertThat(topic.polls).isEmpty();
    }

    @Test
    void boundsThePollsInFlightWhateverThePartitionCount() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(200);
        for (long p = 0; p < 200; p++) {
            topic.append(p, p + ":a", p + ":b", p + ":c");
        }
        reader(topic, 1, Duration.ofMillis(100), false);
        for (long p = 0; p < 200; p++) {
            assign(split(p, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        }
        fetchUntilPollsAreHeld(topic, PartitionPolls.MAX_POLLS_IN_FLIGHT);
        assertThat(topic.heldPollCount())
                .as("no poll starts while the limit is reached")
                .isEqualTo(PartitionPolls.MAX_POLLS_IN_FLIGHT);

        topic.answerHeldPolls();
        fetchUntil(() -> payloads.size() == 600);
        assertThat(topic.mostPollsInFlight.get()).isEqualTo(PartitionPolls.MAX_POLLS_IN_FLIGHT);
        assertThat(payloads).doesNotHaveDuplicates();
    }

    @Test
    void readersShareTheLimitOfPollsInFlightButEachKeepsOneOfItsOwn() throws Exception {
        SharedPollLimit limit = new SharedPollLimit(3);
        FakeTopicRequests busy = new FakeTopicRequests(20);
        for (long p = 0; p < 20; p++) {
            busy.append(p, p + ":a");
        }
        IggyPartitionSplitReader busyReader =
                reader(busy, new PollSize(1), Duration.ofMillis(100), false, limit);
        for (long p = 0; p < 20; p++) {
            assign(split(p, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        }
        fetchUntilPollsAreHeld(busy, 1 + 3);
        assertThat(limit.available()).isZero();

        FakeTopicRequests quiet = new FakeTopicRequests(2).append(0, "0:a").append(1, "1:a");
        reader(quiet, new PollSize(1), Duration.ofMillis(100), false, limit);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        assign(split(1, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        fetchUntil(() -> payloads.size() == 2);
        assertThat(quiet.mostPollsInFlight.get())
                .as("its own poll only: the shared permits are taken")
                .isEqualTo(1);
        assertThat(busy.heldPollCount()).isEqualTo(4);

        reader.close();
        reader = busyReader;
        busy.answerHeldPolls();
        payloads.clear();
        fetchUntil(() -> payloads.size() == 20);
        busyReader.close();
        assertThat(limit.available()).as("every permit given back").isEqualTo(3);
    }

    @Test
    void noticesNewDataWithinMillisecondsAfterDataNotAfterThePollInterval() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(4).append(2, "first");
        // An hour between checks unless the adaptive delay applies.
        reader(topic, 20, Duration.ofHours(1), false);
        for (long p = 0; p < 4; p++) {
            assign(split(p, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        }
        fetchUntil(() -> payloads.size() == 1);
        topic.append(1, "second");
        fetchUntil(() -> payloads.size() == 2);
        assertThat(payloads).containsExactly("first", "second");
    }

    @Test
    void aFreshReaderNoticesTheFirstMessageWithinMillisecondsNotAfterThePollInterval()
            throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(4);
        // An hour between checks unless the reader counts its start as recent activity.
        reader(topic, 20, Duration.ofHours(1), false);
        for (long p = 0; p < 4; p++) {
            assign(split(p, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        }
        CompletableFuture<Void> fetching = fetchInBackground();
        waitFor(() -> topic.describes.get() >= 1, "the first description");
        stopFetching(fetching);
        topic.append(3, "first");
        fetchUntil(() -> payloads.size() == 1);
        assertThat(payloads).containsExactly("first");
    }

    @Test
    void finishesBoundedSplitsAtTheirStoppingOffset() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(2).append(0, "a", "b", "c", "d", "e");
        reader(topic, 20, Duration.ofMillis(100), false);
        assign(split(0, 1, 3), split(1, 0, 0));
        fetchUntil(() -> finished.size() == 2);
        assertThat(payloads).containsExactly("b", "c");
        assertThat(finished).containsExactlyInAnyOrder(id(0), id(1));
        assertThat(topic.polls).as("nothing asked for an empty range").containsOnly(0L);
    }

    @Test
    void failsWhenTheTopicIsRecreatedUnderIt() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(1).append(0, "a", "b", "c");
        reader(topic, 20, Duration.ofMillis(5), false);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        fetchUntil(() -> payloads.size() == 3);
        topic.recreate();
        topic.append(0, "x", "y", "z", "new-3", "new-4");

        assertThatThrownBy(() -> fetchUntil(() -> false))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("topic 't' of stream 's' at fake:1")
                .hasMessageContaining("deleted and created again")
                .hasMessageContaining("Do not restore a savepoint or checkpoint of this job")
                .hasMessageContaining("Start the job without state")
                .hasMessageContaining("setRecreatedTopicReadFromStart")
                .hasMessageNotContaining("taken before");
        assertThat(payloads).containsExactly("a", "b", "c");
    }

    @Test
    void failsWhenAPartitionEndsBeforeWhatWasRead() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(1).append(0, "a", "b", "c");
        reader(topic, 20, Duration.ofMillis(5), false);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        fetchUntil(() -> payloads.size() == 3);
        topic.recreateKeepingIdentity();
        topic.append(0, "x");

        assertThatThrownBy(() -> fetchUntil(() -> false))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("partition 0 ends at offset 1")
                .hasMessageContaining("offsets up to 2 were read already");
    }

    @Test
    void failsWhenTheTopicIsDeleted() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(1).append(0, "a");
        reader(topic, 20, Duration.ofMillis(5), false);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        fetchUntil(() -> payloads.size() == 1);
        topic.delete();
        assertThatThrownBy(() -> fetchUntil(() -> false))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("no longer exists");
    }

    @Test
    void failsNamingAPartitionDeletedUnderABoundedSplit() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(3);
        for (long p = 0; p < 3; p++) {
            topic.append(p, p + ":a", p + ":b");
        }
        reader(topic, 20, Duration.ofMillis(5), true);
        for (long p = 0; p < 3; p++) {
            assign(split(p, 0, 10));
        }
        fetchUntil(() -> payloads.size() == 6);
        topic.deletePartition(2);
        topic.append(0, "0:c");

        assertThatThrownBy(() -> fetchUntil(() -> false))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("has no partition 2 any more (it has 2 partitions)")
                .hasMessageContaining("cannot reach its stopping offset 10");
    }

    @Test
    void failsNamingAPartitionDeletedWhileItIsPolled() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(2).append(1, "1:a");
        reader(topic, 20, Duration.ofMillis(5), false);
        topic.holdPolls = true;
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        assign(split(1, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        fetchUntilPollsAreHeld(topic, 1);
        topic.deletePartition(1);
        topic.answerHeldPolls();

        assertThatThrownBy(() -> fetchUntil(() -> false))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("has no partition 1 any more")
                .hasMessageContaining("setRecreatedTopicReadFromStart");
    }

    @Test
    void readsARecreatedTopicFromItsStartWhenConfigured() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(1).append(0, "a", "b", "c");
        reader(topic, 20, Duration.ofMillis(5), true);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        fetchUntil(() -> payloads.size() == 3);
        topic.recreate();
        topic.append(0, "x", "y", "z", "new-3", "new-4");
        fetchUntil(() -> payloads.size() == 8);
        assertThat(payloads).containsExactly("a", "b", "c", "x", "y", "z", "new-3", "new-4");
    }

    @Test
    void storesOffsetsFromTheFetcherOneBatchAtATime() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(2).append(0, "a", "b").append(1, "c");
        reader(topic, 20, Duration.ofMillis(5), false);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        assign(split(1, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        fetchUntil(() -> payloads.size() == 3);

        topic.holdStores = true;
        reader.offerOffsets(
                List.of(
                        new OffsetStore.PartitionOffset(
                                split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET), 0),
                        new OffsetStore.PartitionOffset(
                                split(1, 0, IggyPartitionSplit.NO_STOPPING_OFFSET), 0)));
        reader.storeOffsets();
        reader.offerOffsets(
                List.of(
                        new OffsetStore.PartitionOffset(
                                split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET), 1)));
        reader.storeOffsets();
        assertThat(topic.stores).as("the second batch waits").containsExactly("0@0", "1@0");

        topic.answerHeldStores();
        fetchUntil(() -> progress.committedOffset(id(0)) == 1);
        assertThat(topic.stores).containsExactly("0@0", "1@0", "0@1");
        assertThat(progress.committedOffset(id(1))).isZero();
        assertThat(metrics.commitsSucceeded.getCount()).isEqualTo(3);
        assertThat(metrics.commitsFailed.getCount()).isZero();
    }

    /** A fetcher shut down before it ran its store task still stores, as it closes its reader. */
    @Test
    void offsetsOfferedButNotYetStoredAreStoredWhenTheReaderCloses() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(1).append(0, "a");
        reader(topic, 20, Duration.ofMillis(5), false);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        fetchUntil(() -> payloads.size() == 1);
        reader.offerOffsets(
                List.of(
                        new OffsetStore.PartitionOffset(
                                split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET), 0)));

        reader.close();

        assertThat(topic.stores).containsExactly("0@0");
        assertThat(progress.committedOffset(id(0))).isZero();
    }

    @Test
    void aFailedOffsetStoreIsCountedNotFatal() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(1).append(0, "a");
        reader(topic, 20, Duration.ofMillis(5), false);
        assign(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET));
        fetchUntil(() -> payloads.size() == 1);
        topic.failStores = true;
        reader.offerOffsets(
                List.of(
                        new OffsetStore.PartitionOffset(
                                split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET), 0)));
        reader.storeOffsets();
        fetchUntil(() -> metrics.commitsFailed.getCount() == 1);
        assertThat(progress.committedOffset(id(0))).isEqualTo(IggySourceProgress.UNKNOWN);

        topic.failStores = false;
        reader.offerOffsets(
                List.of(
                        new OffsetStore.PartitionOffset(
                                split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET), 0)));
        reader.storeOffsets();
        fetchUntil(() -> progress.committedOffset(id(0)) == 0);
    }

    /** The reader's task thread never connects: start() and new splits only hand work over. */
    @Test
    void theSourceReaderConnectsNothingOnTheTaskThread() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(1).append(0, "a");
        IggySourceReader<String> sourceReader = sourceReader(topic);
        try {
            sourceReader.start();
            sourceReader.addSplits(List.of(split(0, 0, IggyPartitionSplit.NO_STOPPING_OFFSET)));
            waitFor(() -> !topic.requestingThreads.isEmpty(), "a first request");
            assertThat(topic.requestingThreads)
                    .doesNotContain(Thread.currentThread().getName())
                    .allSatisfy(name -> assertThat(name).contains("Source Data Fetcher"));
        } finally {
            sourceReader.close();
        }
    }

    /** A source reader of topic 't' over the fake's requests. */
    private static IggySourceReader<String> sourceReader(FakeTopicRequests topic) {
        IggyConnectionConfig connection =
                IggyConnectionConfig.builder()
                        .setAddress("127.0.0.1:1")
                        .setCredentials("iggy", "iggy")
                        .build();
        IggySourceProgress sourceProgress = new IggySourceProgress();
        return IggySourceReader.wire(
                topic,
                sourceProgress,
                new IggySourceReaderMetrics(
                        InternalSourceReaderMetricGroup.mock(new MetricListener().getMetricGroup()),
                        sourceProgress),
                IggySourceTestSupport.config(
                        IggySource.<String>builder()
                                .setConnection(connection)
                                .setStream("s")
                                .setTopic("t")
                                .setConsumerName("c")
                                .setValueOnlyDeserializer(new SimpleStringSchema())
                                .build()),
                new IggyRecordEmitter<>(
                        IggyRecordDeserializationSchema.valueOnly(new SimpleStringSchema()),
                        false,
                        new SimpleCounter(),
                        new SimpleCounter()),
                new Configuration(),
                new TestingReaderContext());
    }

    /**
     * A split the reader restored and is then assigned again (an enumerator state that lost track
     * of it) fails the reader instead of being read twice.
     */
    @Test
    void aSplitAssignedToTheReaderThatHoldsItFailsSayingHowToRestore() throws Exception {
        FakeTopicRequests topic = new FakeTopicRequests(1);
        IggySourceReader<String> sourceReader = sourceReader(topic);
        try {
            sourceReader.addSplits(List.of(split(0, 3, IggyPartitionSplit.NO_STOPPING_OFFSET)));
            assertThatThrownBy(
                            () ->
                                    sourceReader.addSplits(
                                            List.of(
                                                    split(
                                                            0,
                                                            0,
                                                            IggyPartitionSplit
                                                                    .NO_STOPPING_OFFSET))))
                    .hasMessageContaining("assigned to the reader that restored it already")
                    .hasMessageContaining("Start the job without its state");
        } finally {
            sourceReader.close();
        }
    }
}

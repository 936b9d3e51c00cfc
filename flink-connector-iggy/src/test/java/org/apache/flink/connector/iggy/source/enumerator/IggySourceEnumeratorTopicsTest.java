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
package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.IggyErrorCode;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.connector.iggy.source.internal.TopicSubscription;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;

import org.apache.iggy.exception.IggyServerException;
import org.junit.jupiter.api.Test;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The enumerator over several topics: lists, patterns, discovery and restores. */
class IggySourceEnumeratorTopicsTest {

    private static final long NO_STOP = IggyPartitionSplit.NO_STOPPING_OFFSET;

    private final FakeTopics server = new FakeTopics();

    private static TopicSubscription list(String... topics) {
        List<IggyId> ids = new ArrayList<>();
        for (String topic : topics) {
            ids.add(IggyId.of(topic));
        }
        return new TopicSubscription.TopicList(IggyId.of("s"), ids);
    }

    private TestingSplitEnumeratorContext<IggyPartitionSplit> context;
    private IggySourceEnumerator enumerator;

    /**
     * An unbounded enumerator over the fake server, in a context of {@code readers} readers, not
     * started.
     */
    private void create(
            int readers,
            TopicSubscription subscription,
            IggyStartingOffsets start,
            @Nullable Duration discovery,
            @Nullable IggySourceEnumState restored) {
        create(
                readers,
                subscription,
                new IggySplitPlanner("c", start, null),
                false,
                discovery,
                restored);
    }

    private void create(
            int readers,
            TopicSubscription subscription,
            IggySplitPlanner planner,
            boolean bounded,
            @Nullable Duration discovery,
            @Nullable IggySourceEnumState restored) {
        context = new TestingSplitEnumeratorContext<>(readers);
        enumerator =
                new IggySourceEnumerator(
                        context,
                        subscription,
                        () -> server,
                        planner,
                        bounded,
                        discovery,
                        subscription.describe(),
                        restored);
    }

    /** {@link #create}d, started and its first planning done; no reader registered yet. */
    private void started(
            int readers,
            TopicSubscription subscription,
            IggyStartingOffsets start,
            @Nullable Duration discovery,
            @Nullable IggySourceEnumState restored) {
        create(readers, subscription, start, discovery, restored);
        enumerator.start();
        context.triggerAllActions();
    }

    /** {@link #started}, and every reader registered. */
    private void running(
            int readers,
            TopicSubscription subscription,
            IggyStartingOffsets start,
            @Nullable Duration discovery,
            @Nullable IggySourceEnumState restored) {
        started(readers, subscription, start, discovery, restored);
        registerReaders(readers);
    }

    private void registerReaders(int readers) {
        for (int reader = 0; reader < readers; reader++) {
            context.registerReader(reader, "h");
            enumerator.addReader(reader);
        }
    }

    private List<IggyPartitionSplit> assigned() {
        List<IggyPartitionSplit> all = new ArrayList<>();
        context.getSplitAssignments().values().forEach(s -> all.addAll(s.getAssignedSplits()));
        return all;
    }

    /**
     * What the periodic discovery failed the job with: Flink's coordinator fails the job with what
     * its handler throws; the testing executor keeps it in the task's future.
     */
    @Nullable
    private Throwable discoveryFailure() {
        for (ScheduledFuture<?> task : context.getExecutorService().getAllPeriodicScheduledTask()) {
            if (task.isDone()) {
                try {
                    task.get();
                } catch (ExecutionException e) {
                    return e.getCause();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return null;
    }

    private static IggyPartitionSplit split(String topic, long partition, long from) {
        return new IggyPartitionSplit(IggyId.of("s"), IggyId.of(topic), partition, from, NO_STOP);
    }

    @Test
    void aListOfThreeTopicsSpreadsItsSplitsEvenlyAcrossTopicsNotTopicByTopic() {
        for (String topic : List.of("a", "b", "c")) {
            server.topic("s", topic).partition(0, 1).partition(1, 1);
        }
        running(3, list("a", "b", "c"), IggyStartingOffsets.earliest(), null, null);

        assertThat(assigned()).hasSize(6);
        for (int reader = 0; reader < 3; reader++) {
            List<IggyPartitionSplit> splits =
                    context.getSplitAssignments().get(reader).getAssignedSplits();
            assertThat(splits).as("reader %s", reader).hasSize(2);
            Set<IggyId> topics = new HashSet<>();
            splits.forEach(s -> topics.add(s.topic()));
            assertThat(topics).as("reader %s reads two topics", reader).hasSize(2);
        }
    }

    @Test
    void aMissingListedTopicFailsTheStartNamingIt() {
        server.topic("s", "a").partition(0, 1);
        started(1, list("a", "gone"), IggyStartingOffsets.earliest(), null, null);
        context.registerReader(0, "h");
        assertThatThrownBy(() -> enumerator.addReader(0)).hasMessageContaining("'gone'");
    }

    @Test
    void aTopicAddedToTheListIsReadFromTheConfiguredStartAfterARestore() {
        server.topic("s", "a").partition(0, 4);
        server.topic("s", "b").partition(0, 7);
        IggySourceEnumState shorterList =
                new IggySourceEnumState(
                        Set.of(IggyTopicPartition.of("s", "a", 0)), List.of(), true);
        running(1, list("a", "b"), IggyStartingOffsets.latest(), null, shorterList);

        assertThat(assigned())
                .as("topic a is in the restored state; b starts at the configured latest")
                .containsExactly(split("b", 0, 7));
    }

    @Test
    void aBoundedSourceRestoredWithATopicAddedSignalsTheEndOnlyAfterPlanningIt() {
        server.topic("s", "a").partition(0, 4);
        server.topic("s", "b").partition(0, 7);
        IggySourceEnumState shorterList =
                new IggySourceEnumState(
                        Set.of(IggyTopicPartition.of("s", "a", 0)), List.of(), true);
        create(
                1,
                list("a", "b"),
                new IggySplitPlanner(
                        "c", IggyStartingOffsets.earliest(), IggyStoppingOffsets.latest()),
                true,
                null,
                shorterList);
        enumerator.start();
        registerReaders(1);
        assertThat(context.getSplitAssignments()).as("nothing before planning").isEmpty();

        context.triggerAllActions();

        assertThat(context.getSplitAssignments().get(0).getAssignedSplits())
                .containsExactly(new IggyPartitionSplit(IggyId.of("s"), IggyId.of("b"), 0, 0, 7));
        assertThat(context.getSplitAssignments().get(0).hasReceivedNoMoreSplitsSignal()).isTrue();
    }

    @Test
    void aTopicPatternFindsTopicsCreatedWhileTheJobRunsAndReadsThemFromTheirStart() {
        server.topic("s", "orders").partition(0, 5);
        server.topic("s", "audit").partition(0, 5);
        running(
                1,
                new TopicSubscription.TopicSearch(Pattern.quote("s"), "o.*"),
                IggyStartingOffsets.latest(),
                Duration.ofSeconds(1),
                null);
        assertThat(assigned()).containsExactly(split("orders", 0, 5));

        server.topic("s", "offers").partition(0, 9).partition(1, 2);
        server.topic("s", "xyz").partition(0, 9);
        context.triggerAllActions();

        assertThat(assigned())
                .as("found by discovery: from offset 0, not from the configured latest")
                .containsExactly(
                        split("orders", 0, 5), split("offers", 0, 0), split("offers", 1, 0));
    }

    @Test
    void aStreamPatternFindsStreamsCreatedWhileTheJobRuns() {
        server.topic("tenant-1", "events").partition(0, 3);
        server.topic("tenant-1", "other").partition(0, 3);
        server.topic("admin", "events").partition(0, 3);
        running(
                2,
                new TopicSubscription.TopicSearch("tenant-.*", Pattern.quote("events")),
                IggyStartingOffsets.earliest(),
                Duration.ofSeconds(1),
                null);
        server.topic("tenant-2", "events").partition(0, 8);
        context.triggerAllActions();

        assertThat(assigned())
                .extracting(s -> s.stream().name() + "/" + s.topic().name())
                .containsExactlyInAnyOrder("tenant-1/events", "tenant-2/events");
    }

    @Test
    void aRestoredSplitOfATopicNoLongerListedFailsTheJobSayingWhatChanged() {
        server.topic("s", "a").partition(0, 1);
        IggySourceEnumState restoredState =
                new IggySourceEnumState(Set.of(), List.of(split("old", 0, 3)), true);
        started(1, list("a"), IggyStartingOffsets.earliest(), null, restoredState);
        context.registerReader(0, "h");

        assertThatThrownBy(() -> enumerator.addReader(0))
                .hasMessageContaining("splits of topic 'old' of stream 's'")
                .hasMessageContaining("it now reads topic 'a' of stream 's'")
                .hasMessageContaining("start the job without its state");
        assertThat(context.getSplitAssignments()).isEmpty();
    }

    @Test
    void restoredSplitsOfTopicsThatStillMatchAreKept() {
        server.topic("s", "orders").partition(0, 9).partition(1, 9);
        IggySourceEnumState restoredState =
                new IggySourceEnumState(
                        Set.of(IggyTopicPartition.of("s", "orders", 0)),
                        List.of(split("orders", 1, 6)),
                        true);
        running(
                1,
                new TopicSubscription.TopicSearch(Pattern.quote("s"), "ord.*"),
                IggyStartingOffsets.earliest(),
                null,
                restoredState);

        assertThat(assigned()).containsExactly(split("orders", 1, 6));
    }

    @Test
    void aSplitAReaderReportsItRestoredIsNeverAssignedAgain() {
        server.topic("s", "a").partition(0, 4).partition(1, 4);
        IggySourceEnumState pending =
                new IggySourceEnumState(
                        Set.of(), List.of(split("a", 0, 1), split("a", 1, 1)), true);
        started(2, list("a"), IggyStartingOffsets.earliest(), null, pending);
        enumerator.handleSourceEvent(
                1, new RestoredSplitsEvent(List.of(IggyTopicPartition.of("s", "a", 0))));
        registerReaders(2);

        assertThat(assigned()).containsExactly(split("a", 1, 1));
        assertThat(enumerator.snapshotState(1).assignedPartitions())
                .containsExactlyInAnyOrder(
                        IggyTopicPartition.of("s", "a", 0), IggyTopicPartition.of("s", "a", 1));
    }

    @Test
    void aFailedDiscoveryIsRetriedAndOnlyFiveInARowFailTheJob() {
        server.topic("s", "a").partition(0, 1);
        running(
                1,
                new TopicSubscription.TopicSearch(Pattern.quote("s"), ".*"),
                IggyStartingOffsets.earliest(),
                Duration.ofSeconds(1),
                null);

        server.failure = new IllegalStateException("connection reset");
        for (int i = 1; i < DiscoveryFailures.MAX_CONSECUTIVE; i++) {
            context.triggerAllActions(); // counted and retried
        }
        server.failure = null;
        server.topic("s", "b").partition(0, 1);
        context.triggerAllActions();
        assertThat(assigned()).as("a success resets the count").hasSize(2);

        server.failure = new IllegalStateException("connection reset");
        for (int i = 1; i < DiscoveryFailures.MAX_CONSECUTIVE; i++) {
            context.triggerAllActions();
        }
        assertThat(discoveryFailure()).as("retried so far").isNull();
        context.triggerAllActions();
        assertThat(discoveryFailure())
                .hasStackTraceContaining("Partition discovery failed 5 times in a row")
                .hasStackTraceContaining("connection reset");
    }

    @Test
    void aDiscoveryRejectedForItsCredentialsFailsTheJobAtOnce() {
        server.topic("s", "a").partition(0, 1);
        running(1, list("a"), IggyStartingOffsets.earliest(), Duration.ofSeconds(1), null);

        server.failure =
                new RuntimeException(
                        new IggyServerException(IggyErrorCode.INVALID_CREDENTIALS.code()));
        context.triggerAllActions();
        assertThat(discoveryFailure())
                .as("no retry for rejected credentials")
                .hasStackTraceContaining("Partition discovery failed for");
    }
}

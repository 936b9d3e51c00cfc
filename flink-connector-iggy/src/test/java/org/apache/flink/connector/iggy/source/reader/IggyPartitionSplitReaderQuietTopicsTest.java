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

import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.runtime.metrics.groups.InternalSourceReaderMetricGroup;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a reader over many quiet topics does per round of checks: one request, whatever the number
 * of topics, and no topic's own schedule consulted. Counts requests and schedule checks, not time:
 * per-topic work per round shows as counts that grow with the rounds times the topics.
 */
class IggyPartitionSplitReaderQuietTopicsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int TOPICS = 1000;
    private static final int ROUNDS = 20;

    private final FakeStreams server = new FakeStreams();
    private final IggySourceProgress progress = new IggySourceProgress();
    private final List<String> payloads = new ArrayList<>();
    private final List<String> finished = new ArrayList<>();

    /** How often any topic's schedule was asked whether its topic is due. */
    private final AtomicLong dueChecks = new AtomicLong();

    private IggyPartitionSplitReader reader;

    @AfterEach
    void close() {
        if (reader != null) {
            reader.close();
        }
    }

    @Test
    void aThousandQuietTopicsOfAStreamCostOneStreamDescriptionARoundAndNoCheckEach()
            throws Exception {
        List<IggyPartitionSplit> splits = new ArrayList<>();
        for (int t = 0; t < TOPICS; t++) {
            server.add("s", "t" + t, new FakeTopicRequests(1));
            splits.add(FakeStreams.split("s", "t" + t, 0));
        }
        start(splits);

        Counts perRound = quietRounds(() -> server.streamDescribes("s"));

        assertThat(perRound.topicDescribes).as("topic descriptions in quiet rounds").isZero();
        assertThat(perRound.lists).as("lists of the streams").isZero();
        assertThat(perRound.dueChecks)
                .as("topic schedules asked whether due in %s quiet rounds", perRound.rounds)
                .isLessThan(perRound.rounds);

        server.topic("s", "t777").append(0, "m");
        fetchUntil(() -> payloads.contains("m"));
        assertThat(server.topic("s", "t777").describes)
                .as("the topic that got data")
                .hasValueGreaterThan(1);
        assertThat(server.topicDescribes())
                .as("only that topic described again")
                .isLessThanOrEqualTo(TOPICS + 3);
    }

    @Test
    void aThousandQuietStreamsOfOneTopicCostOneListARoundAndNoCheckEach() throws Exception {
        List<IggyPartitionSplit> splits = new ArrayList<>();
        for (int s = 0; s < TOPICS; s++) {
            server.add("s" + s, "t", new FakeTopicRequests(1));
            splits.add(FakeStreams.split("s" + s, "t", 0));
        }
        start(splits);

        Counts perRound = quietRounds(server.lists::get);

        assertThat(perRound.topicDescribes).as("topic descriptions in quiet rounds").isZero();
        assertThat(perRound.dueChecks)
                .as("topic schedules asked whether due in %s quiet rounds", perRound.rounds)
                .isLessThan(perRound.rounds);
        int streamDescribes = 0;
        for (int s = 0; s < TOPICS; s++) {
            streamDescribes += server.streamDescribes("s" + s);
        }
        assertThat(streamDescribes).as("stream descriptions").isZero();

        int described = server.topicDescribes();
        server.topic("s321", "t").append(0, "m");
        fetchUntil(() -> payloads.contains("m"));
        assertThat(server.topicDescribes())
                .as("only the topic whose stream changed described again")
                .isBetween(described + 1, described + 3);
    }

    /**
     * Streams of many topics under a list: a stream whose entry changed is described once, and only
     * its topic that changed is described.
     */
    @Test
    void aChangedStreamOfManyQuietTopicsIsDescribedAndOnlyItsChangedTopicThen() throws Exception {
        List<IggyPartitionSplit> splits = new ArrayList<>();
        for (String stream : List.of("a", "b")) {
            for (int t = 0; t < 100; t++) {
                server.add(stream, "t" + t, new FakeTopicRequests(1));
                splits.add(FakeStreams.split(stream, "t" + t, 0));
            }
        }
        start(splits);
        quietRounds(server.lists::get);
        int described = server.topicDescribes();
        int streamA = server.streamDescribes("a");

        server.topic("a", "t42").append(0, "m");
        fetchUntil(() -> payloads.contains("m"));

        assertThat(server.streamDescribes("a")).isEqualTo(streamA + 1);
        assertThat(server.topicDescribes()).isBetween(described + 1, described + 3);
    }

    /** A user who may not list every stream: each stream of two or more topics is described. */
    @Test
    void withoutTheListEachStreamIsDescribedAndALoneTopicDirectly() throws Exception {
        server.refuseLists = true;
        List<IggyPartitionSplit> splits = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            server.add("a", "t" + t, new FakeTopicRequests(1));
            splits.add(FakeStreams.split("a", "t" + t, 0));
        }
        server.add("b", "t", new FakeTopicRequests(1));
        splits.add(FakeStreams.split("b", "t", 0));
        start(splits);

        fetchUntil(() -> server.streamDescribes("a") >= ROUNDS);

        assertThat(server.lists).as("asked once").hasValue(1);
        assertThat(server.topic("b", "t").describes)
                .as("the lone topic of stream b, described on its own")
                .hasValueGreaterThan(ROUNDS / 2);
        assertThat(server.topic("a", "t1").describes).as("a topic of stream a").hasValueLessThan(4);
        server.topic("a", "t1").append(0, "m");
        fetchUntil(() -> payloads.contains("m"));
    }

    /**
     * A quiet topic deleted and created again: its stream's entry changes with the next message,
     * the topic is described and the reader fails naming it, as a reader of that topic alone does.
     */
    @Test
    void aQuietTopicCreatedAgainFailsTheReaderOnceItsStreamChanges() throws Exception {
        List<IggyPartitionSplit> splits = new ArrayList<>();
        for (int s = 0; s < 10; s++) {
            server.add("s" + s, "t", new FakeTopicRequests(1).append(0, "old"));
            splits.add(FakeStreams.split("s" + s, "t", 0));
        }
        start(splits);
        fetchUntil(() -> payloads.size() == 10);
        quietRounds(server.lists::get);

        FakeTopicRequests topic = server.topic("s3", "t");
        topic.recreate();
        topic.append(0, "new-0", "new-1");

        assertThatThrownBy(() -> fetchUntil(() -> false))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("deleted and created again");
    }

    /**
     * A reader gets the splits of many topics at once and describes each: no more descriptions are
     * in flight at once than the limit, far below the 1,000 requests SDK 0.8.0's pool queues.
     */
    @Test
    void aReaderOfMoreTopicsThanTheSdkQueuesDescribesThemAFewAtATime() throws Exception {
        int topics = 1500;
        List<IggyPartitionSplit> splits = new ArrayList<>();
        for (int t = 0; t < topics; t++) {
            server.add("s", "t" + t, new FakeTopicRequests(1));
            splits.add(FakeStreams.split("s", "t" + t, 0));
        }
        server.holdDescribes = true;
        start(splits);

        reader.fetch();
        assertThat(server.heldDescribes()).isEqualTo(WatchedTopics.MAX_DESCRIPTIONS_IN_FLIGHT);

        server.answerHeldDescribes();
        fetchUntil(() -> server.topicDescribes() >= topics);
        server.topic("s", "t" + (topics - 1)).append(0, "m");
        fetchUntil(() -> payloads.contains("m"));
    }

    /** What {@code rounds} rounds of checks cost. */
    private record Counts(int rounds, long topicDescribes, long lists, long dueChecks) {}

    /**
     * Lets the reader's topics go quiet (each described once: a few descriptions are in flight at a
     * time, which may take many rounds), then counts what at least {@link #ROUNDS} rounds of checks
     * (counted by {@code rounds}) cost. A fetch may run many rounds before it returns: the counts
     * cover whole fetches, and the rounds they ran.
     */
    private Counts quietRounds(IntSupplier rounds) throws Exception {
        fetchUntil(server::everyTopicDescribed);
        int settled = rounds.getAsInt() + 3;
        fetchUntil(() -> rounds.getAsInt() >= settled);
        int first = rounds.getAsInt();
        int topicDescribes = server.topicDescribes();
        int lists = server.lists.get();
        long checks = dueChecks.get();
        fetchUntil(() -> rounds.getAsInt() >= first + ROUNDS);
        return new Counts(
                rounds.getAsInt() - first,
                server.topicDescribes() - topicDescribes,
                server.lists.get() - lists,
                dueChecks.get() - checks);
    }

    private void start(List<IggyPartitionSplit> splits) {
        IggySourceReaderMetrics metrics =
                new IggySourceReaderMetrics(
                        InternalSourceReaderMetricGroup.mock(new MetricListener().getMetricGroup()),
                        progress);
        Duration interval = Duration.ofMillis(20);
        reader =
                new IggyPartitionSplitReader(
                        server,
                        progress,
                        events -> new OffsetStore(server, progress, metrics, "c", events),
                        () -> new PollSize(10),
                        () ->
                                new DescribeSchedule(
                                        interval,
                                        interval,
                                        Duration.ofSeconds(1),
                                        System.nanoTime()) {
                                    @Override
                                    long nanosUntilDue(long nowNanos) {
                                        dueChecks.incrementAndGet();
                                        return super.nanosUntilDue(nowNanos);
                                    }
                                },
                        TopologyGuard.OnDeletedTopic.FAIL,
                        new SharedPollLimit(SharedPollLimit.SHARED_POLLS));
        reader.handleSplitsChanges(new SplitsAddition<>(splits));
    }

    private void fetchUntil(BooleanSupplier done) throws Exception {
        Fetches.fetchUntil(reader, done, DEADLINE, payloads, finished);
    }
}

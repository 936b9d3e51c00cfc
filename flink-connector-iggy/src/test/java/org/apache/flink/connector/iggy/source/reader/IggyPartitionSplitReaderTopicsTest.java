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
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.runtime.metrics.groups.InternalSourceReaderMetricGroup;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** The split reader over partitions of several topics: each request goes to the split's topic. */
class IggyPartitionSplitReaderTopicsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private final FakeTopicRequests a = new FakeTopicRequests(2);
    private final FakeTopicRequests b = new FakeTopicRequests(1);
    private final FakeStreams topics = new FakeStreams().add("s", "a", a).add("s", "b", b);
    private final IggySourceProgress progress = new IggySourceProgress();
    private final List<String> payloads = new ArrayList<>();
    private final List<String> finished = new ArrayList<>();
    private IggyPartitionSplitReader reader;

    @AfterEach
    void close() {
        if (reader != null) {
            reader.close();
        }
    }

    private void reader(TopologyGuard.OnDeletedTopic onDeleted) {
        reader(onDeleted, () -> new PollSize(10));
    }

    private void reader(
            TopologyGuard.OnDeletedTopic onDeleted,
            java.util.function.Supplier<PollSize> pollSizes) {
        IggySourceReaderMetrics metrics =
                new IggySourceReaderMetrics(
                        InternalSourceReaderMetricGroup.mock(new MetricListener().getMetricGroup()),
                        progress);
        reader =
                new IggyPartitionSplitReader(
                        topics,
                        progress,
                        events -> new OffsetStore(topics, progress, metrics, "c", events),
                        pollSizes,
                        () ->
                                new DescribeSchedule(
                                        Duration.ofMillis(5),
                                        Duration.ofMillis(5),
                                        Duration.ofSeconds(1),
                                        System.nanoTime()),
                        onDeleted,
                        new SharedPollLimit(SharedPollLimit.SHARED_POLLS));
    }

    private static IggyPartitionSplit split(String topic, long partition) {
        return FakeStreams.split("s", topic, partition);
    }

    private void fetchUntil(BooleanSupplier done) throws Exception {
        Fetches.fetchUntil(reader, done, DEADLINE, payloads, finished);
    }

    @Test
    void readsEachSplitFromItsOwnTopicAndStoresItsOffsetThere() throws Exception {
        a.append(0, "a0-0", "a0-1").append(1, "a1-0");
        b.append(0, "b0-0", "b0-1", "b0-2");
        reader(TopologyGuard.OnDeletedTopic.FAIL);
        reader.handleSplitsChanges(
                new SplitsAddition<>(List.of(split("a", 0), split("a", 1), split("b", 0))));

        fetchUntil(() -> payloads.size() == 6);

        assertThat(payloads)
                .containsExactlyInAnyOrder("a0-0", "a0-1", "a1-0", "b0-0", "b0-1", "b0-2");
        assertThat(a.polls).containsOnly(0L, 1L);
        assertThat(b.polls).containsOnly(0L);
        assertThat(topics.asked).containsOnly("a", "b");

        reader.offerOffsets(
                List.of(
                        new OffsetStore.PartitionOffset(split("a", 1), 0),
                        new OffsetStore.PartitionOffset(split("b", 0), 2)));
        reader.storeOffsets();
        fetchUntil(() -> progress.committedOffset(split("b", 0).splitId()) == 2);
        assertThat(a.stores).containsExactly("1@0");
        assertThat(b.stores).containsExactly("0@2");
    }

    @Test
    void aDeletedTopicsSplitsFinishWhenSkippedAndTheOtherTopicsAreReadOn() throws Exception {
        a.append(0, "a0-0");
        b.append(0, "b0-0");
        reader(TopologyGuard.OnDeletedTopic.SKIP);
        reader.handleSplitsChanges(new SplitsAddition<>(List.of(split("a", 0), split("b", 0))));
        fetchUntil(() -> payloads.size() == 2);

        b.delete();
        fetchUntil(() -> finished.contains(split("b", 0).splitId()));
        a.append(0, "a0-1");
        fetchUntil(() -> payloads.contains("a0-1"));

        assertThat(finished).containsExactly(split("b", 0).splitId());
    }

    @Test
    void eachTopicsPollsAreSizedByItsOwnMessages() throws Exception {
        a.append(0, "small-0", "small-1");
        b.append(0, "x".repeat(400 * 1024), "y".repeat(400 * 1024), "z".repeat(400 * 1024));
        reader(TopologyGuard.OnDeletedTopic.FAIL, () -> new PollSize(0));
        reader.handleSplitsChanges(
                new SplitsAddition<>(List.of(split("a", 0), split("a", 1), split("b", 0))));

        fetchUntil(() -> payloads.size() == 5);

        assertThat(b.pollCounts)
                .as("about 1 MiB a poll of the large messages, whatever topic a says")
                .allSatisfy(count -> assertThat(count).isLessThanOrEqualTo(2L));
        assertThat(a.pollCounts).as("the small messages in large polls").contains(10_000L);
    }

    /**
     * An idle reader over three topics of one stream describes that stream once per poll round, not
     * each topic; with a topic of a second stream, it lists the streams once per round instead.
     */
    @Test
    void anIdleReaderDescribesAStreamOfManyTopicsOncePerRoundNotEachTopic() throws Exception {
        topics.add("s", "c", new FakeTopicRequests(1));
        reader(TopologyGuard.OnDeletedTopic.FAIL);
        reader.handleSplitsChanges(
                new SplitsAddition<>(List.of(split("a", 0), split("b", 0), split("c", 0))));

        int rounds = 40;
        fetchUntil(() -> topics.streamDescribes("s") >= rounds);

        assertThat(topics.topicDescribes())
                .as("each topic described once, as its partitions came")
                .isEqualTo(3);
        assertThat(topics.lists).as("one stream: its description is the round").hasValue(0);
    }

    @Test
    void anIdleReaderOverTwoStreamsListsTheStreamsOncePerRound() throws Exception {
        FakeTopicRequests d = new FakeTopicRequests(1);
        topics.add("s2", "d", d);
        reader(TopologyGuard.OnDeletedTopic.FAIL);
        reader.handleSplitsChanges(
                new SplitsAddition<>(
                        List.of(split("a", 0), split("b", 0), FakeStreams.split("s2", "d", 0))));

        fetchUntil(() -> topics.lists.get() >= 3);
        int describedAtStart = topics.topicDescribes();
        int streamsDescribedAtStart = topics.streamDescribes("s") + topics.streamDescribes("s2");
        int rounds = 40;
        fetchUntil(() -> topics.lists.get() >= 3 + rounds);

        assertThat(topics.topicDescribes())
                .as("no topic described while nothing changes")
                .isEqualTo(describedAtStart);
        assertThat(topics.streamDescribes("s") + topics.streamDescribes("s2"))
                .as("nor a stream")
                .isEqualTo(streamsDescribedAtStart);

        d.append(0, "d0-0");
        fetchUntil(() -> payloads.contains("d0-0"));
        a.append(0, "a0-0");
        fetchUntil(() -> payloads.contains("a0-0"));
    }
}

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
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.MessageBatch;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamSummary;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.TopicPath;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.runtime.metrics.groups.InternalSourceReaderMetricGroup;

import org.apache.iggy.stream.StreamDetails;
import org.apache.iggy.topic.Topic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** The split reader over partitions of several topics: each request goes to the split's topic. */
class IggyPartitionSplitReaderTopicsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private final FakeTopicRequests a = new FakeTopicRequests(2);
    private final FakeTopicRequests b = new FakeTopicRequests(1);
    private FakeTopics topics = new FakeTopics(Map.of("a", a, "b", b));
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
        reader(onDeleted, () -> PollSize.fixed(10));
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
        return new IggyPartitionSplit(
                IggyId.of(FakeTopics.streamOf(topic)),
                IggyId.of(topic),
                partition,
                0,
                IggyPartitionSplit.NO_STOPPING_OFFSET);
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
        reader(TopologyGuard.OnDeletedTopic.FAIL, PollSize::followingMessageSize);
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
     * each topic: a fourth topic, alone in its stream, is described directly as the single-topic
     * source did, and counts the rounds.
     */
    @Test
    void anIdleReaderDescribesAStreamOfManyTopicsOncePerRoundNotEachTopic() throws Exception {
        FakeTopicRequests c = new FakeTopicRequests(1);
        FakeTopicRequests d = new FakeTopicRequests(1);
        topics = new FakeTopics(Map.of("a", a, "b", b, "c", c, "d", d));
        reader(TopologyGuard.OnDeletedTopic.FAIL);
        reader.handleSplitsChanges(
                new SplitsAddition<>(
                        List.of(split("a", 0), split("b", 0), split("c", 0), split("d", 0))));

        int rounds = 40;
        fetchUntil(() -> d.describes.get() >= rounds);

        assertThat(List.of(a.describes.get(), b.describes.get(), c.describes.get()))
                .as("each topic of the shared stream described once, as its partitions came")
                .containsOnly(1);
        assertThat(topics.streamDescribes("s2")).as("a lone topic is described directly").isZero();
        // Due within 20% of the poll interval, the first of three topics asks for the stream:
        // up to 1.25 times as often as the lone topic, never once per topic.
        assertThat(topics.streamDescribes("s"))
                .as("descriptions of the stream of a, b and c, in %s rounds", d.describes.get())
                .isBetween(rounds / 2, d.describes.get() * 5 / 4 + 2);
    }

    /**
     * Routes each request to the fake of its topic, and notes which topics were asked about. Topic
     * "d" is in stream "s2", the others in "s".
     */
    private static final class FakeTopics implements IggyReadRequests {
        private final Map<String, FakeTopicRequests> byName;
        final List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        final Map<String, AtomicInteger> streamDescribes = new ConcurrentHashMap<>();

        FakeTopics(Map<String, FakeTopicRequests> byName) {
            this.byName = byName;
        }

        private static String streamOf(String topic) {
            return topic.equals("d") ? "s2" : "s";
        }

        int streamDescribes(String stream) {
            AtomicInteger count = streamDescribes.get(stream);
            return count == null ? 0 : count.get();
        }

        @Override
        public CompletableFuture<Optional<StreamSummary>> describeStream(IggyId stream) {
            streamDescribes
                    .computeIfAbsent(stream.name(), s -> new AtomicInteger())
                    .incrementAndGet();
            List<Topic> listed = new ArrayList<>();
            byName.forEach(
                    (name, topic) -> {
                        if (streamOf(name).equals(stream.name())) {
                            topic.asListed(name).ifPresent(listed::add);
                        }
                    });
            return CompletableFuture.completedFuture(
                    Optional.of(
                            StreamSummary.of(
                                    new StreamDetails(
                                            1L,
                                            BigInteger.ONE,
                                            stream.name(),
                                            "0",
                                            BigInteger.ZERO,
                                            (long) listed.size(),
                                            listed))));
        }

        private FakeTopicRequests of(TopicPath topic) {
            asked.add(topic.topic().name());
            return byName.get(topic.topic().name());
        }

        @Override
        public CompletableFuture<MessageBatch> poll(
                TopicPath topic, long partitionId, long offset, long count) {
            return of(topic).poll(topic, partitionId, offset, count);
        }

        @Override
        public CompletableFuture<Optional<TopicDescription>> describeTopic(TopicPath topic) {
            return of(topic).describeTopic(topic);
        }

        @Override
        public CompletableFuture<Void> storeOffset(TopicPath topic, long partitionId, long offset) {
            return of(topic).storeOffset(topic, partitionId, offset);
        }

        @Override
        public String description(TopicPath topic) {
            return topic + " at fake:1";
        }

        @Override
        public void close() {}
    }
}

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
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.enumerator.RestoredSplitsEvent;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.TopicPath;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.testutils.source.reader.TestingReaderContext;
import org.apache.flink.connector.testutils.source.reader.TestingReaderOutput;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.runtime.metrics.groups.InternalSourceReaderMetricGroup;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.connection;
import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.numbered;
import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/** The reader alone against a server: offset storage timing, idling, metrics. */
class IggySourceReaderITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private String stream;
    private String topic;
    private String consumer;
    private MetricListener metrics;
    private TestingReaderContext readerContext;

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("reader");
        topic = "t";
        consumer = IGGY.uniqueName("consumer");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, topic, 2);
        metrics = new MetricListener();
        readerContext =
                new TestingReaderContext(
                        new Configuration(),
                        InternalSourceReaderMetricGroup.mock(metrics.getMetricGroup()));
    }

    private SourceReader<String, IggyPartitionSplit> reader() throws Exception {
        return reader(consumer);
    }

    private SourceReader<String, IggyPartitionSplit> reader(@Nullable String consumerName)
            throws Exception {
        return reader(consumerName, false);
    }

    private SourceReader<String, IggyPartitionSplit> reader(
            @Nullable String consumerName, boolean recreatedTopicReadFromStart) throws Exception {
        IggySource<String> source =
                IggySource.<String>builder()
                        .setConnection(connection(IGGY))
                        .setStream(stream)
                        .setTopic(topic)
                        .setConsumerName(consumerName)
                        .setStartingOffsets(
                                consumerName != null
                                        ? IggyStartingOffsets.committed()
                                        : IggyStartingOffsets.earliest())
                        .setPollBatchSize(4)
                        .setPollInterval(Duration.ofMillis(20))
                        .setRecreatedTopicReadFromStart(recreatedTopicReadFromStart)
                        .setValueOnlyDeserializer(new SimpleStringSchema())
                        .build();
        SourceReader<String, IggyPartitionSplit> reader = source.createReader(readerContext);
        reader.start();
        return reader;
    }

    private IggyPartitionSplit split(long partition, long from) {
        return new IggyPartitionSplit(
                IggyId.of(stream),
                IggyId.of(topic),
                partition,
                from,
                IggyPartitionSplit.NO_STOPPING_OFFSET);
    }

    private static void pollUntil(
            SourceReader<String, IggyPartitionSplit> reader,
            TestingReaderOutput<String> output,
            int records)
            throws Exception {
        waitUntil(
                records + " records are emitted",
                Duration.ofSeconds(20),
                () -> {
                    pollOnce(reader, output);
                    return output.getEmittedRecords().size() >= records;
                },
                () -> ", but only " + output.getEmittedRecords() + " are");
    }

    /** One poll; when nothing is available, waits (at most 100 ms) for data. */
    private static void pollOnce(
            SourceReader<String, IggyPartitionSplit> reader, TestingReaderOutput<String> output)
            throws Exception {
        if (reader.pollNext(output) == InputStatus.NOTHING_AVAILABLE) {
            try {
                reader.isAvailable().get(100, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // nothing yet
            }
        }
    }

    private Optional<Long> stored(long partition) {
        return IGGY.storedOffset(stream, topic, partition, consumer);
    }

    private Gauge<Long> gauge(String[] group, String name) {
        String[] path = java.util.Arrays.copyOf(group, group.length + 1);
        path[group.length] = name;
        return metrics.<Long>getGauge(path).orElseThrow();
    }

    private long counter(String name) {
        return metrics.getCounter(name).map(Counter::getCount).orElseThrow();
    }

    @Test
    void storesOffsetsOnlyWhenTheCheckpointCoveringThemCompletes() throws Exception {
        IGGY.send(stream, topic, 0, numbered("a", 0, 10));
        try (SourceReader<String, IggyPartitionSplit> reader = reader()) {
            reader.addSplits(List.of(split(0, 0)));
            TestingReaderOutput<String> output = new TestingReaderOutput<>();
            pollUntil(reader, output, 10);

            assertThat(reader.snapshotState(1))
                    .extracting(IggyPartitionSplit::startingOffset)
                    .containsExactly(10L);
            IGGY.send(stream, topic, 0, numbered("a", 10, 15));
            pollUntil(reader, output, 15);
            assertThat(reader.snapshotState(2))
                    .extracting(IggyPartitionSplit::startingOffset)
                    .containsExactly(15L);
            assertThat(stored(0)).as("nothing stored before a checkpoint completes").isEmpty();

            reader.notifyCheckpointComplete(1);
            waitUntil("offset 9 stored", Duration.ofSeconds(10), () -> stored(0).isPresent());
            assertThat(stored(0)).as("checkpoint 1 covered offsets 0-9").contains(9L);

            reader.notifyCheckpointComplete(2);
            waitUntil(
                    "offset 14 stored",
                    Duration.ofSeconds(10),
                    () -> stored(0).equals(Optional.of(14L)));
            waitUntil(
                    "two commits counted",
                    Duration.ofSeconds(5),
                    () -> counter("commitsSucceeded") == 2);
            String[] partition0 = {"stream", stream, "topic", topic, "partition", "0"};
            Gauge<Long> committed = gauge(partition0, "committedOffset");
            assertThat(committed.getValue()).isEqualTo(14L);
            assertThat(gauge(partition0, "currentOffset").getValue()).isEqualTo(14L);
            long storedAt = gauge(partition0, "lastOffsetStoreTime").getValue();
            assertThat(storedAt)
                    .as("epoch ms of the last successful store")
                    .isBetween(
                            System.currentTimeMillis() - Duration.ofMinutes(1).toMillis(),
                            System.currentTimeMillis());
            assertThat(output.getEmittedRecords()).containsExactlyElementsOf(strings("a", 0, 15));
        }
    }

    @Test
    void tellsTheEnumeratorTheSplitsItRestoredAsItStarts() throws Exception {
        IggySource<String> source =
                IggySource.<String>builder()
                        .setConnection(connection(IGGY))
                        .setStream(stream)
                        .setTopic(topic)
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setValueOnlyDeserializer(new SimpleStringSchema())
                        .build();
        try (SourceReader<String, IggyPartitionSplit> reader = source.createReader(readerContext)) {
            reader.addSplits(List.of(split(1, 4))); // as Flink restores them: before the start
            reader.start();
            reader.addSplits(List.of(split(0, 0))); // assigned: not reported
        }
        assertThat(readerContext.getSentEvents())
                .containsExactly(
                        new RestoredSplitsEvent(List.of(IggyTopicPartition.of(stream, topic, 1))));
    }

    @Test
    void withoutAConsumerNameCompletedCheckpointsStoreNothing() throws Exception {
        IGGY.send(stream, topic, 0, numbered("a", 0, 5));
        TestingReaderOutput<String> output = new TestingReaderOutput<>();
        SourceReader<String, IggyPartitionSplit> reader = reader(null);
        try {
            reader.addSplits(List.of(split(0, 0)));
            pollUntil(reader, output, 5);
            reader.snapshotState(1);
            reader.notifyCheckpointComplete(1);
        } finally {
            reader.close(); // waits for the stores in flight, were there any
        }
        assertThat(output.getEmittedRecords()).containsExactlyElementsOf(strings("a", 0, 5));
        assertThat(IGGY.storedOffset(stream, topic, 0, "flink-iggy-source")).isEmpty();
        assertThat(counter("commitsSucceeded")).isZero();
        assertThat(counter("commitsFailed")).isZero();
        assertThat(counter("reconnects")).as("the connection never closed").isZero();
    }

    @Test
    void storesNothingForAPartitionNotReadPastItsStart() throws Exception {
        IGGY.send(stream, topic, 0, numbered("a", 0, 3));
        try (SourceReader<String, IggyPartitionSplit> reader = reader()) {
            // Partition 0 taken over at its end, partition 1 empty.
            reader.addSplits(List.of(split(0, 3), split(1, 0)));
            TestingReaderOutput<String> output = new TestingReaderOutput<>();
            reader.pollNext(output);
            reader.snapshotState(1);
            reader.notifyCheckpointComplete(1);
            IGGY.send(stream, topic, 1, numbered("b", 0, 1));
            pollUntil(reader, output, 1);
            reader.snapshotState(2);
            reader.notifyCheckpointComplete(2);
            waitUntil("partition 1 stored", Duration.ofSeconds(10), () -> stored(1).isPresent());

            assertThat(stored(1)).contains(0L);
            assertThat(stored(0)).isEmpty();
            assertThat(counter("commitsFailed")).isZero();
            assertThat(output.getEmittedRecords()).containsExactly("b0");
        }
    }

    @Test
    void storeFailuresAreCountedNotFatal() throws Exception {
        IGGY.send(stream, topic, 0, numbered("a", 0, 2));
        // Reading on while the stream is missing: the store, not the reading, is what fails.
        try (SourceReader<String, IggyPartitionSplit> reader = reader(consumer, true)) {
            reader.addSplits(List.of(split(0, 0)));
            TestingReaderOutput<String> output = new TestingReaderOutput<>();
            pollUntil(reader, output, 2);
            reader.snapshotState(1);
            IGGY.deleteStream(stream);

            reader.notifyCheckpointComplete(1);

            waitUntil(
                    "failure counted", Duration.ofSeconds(10), () -> counter("commitsFailed") == 1);
            assertThat(counter("commitsSucceeded")).isZero();
        }
    }

    @Test
    void reportsLagAndCaughtUpAndWakesUpFromAnIdleWait() throws Exception {
        IGGY.send(stream, topic, 0, numbered("a", 0, 6));
        try (SourceReader<String, IggyPartitionSplit> reader = reader()) {
            Gauge<Integer> caughtUp = metrics.<Integer>getGauge("caughtUp").orElseThrow();
            assertThat(caughtUp.getValue()).isZero();
            reader.addSplits(List.of(split(0, 0), split(1, 0)));
            TestingReaderOutput<String> output = new TestingReaderOutput<>();
            pollUntil(reader, output, 1);
            assertThat(metrics.<Long>getGauge("pendingRecords").orElseThrow().getValue())
                    .as("lag while records 1-5 wait")
                    .isPositive();
            pollUntil(reader, output, 6);
            waitUntil(
                    "the reader reports it caught up",
                    Duration.ofSeconds(10),
                    () -> {
                        pollOnce(reader, output);
                        return caughtUp.getValue() != 0;
                    });
            assertThat(caughtUp.getValue()).isEqualTo(1);
            assertThat(metrics.<Long>getGauge("pendingRecords").orElseThrow().getValue()).isZero();
            // Data arriving while the reader idles is picked up.
            IGGY.send(stream, topic, 1, numbered("b", 0, 2));
            pollUntil(reader, output, 8);
            assertThat(output.getEmittedRecords()).endsWith("b0", "b1");
        }
    }

    /** Records the Flink timestamp of every record. */
    private static final class TimestampedOutput extends TestingReaderOutput<String> {
        final List<Long> timestamps = new java.util.ArrayList<>();

        @Override
        public void collect(String record, long timestamp) {
            timestamps.add(timestamp);
            super.collect(record, timestamp);
        }
    }

    @Test
    void recordsCarryTheServerTimestampInMillis() throws Exception {
        long before = System.currentTimeMillis();
        IGGY.send(stream, topic, 0, numbered("a", 0, 3));
        long after = System.currentTimeMillis();
        try (SourceReader<String, IggyPartitionSplit> reader = reader()) {
            reader.addSplits(List.of(split(0, 0)));
            TimestampedOutput output = new TimestampedOutput();
            pollUntil(reader, output, 3);
            long[] expected =
                    IGGY.readAll(stream, topic, 0).stream()
                            .mapToLong(m -> m.header().timestamp().longValue() / 1000)
                            .toArray();
            assertThat(output.timestamps).containsExactly(expected[0], expected[1], expected[2]);
            if (!IGGY.isExternal()) {
                assertThat(output.timestamps)
                        .allSatisfy(t -> assertThat(t).isBetween(before, after));
            }
        }
    }

    @Test
    void pausedSplitsAreNotPolledUntilResumed() throws Exception {
        try (SourceReader<String, IggyPartitionSplit> reader = reader()) {
            reader.addSplits(List.of(split(0, 0), split(1, 0)));
            TestingReaderOutput<String> output = new TestingReaderOutput<>();
            // Once partition 1 delivers, the fetcher holds both splits and can pause one.
            IGGY.send(stream, topic, 1, numbered("b", 0, 1));
            pollUntil(reader, output, 1);
            reader.pauseOrResumeSplits(List.of(split(0, 0).splitId()), List.of());
            // Let a poll of partition 0 that was already in flight come back (empty).
            pollFor(reader, output, 200);
            IGGY.send(stream, topic, 0, numbered("a", 0, 3));
            IGGY.send(stream, topic, 1, numbered("b", 1, 3));
            pollUntil(reader, output, 3);
            pollFor(reader, output, 300);
            assertThat(output.getEmittedRecords()).containsExactly("b0", "b1", "b2");

            reader.pauseOrResumeSplits(List.of(), List.of(split(0, 0).splitId()));
            pollUntil(reader, output, 6);
            assertThat(output.getEmittedRecords()).endsWith("a0", "a1", "a2");
        }
    }

    private static void pollFor(
            SourceReader<String, IggyPartitionSplit> reader,
            TestingReaderOutput<String> output,
            long millis)
            throws Exception {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < until) {
            pollOnce(reader, output);
        }
    }

    private static List<String> strings(String prefix, int from, int to) {
        return numbered(prefix, from, to).stream().map(String::new).toList();
    }

    @Test
    void theServersTopicDescriptionSizesThePolls() throws Exception {
        // 1,000-byte payloads: 1,064 bytes a message as the server counts them (64 of header).
        byte[] payload = new byte[1000];
        IGGY.send(stream, topic, 0, Collections.nCopies(30, payload));
        IGGY.send(stream, topic, 1, Collections.nCopies(20, payload));
        PollSize size = new PollSize(0);

        try (IggyClientReadRequests requests =
                new IggyClientReadRequests(connection(IGGY), consumer, new SimpleCounter())) {
            size.described(
                    requests.describeTopic(new TopicPath(IggyId.of(stream), IggyId.of(topic)))
                            .get(20, TimeUnit.SECONDS)
                            .orElseThrow()
                            .summary());
        }

        assertThat(size.messages()).isEqualTo((int) (PollSize.TARGET_BYTES / 1064));
    }
}

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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.RestartStrategyUtils;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.apache.flink.connector.iggy.sink.testutils.IggySinkExternalContext.connection;
import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Exactly-once as Flink jobs against a server whose deduplication is off: commits that fail between
 * two sends of a committable, and a job restored from its checkpoint after it was down.
 */
class IggyExactlyOnceSinkITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(3);

    /** The exactly-once sinks' write-ahead directory. */
    @TempDir static Path writeAhead;

    private static final int PARTITIONS = 3;

    /** How many more commits the hook fails between two sends. */
    private static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

    private static final AtomicInteger FAILED = new AtomicInteger();

    private String stream;
    private final String topic = "eo";

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("exactly-once");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, topic, PARTITIONS);
        FAILED.set(0);
        FAILURES_LEFT.set(0);
    }

    /**
     * {@code sink} with committers that fail between two sends while {@link #FAILURES_LEFT} is
     * positive (the MiniCluster runs in this JVM, so the hook's counters are the test's).
     */
    private static <T> Sink<T> failingCommits(IggySink<T> sink) {
        return ExactlyOnceIggySink.withBetweenSends(sink, IggyExactlyOnceSinkITCase::failOrSend);
    }

    private static <T> Sink<T> failingCommits(IggyKeyedMapSink<T> sink) {
        return ExactlyOnceKeyedMapSink.withBetweenSends(
                sink, IggyExactlyOnceSinkITCase::failOrSend);
    }

    private static void failOrSend(IggyCommittable committable, int sent) {
        if (FAILURES_LEFT.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            FAILED.incrementAndGet();
            throw new IllegalStateException(
                    "test failure after " + sent + " of the " + committable);
        }
    }

    @Test
    void failuresBetweenTwoSendsOfACommittableLoseNothingAndRepeatNothing() throws Exception {
        int records = 3000;
        FAILURES_LEFT.set(3);
        StreamExecutionEnvironment env = environment(new Configuration());
        RestartStrategyUtils.configureFixedDelayRestartStrategy(env, 10, 50L);
        env.fromSource(indexes(records, 1500), WatermarkStrategy.noWatermarks(), "indexes")
                .map(i -> "r" + i)
                .returns(Types.STRING)
                .sinkTo(recordSink());
        env.execute("exactly-once with failing commits");

        assertThat(FAILED).hasValue(3);
        assertEachRecordOnceInOrder(records);
    }

    @Test
    void keyedMapSendsEachChangeOnceAndNoneIsLostAsUnchanged() throws Exception {
        // key k(i mod 40) gets v(i / 80): every value twice in a row, the second unchanged
        int records = 2400;
        FAILURES_LEFT.set(3);
        StreamExecutionEnvironment env = environment(new Configuration());
        env.setParallelism(2);
        RestartStrategyUtils.configureFixedDelayRestartStrategy(env, 10, 50L);
        env.fromSource(indexes(records, 1200), WatermarkStrategy.noWatermarks(), "indexes")
                .setParallelism(1)
                .map(i -> IggyMapChange.upsert("k" + (i % 40), "v" + (i / 80)))
                .setParallelism(1)
                .returns(IggyKeyedMapSinkITCase.CHANGES)
                .sinkTo(
                        failingCommits(
                                IggySink.<String, String>keyedMap()
                                        .setConnection(connection(IGGY))
                                        .setStream(stream)
                                        .setTopic(topic)
                                        .setValueSerializationSchema(new SimpleStringSchema())
                                        .setPartitionByKey()
                                        .setKeyHeader("key")
                                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                                        .setExactlyOnceWriteAheadDir(writeAhead.toUri().toString())
                                        .setBatchSize(5)
                                        .build()));
        env.execute("exactly-once keyed map with failing commits");

        assertThat(FAILED).hasValue(3);
        Map<String, List<String>> valuesPerKey = new LinkedHashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            IGGY.readAll(stream, topic, p)
                    .forEach(
                            m ->
                                    valuesPerKey
                                            .computeIfAbsent(
                                                    text(
                                                            m.userHeaders()
                                                                    .values()
                                                                    .iterator()
                                                                    .next()
                                                                    .value()),
                                                    k -> new ArrayList<>())
                                            .add(text(m.payload())));
        }
        List<String> expected = new ArrayList<>();
        for (int v = 0; v < records / 80; v++) {
            expected.add("v" + v);
        }
        assertThat(valuesPerKey).hasSize(40);
        valuesPerKey.forEach(
                (key, values) -> assertThat(values).as(key).containsExactlyElementsOf(expected));
    }

    /**
     * The job fails in a commit and stays down; other producers write to the partitions meanwhile.
     * Nothing on the server limits how long a pending commit may wait (deduplication is off, and
     * the sink uses no timeout), so however long the pause, the restore from the last checkpoint
     * sends what was missing and nothing twice.
     */
    @Test
    void aJobDownAfterAFailedCommitRestoresFromItsCheckpoint(@TempDir Path checkpoints)
            throws Exception {
        int records = 2000;
        Configuration retained = retainedCheckpoints(checkpoints);
        FAILURES_LEFT.set(1);
        StreamExecutionEnvironment first = environment(retained);
        RestartStrategyUtils.configureNoRestartStrategy(first);
        pipeline(first, records);
        assertThatThrownBy(() -> first.execute("exactly-once, failing")).isNotNull();
        assertThat(FAILED).hasValue(1);

        for (int p = 0; p < PARTITIONS; p++) {
            IGGY.send(stream, topic, p, List.of(("other-" + p).getBytes(StandardCharsets.UTF_8)));
        }

        Configuration restore = new Configuration(retained);
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, latestCheckpoint(checkpoints));
        StreamExecutionEnvironment second = environment(restore);
        pipeline(second, records);
        second.execute("exactly-once, restored");

        assertEachRecordOnceInOrder(records);
    }

    /**
     * Two writers fill the checkpoint; the job fails in its commit and stays down. Restored from
     * that checkpoint with three, the pending committables (now spread over three committers) are
     * read back and completed: every record once.
     */
    @Test
    void aRescaleFromTwoToThreeWithCommitsPendingLosesNothingAndRepeatsNothing(
            @TempDir Path checkpoints) throws Exception {
        int records = 2000;
        Configuration retained = retainedCheckpoints(checkpoints);
        FAILURES_LEFT.set(1);
        StreamExecutionEnvironment first = environment(retained);
        first.setParallelism(2);
        RestartStrategyUtils.configureNoRestartStrategy(first);
        pipeline(first, records);
        assertThatThrownBy(() -> first.execute("exactly-once at 2, failing")).isNotNull();
        assertThat(FAILED).hasValue(1);

        Configuration restore = new Configuration(retained);
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, latestCheckpoint(checkpoints));
        StreamExecutionEnvironment second = environment(restore);
        second.setParallelism(3);
        pipeline(second, records);
        second.execute("exactly-once at 3, restored");

        assertEachRecordOnce(records);
    }

    /**
     * Restoring a savepoint older than the latest checkpoint repeats what was committed after it,
     * as with any two-phase sink, and loses nothing.
     */
    @Test
    void aRestoreFromAnOlderSavepointRepeatsLaterOutputAndLosesNothing(@TempDir Path savepoints)
            throws Exception {
        int records = 2000;
        StreamExecutionEnvironment first = environment(new Configuration());
        pipeline(first, records);
        JobClient job = first.executeAsync("exactly-once, savepoint taken early");
        waitUntil(
                "some records committed",
                Duration.ofSeconds(60),
                () -> stored().size() >= 300,
                () -> ": " + stored().size());
        String savepoint =
                job.triggerSavepoint(savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(60, TimeUnit.SECONDS);
        job.getJobExecutionResult().get(60, TimeUnit.SECONDS);
        assertEachRecordOnce(records);

        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        StreamExecutionEnvironment second = environment(restore);
        pipeline(second, records);
        second.execute("exactly-once, restored from the older savepoint");

        List<String> stored = stored();
        assertThat(stored.stream().distinct().count()).as("distinct records").isEqualTo(records);
        assertThat(stored.size()).as("with repeats").isGreaterThan(records);
    }

    private static Configuration retainedCheckpoints(Path checkpoints) {
        Configuration configuration = new Configuration();
        configuration.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        configuration.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        return configuration;
    }

    private StreamExecutionEnvironment environment(Configuration configuration) {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(configuration);
        env.setParallelism(1);
        env.enableCheckpointing(200);
        return env;
    }

    private void pipeline(StreamExecutionEnvironment env, int records) {
        env.fromSource(indexes(records, 1000), WatermarkStrategy.noWatermarks(), "indexes")
                .uid("indexes")
                .map(i -> "r" + i)
                .uid("text")
                .returns(Types.STRING)
                .sinkTo(recordSink())
                .uid("iggy-sink");
    }

    private static DataGeneratorSource<Long> indexes(int records, int perSecond) {
        return new DataGeneratorSource<>(
                (GeneratorFunction<Long, Long>) index -> index,
                records,
                RateLimiterStrategy.perSecond(perSecond),
                Types.LONG);
    }

    /** Record i goes to partition i mod 3, in batches of 20. */
    private Sink<String> recordSink() {
        return failingCommits(
                IggySink.<String>builder()
                        .setConnection(connection(IGGY))
                        .setStream(stream)
                        .setTopic(topic)
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .setExactlyOnceWriteAheadDir(writeAhead.toUri().toString())
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .setPartitioner(
                                (record, key, payload, context) ->
                                        Long.parseLong(record.substring(1)) % PARTITIONS)
                        .setBatchSize(20)
                        .build());
    }

    /** Every partition holds its records once, in order; other producers' messages aside. */
    private void assertEachRecordOnceInOrder(int records) {
        for (int p = 0; p < PARTITIONS; p++) {
            List<String> expected = new ArrayList<>();
            for (int i = p; i < records; i += PARTITIONS) {
                expected.add("r" + i);
            }
            List<String> stored =
                    IGGY.readAll(stream, topic, p).stream()
                            .map(m -> text(m.payload()))
                            .filter(t -> !t.startsWith("other-"))
                            .collect(Collectors.toList());
            assertThat(stored).as("partition %d", p).containsExactlyElementsOf(expected);
        }
    }

    /** Every partition holds each of its records once, in any order. */
    private void assertEachRecordOnce(int records) {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            expected.add("r" + i);
        }
        assertThat(stored()).containsExactlyInAnyOrderElementsOf(expected);
        for (int p = 0; p < PARTITIONS; p++) {
            int partition = p;
            assertThat(IGGY.readAll(stream, topic, p))
                    .as("partition %d", p)
                    .allSatisfy(
                            m ->
                                    assertThat(
                                                    Long.parseLong(text(m.payload()).substring(1))
                                                            % PARTITIONS)
                                            .isEqualTo(partition));
        }
    }

    /** The records of every partition, other producers' messages aside. */
    private List<String> stored() {
        List<String> stored = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            IGGY.readAll(stream, topic, p).stream()
                    .map(m -> text(m.payload()))
                    .filter(t -> !t.startsWith("other-"))
                    .forEach(stored::add);
        }
        return stored;
    }

    private static String latestCheckpoint(Path checkpoints) throws IOException {
        List<Path> all = retained(checkpoints);
        return all.get(all.size() - 1).toUri().toString();
    }

    /** The retained checkpoints' directories, oldest first. */
    private static List<Path> retained(Path checkpoints) throws IOException {
        try (Stream<Path> files = Files.walk(checkpoints)) {
            List<Path> dirs =
                    files.filter(f -> f.getFileName().toString().equals("_metadata"))
                            .map(Path::getParent)
                            .sorted(
                                    Comparator.comparingLong(
                                            dir ->
                                                    Long.parseLong(
                                                            dir.getFileName()
                                                                    .toString()
                                                                    .substring(4))))
                            .collect(Collectors.toList());
            if (dirs.isEmpty()) {
                throw new AssertionError("no retained checkpoint");
            }
            return dirs;
        }
    }

    private static String text(byte[] payload) {
        return new String(payload, StandardCharsets.UTF_8);
    }
}

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

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.connector.iggy.sink.internal.config.WriteAheadPlacement;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.RestartStrategyUtils;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.apache.iggy.message.Message;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import javax.annotation.Nullable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.apache.flink.connector.iggy.sink.testutils.IggySinkExternalContext.connection;
import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once with write-ahead files in the checkpoint directory, or in a directory set on the
 * sink: any volume at default settings, checkpoints that carry handles instead of messages, and
 * failovers that lose and repeat nothing.
 */
class IggyExactlyOnceWriteAheadITCase {

    /** The subdirectory of the committers' epochs in an operator's write-ahead directory. */
    private static final String EPOCHS = "committer-epochs";

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    private static final int PAYLOAD_BYTES = 100;

    /** Records the failing map saw, in every attempt. */
    private static final AtomicInteger RECORDS_SEEN = new AtomicInteger();

    private String stream;
    private final String topic = "wal";

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("write-ahead");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, topic, 1);
    }

    /**
     * 1,000,000 records of 100 bytes from an unthrottled source into one partition, at default
     * settings with checkpoints every 10 s: far beyond what a checkpoint could hold, yet the job
     * finishes, every record arrives once, every checkpoint stays small and no write-ahead file is
     * left.
     */
    @Test
    void aMillionRecordsAtDefaultSettingsArriveOnceWithSmallCheckpoints(
            @TempDir Path checkpoints, @InjectMiniCluster MiniCluster flink) throws Exception {
        aMillionRecordsArriveOnce(environment(checkpoints, 10_000), flink);
        assertThat(writeAheadFiles(checkpoints)).as("write-ahead files left").isEmpty();
    }

    private JobID aMillionRecordsArriveOnce(StreamExecutionEnvironment env, MiniCluster flink)
            throws Exception {
        int records = 1_000_000;
        records(env, records, RateLimiterStrategy.noOp()).sinkTo(sink());
        JobID job = env.executeAsync("a million records, exactly-once").getJobID();
        flink.requestJobResult(job)
                .get(10, TimeUnit.MINUTES)
                .toJobExecutionResult(getClass().getClassLoader());

        assertEachRecordOnce(records);
        CheckpointStatsSnapshot stats =
                flink.getArchivedExecutionGraph(job).get().getCheckpointStatsSnapshot();
        long largest = 0;
        for (AbstractCheckpointStats checkpoint : stats.getHistory().getCheckpoints()) {
            if (checkpoint.getStatus() == CheckpointStatsStatus.COMPLETED) {
                largest = Math.max(largest, checkpoint.getStateSize());
            }
        }
        assertThat(stats.getCounts().getNumberOfCompletedCheckpoints()).isPositive();
        // Messages in state would take over 100 bytes each; handles take a few hundred per file.
        assertThat(largest)
                .as("the largest checkpoint's bytes, for %,d messages", records)
                .isLessThan(records / 10);
        return job;
    }

    /**
     * The job fails twice in the middle of an interval and restarts from its last checkpoint: the
     * restored committables are read from their write-ahead files, nothing is lost or repeated, and
     * no file is left behind.
     */
    @Test
    void failoversWithWriteAheadFilesLoseNothingAndRepeatNothing(@TempDir Path checkpoints)
            throws Exception {
        int records = 20_000;
        RECORDS_SEEN.set(0);
        StreamExecutionEnvironment env = environment(checkpoints, 200);
        RestartStrategyUtils.configureFixedDelayRestartStrategy(env, 10, 50L);
        failingTwice(env, records);
        env.execute("exactly-once with failovers");

        assertThat(RECORDS_SEEN.get()).as("both failures happened").isGreaterThan(14_000);
        assertEachRecordOnce(records);
        assertThat(writeAheadFiles(checkpoints)).as("write-ahead files left").isEmpty();
        List<String> epochs =
                committerEpochs(checkpoints.resolve(WriteAheadPlacement.SUBDIRECTORY));
        assertThat(epochs).as("the committer's latest epoch stays, no other").hasSize(1);
        assertThat(Long.parseLong(epochs.get(0).substring("epoch-".length(), 25)))
                .as("the committers after the failovers started later epochs")
                .isGreaterThan(1);
    }

    /**
     * The failovers above with the write-ahead directory set on the sink, as a local path, and no
     * checkpoint directory (Flink keeps checkpoints in the JobManager's memory): the files go to
     * that directory as given, in a directory of the job's own, and the restored committables are
     * read from there.
     */
    @Test
    void failoversWithAWriteAheadDirectoryOfTheSinkLoseNothingAndRepeatNothing(
            @TempDir Path writeAhead, @InjectMiniCluster MiniCluster flink) throws Exception {
        int records = 20_000;
        RECORDS_SEEN.set(0);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        env.setParallelism(1);
        env.enableCheckpointing(200);
        RestartStrategyUtils.configureFixedDelayRestartStrategy(env, 10, 50L);
        records(env, records, RateLimiterStrategy.perSecond(10_000))
                .map(IggyExactlyOnceWriteAheadITCase::failTwice)
                .returns(Types.STRING)
                .sinkTo(sink(writeAhead.toString()));
        JobID job = env.executeAsync("exactly-once in the sink's directory, failovers").getJobID();
        flink.requestJobResult(job)
                .get(5, TimeUnit.MINUTES)
                .toJobExecutionResult(getClass().getClassLoader());

        assertThat(RECORDS_SEEN.get()).as("both failures happened").isGreaterThan(14_000);
        assertEachRecordOnce(records);
        Path jobDirectory = writeAhead.resolve(job.toHexString());
        assertThat(jobDirectory).as("the job's own directory").isDirectory();
        assertThat(filesIn(jobDirectory)).as("write-ahead files left").isEmpty();
    }

    /**
     * A savepoint's pending committables name write-ahead files that the job commits and deletes
     * after it; restored later, those commits find their messages in the partition and need no
     * file: the restored job repeats later output, as any two-phase sink does, and loses nothing.
     */
    @Test
    void aRestoreFromAnOlderSavepointNeedsNoFileTheJobDeletedSince(
            @TempDir Path checkpoints, @TempDir Path savepoints) throws Exception {
        int records = 3_000;
        StreamExecutionEnvironment first = environment(checkpoints, 200);
        throttled(first, records);
        JobClient job = first.executeAsync("write-ahead files, savepoint taken early");
        waitUntil(
                "some records committed",
                Duration.ofSeconds(60),
                () -> IGGY.messagesCount(stream, topic, 0) >= 500,
                () -> ": " + IGGY.messagesCount(stream, topic, 0));
        String savepoint =
                job.triggerSavepoint(savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(60, TimeUnit.SECONDS);
        job.getJobExecutionResult().get(120, TimeUnit.SECONDS);
        assertEachRecordOnce(records);
        assertThat(writeAheadFiles(checkpoints)).as("all committed and deleted").isEmpty();

        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        StreamExecutionEnvironment second = environment(checkpoints, 200, restore);
        throttled(second, records);
        second.execute("write-ahead files, restored from the older savepoint");

        BitSet seen = new BitSet(records);
        for (Message m : IGGY.readAll(stream, topic, 0)) {
            seen.set(
                    Integer.parseInt(
                            new String(m.payload(), StandardCharsets.UTF_8).substring(0, 10)));
        }
        assertThat(seen.cardinality()).as("distinct records").isEqualTo(records);
        assertThat(IGGY.messagesCount(stream, topic, 0))
                .as("with repeats of what followed the savepoint only")
                .isGreaterThan(records)
                .isLessThan(2L * records);
        assertThat(writeAheadFiles(checkpoints)).isEmpty();
    }

    /**
     * An INSERT into an exactly-once table with 'sink.exactly-once.write-ahead-dir' and no
     * checkpoint directory: its rows go through files in that directory (the job's directory is
     * there afterwards, its files committed and deleted), and arrive once.
     */
    @Test
    void sqlWritesAheadToTheDirectoryOfItsOption(@TempDir Path writeAhead) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(200);
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.executeSql(
                String.format(
                        "CREATE TEMPORARY TABLE out_table (line STRING) WITH ('connector' ="
                                + " 'iggy', 'address' = '%s', 'username' = '%s', 'password' ="
                                + " '%s', 'stream' = '%s', 'topic' = '%s', 'value.format' ="
                                + " 'raw', 'sink.delivery-guarantee' = 'exactly-once',"
                                + " 'sink.exactly-once.write-ahead-dir' = '%s')",
                        IGGY.address(),
                        IGGY.username(),
                        IGGY.password(),
                        stream,
                        topic,
                        writeAhead.toUri()));
        tables.executeSql(
                        "INSERT INTO out_table SELECT CONCAT(LPAD(CAST(n AS STRING), 10, '0'),"
                                + " REPEAT('.', 90)) FROM (VALUES (0), (1), (2), (3), (4)) AS"
                                + " t(n)")
                .await(2, TimeUnit.MINUTES);

        assertEachRecordOnce(5);
        try (Stream<Path> jobs = Files.list(writeAhead)) {
            assertThat(jobs).as("job directories in the write-ahead directory").hasSize(1);
        }
        assertThat(filesIn(writeAhead)).as("files left").isEmpty();
    }

    /** Records 0 to {@code records - 1} (see {@link #record}) at most at {@code rate}. */
    private static DataStreamSource<String> records(
            StreamExecutionEnvironment env, int records, RateLimiterStrategy rate) {
        return env.fromSource(
                new DataGeneratorSource<>(
                        (GeneratorFunction<Long, String>) IggyExactlyOnceWriteAheadITCase::record,
                        records,
                        rate,
                        Types.STRING),
                WatermarkStrategy.noWatermarks(),
                "records");
    }

    private void throttled(StreamExecutionEnvironment env, int records) {
        records(env, records, RateLimiterStrategy.perSecond(1_000))
                .uid("records")
                .sinkTo(sink())
                .uid("iggy-sink");
    }

    private void failingTwice(StreamExecutionEnvironment env, int records) {
        records(env, records, RateLimiterStrategy.perSecond(10_000))
                .map(IggyExactlyOnceWriteAheadITCase::failTwice)
                .returns(Types.STRING)
                .sinkTo(sink());
    }

    /** Fails at the 7,000th and the 14,000th record the map sees, counting across restarts. */
    private static String failTwice(String record) {
        int seen = RECORDS_SEEN.incrementAndGet();
        if (seen == 7_000 || seen == 14_000) {
            throw new IllegalStateException("test failure at " + record.substring(0, 10));
        }
        return record;
    }

    private StreamExecutionEnvironment environment(Path checkpoints, long intervalMillis) {
        return environment(checkpoints, intervalMillis, new Configuration());
    }

    private StreamExecutionEnvironment environment(
            Path checkpoints, long intervalMillis, Configuration base) {
        Configuration configuration = new Configuration(base);
        configuration.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(configuration);
        env.setParallelism(1);
        env.enableCheckpointing(intervalMillis);
        return env;
    }

    /** Everything at its default but the delivery guarantee. */
    private IggySink<String> sink() {
        return sink(null);
    }

    /** With a write-ahead directory of its own, or {@code null} for the default. */
    private IggySink<String> sink(@Nullable String writeAheadDir) {
        return IggySink.<String>builder()
                .setConnection(connection(IGGY))
                .setStream(stream)
                .setTopic(topic)
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setExactlyOnceWriteAheadDir(writeAheadDir)
                .setValueSerializationSchema(new SimpleStringSchema())
                .build();
    }

    /** Record i: its index in 10 digits, padded to 100 bytes. */
    static String record(long index) {
        StringBuilder text = new StringBuilder(String.format("%010d", index));
        while (text.length() < PAYLOAD_BYTES) {
            text.append('.');
        }
        return text.toString();
    }

    /** Reads the partition page by page: every index once, and nothing else. */
    private void assertEachRecordOnce(int records) {
        assertThat(IGGY.messagesCount(stream, topic, 0)).isEqualTo(records);
        BitSet seen = new BitSet(records);
        long offset = 0;
        while (offset < records) {
            List<Message> page = IGGY.poll(stream, topic, 0, offset, 10_000);
            assertThat(page).as("messages from offset %d", offset).isNotEmpty();
            for (Message m : page) {
                String text = new String(m.payload(), StandardCharsets.UTF_8);
                int index = Integer.parseInt(text.substring(0, 10));
                assertThat(seen.get(index)).as("record %d repeated", index).isFalse();
                seen.set(index);
            }
            offset += page.size();
        }
        assertThat(seen.cardinality()).isEqualTo(records);
    }

    private static List<Path> writeAheadFiles(Path checkpoints) throws IOException {
        return filesIn(checkpoints.resolve(WriteAheadPlacement.SUBDIRECTORY));
    }

    /** The names of the committers' epoch files under {@code dir}. */
    private static List<String> committerEpochs(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(f -> f.getParent().getFileName().toString().equals(EPOCHS))
                    .map(f -> f.getFileName().toString())
                    .collect(Collectors.toList());
        }
    }

    /**
     * The files under {@code dir} but the committers' epochs: one empty file per committer subtask
     * stays (see {@code CommitterEpochs}), the files of their connections go.
     */
    private static List<Path> filesIn(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(Files::isRegularFile).collect(Collectors.toList());
        }
        List<Path> epochs =
                files.stream()
                        .filter(f -> f.getParent().getFileName().toString().equals(EPOCHS))
                        .collect(Collectors.toList());
        assertThat(epochs)
                .as("only the committers' epochs stay")
                .allSatisfy(f -> assertThat(f.getFileName().toString()).startsWith("epoch-"));
        files.removeAll(epochs);
        return files;
    }
}

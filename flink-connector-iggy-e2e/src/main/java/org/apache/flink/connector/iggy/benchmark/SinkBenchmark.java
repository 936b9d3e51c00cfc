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
package org.apache.flink.connector.iggy.benchmark;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.FileUtils;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Sink throughput: a plain SDK send loop against {@link IggySink}, {@code IggySink} at-least-once
 * against exactly-once with checkpoints every 1 s and 10 s, and the keyed-map sink with 0 %, 50 %
 * and 90 % unchanged values, plus the reconcile state per key in heap and RocksDB checkpoints and a
 * canonical savepoint, split by {@link ReconcileStateSize} into key, the connector's value, Flink's
 * framing and the rest.
 *
 * <p>Throughput is measured by the server: records ÷ (append time of the last batch − append time
 * of the first), so job deployment does not count. Each figure is the best of {@link #REPEATS}
 * runs, as other processes on a shared machine only ever make a run slower. Every writer has
 * parallelism 1 and the same batch size. Uses the in-JVM server, or a real one when {@code
 * IGGY_TCP_ADDRESS} is set.
 *
 * <p>Arguments: {@code [records] [exactly-once]}; the second prints only the exactly-once rows.
 *
 * <pre>
 * mvn -q -pl flink-connector-iggy-e2e -am compile dependency:build-classpath \
 *     -Dmdep.outputFile=/tmp/cp.txt
 * java -Xmx3g -cp flink-connector-iggy-e2e/target/classes:$(cat /tmp/cp.txt) \
 *     org.apache.flink.connector.iggy.benchmark.SinkBenchmark 200000
 * </pre>
 */
public final class SinkBenchmark {

    private static final int PAYLOAD_BYTES = 100;
    private static final int BATCH_SIZE = 1000;

    /** Runs per figure; the best counts. */
    private static final int REPEATS = 3;

    /** Times each key appears in the keyed-map input. */
    private static final int ROUNDS = 20;

    private static final TypeInformation<IggyMapChange<String, byte[]>> CHANGES =
            TypeInformation.of(new TypeHint<IggyMapChange<String, byte[]>>() {});

    private final IggyServerExtension iggy;
    private final IggyConnectionConfig connection;

    /** The plain send loop's client: the asynchronous one, as the sink's writer uses. */
    private final AsyncIggyTcpClient client;

    private final MiniCluster flink;
    private final Path snapshots;
    private double sinkMessagesPerRequest;

    private SinkBenchmark(IggyServerExtension iggy, MiniCluster flink, Path snapshots) {
        this.iggy = iggy;
        this.connection =
                IggyConnectionConfig.builder()
                        .setAddress(iggy.address())
                        .setCredentials(iggy.username(), iggy.password())
                        .build();
        this.client = IggyClients.connect(connection);
        this.flink = flink;
        this.snapshots = snapshots;
    }

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
        IggyServerExtension iggy = new IggyServerExtension();
        iggy.start();
        MiniCluster flink = BenchmarkCluster.start();
        Path snapshots = Files.createTempDirectory("sink-benchmark-snapshots");
        SinkBenchmark benchmark = new SinkBenchmark(iggy, flink, snapshots);
        try {
            if (args.length > 1 && args[1].equals("exactly-once")) {
                benchmark.exactlyOnceRows(records);
            } else {
                benchmark.run(records);
            }
        } finally {
            IggyClients.closeAndWait(benchmark.client);
            flink.close();
            FileUtils.deleteDirectory(snapshots.toFile());
            iggy.stop();
        }
    }

    private void run(int records) throws Exception {
        System.out.printf(
                "Iggy sink benchmark: %,d records of %d B, batch size %d, parallelism 1%n%n",
                records, PAYLOAD_BYTES, BATCH_SIZE);
        // Warm up the JIT, the client and the server once; the figures come from the second runs.
        plainSdkLoop(Math.min(records, 50_000));
        iggySink(Math.min(records, 50_000));
        keyedMap(Math.min(records, 50_000), 50, "hashmap", false);

        // Shared machines are noisy: alternate the two and keep the best of each.
        double plain = 0;
        double sink = 0;
        for (int i = 0; i < REPEATS; i++) {
            plain = Math.max(plain, plainSdkLoop(records));
            sink = Math.max(sink, iggySink(records));
        }
        System.out.printf("%-38s %,12.0f records/s%n", "plain SDK send loop", plain);
        System.out.printf(
                "%-38s %,12.0f records/s  (%.2f x plain SDK), %.0f per request%n",
                "IggySink", sink, sink / plain, sinkMessagesPerRequest);
        System.out.println();
        exactlyOnceRows(records);
        System.out.println();
        List<ReconcileStateSize> states = new ArrayList<>();
        for (int unchanged : new int[] {0, 50, 90}) {
            double sinkOnChanges = 0;
            KeyedResult r = null;
            for (int i = 0; i < REPEATS; i++) {
                sinkOnChanges = Math.max(sinkOnChanges, iggySinkOnChanges(records, unchanged));
                KeyedResult again = keyedMap(records, unchanged, "hashmap", false);
                r = r == null || again.recordsPerSecond > r.recordsPerSecond ? again : r;
            }
            System.out.printf(
                    "IggySink on the same changes, every value sent: %,10.0f records/s%n",
                    sinkOnChanges);
            System.out.printf(
                    "keyed-map sink, %2d %% unchanged (%4.1f %% actual): %,10.0f records/s"
                            + " (%.2f x IggySink on the same changes, %.2f x IggySink above),"
                            + " %,d messages sent, %.0f per request%n",
                    unchanged,
                    r.actualUnchangedPercent,
                    r.recordsPerSecond,
                    r.recordsPerSecond / sinkOnChanges,
                    r.recordsPerSecond / sink,
                    r.messagesSent,
                    r.averageBatchSize);
            if (unchanged == 0) {
                states.add(r.checkpoint);
            }
        }
        KeyedResult rocks = keyedMap(records, 0, "rocksdb", false);
        System.out.printf(
                "keyed-map sink on RocksDB, 0 %% unchanged: %,10.0f records/s%n",
                rocks.recordsPerSecond);
        // The state does not depend on idempotent writes until a key is deleted; shown to prove it.
        states.add(keyedMap(records, 0, "hashmap", true).checkpoint);
        states.add(rocks.checkpoint);
        states.add(rocks.savepoint);
        System.out.println();
        ReconcileStateSize.print(states);
    }

    /** Sends fixed-size batches one after the other, each awaited, as an application would. */
    private double plainSdkLoop(int records) throws Exception {
        String stream = newTopic();
        StreamId streamId = StreamId.of(stream);
        TopicId topicId = TopicId.of("t");
        byte[] payload = payload(0, 0);
        for (int sent = 0; sent < records; sent += BATCH_SIZE) {
            List<Message> batch = new ArrayList<>(BATCH_SIZE);
            for (int i = 0; i < BATCH_SIZE && sent + i < records; i++) {
                batch.add(message(payload));
            }
            IggyClients.await(
                    client.messages()
                            .sendMessages(streamId, topicId, Partitioning.partitionId(0L), batch),
                    connection.requestTimeout(),
                    "send a batch");
        }
        double perSecond = serverMeasuredRate(stream, records, records);
        dropTopic(stream);
        return perSecond;
    }

    private double iggySink(int records) throws Exception {
        byte[] payload = payload(0, 0);
        return runIggySink(
                records,
                env ->
                        env.fromSource(
                                new DataGeneratorSource<>(
                                        i -> payload,
                                        records,
                                        PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO),
                                WatermarkStrategy.noWatermarks(),
                                "payloads"),
                b -> b);
    }

    /**
     * {@code IggySink} at-least-once against exactly-once, for 100 B and 1 KiB payloads and
     * checkpoints every 1 s and 10 s. The rate is records ÷ (the last message's append time − the
     * first message's origin time, when the writer took it), so it counts the wait for the
     * checkpoint that commits the last records: output of exactly-once appears one checkpoint
     * later.
     */
    private void exactlyOnceRows(int records) throws Exception {
        for (int payloadBytes : new int[] {PAYLOAD_BYTES, 1024}) {
            int n = payloadBytes == PAYLOAD_BYTES ? records : Math.max(1, records / 4);
            for (Duration interval :
                    new Duration[] {Duration.ofSeconds(1), Duration.ofSeconds(10)}) {
                double atLeastOnce = 0;
                double exactlyOnce = 0;
                for (int i = 0; i < REPEATS; i++) {
                    atLeastOnce =
                            Math.max(
                                    atLeastOnce,
                                    checkpointedSink(
                                            n,
                                            payloadBytes,
                                            interval,
                                            DeliveryGuarantee.AT_LEAST_ONCE));
                    exactlyOnce =
                            Math.max(
                                    exactlyOnce,
                                    checkpointedSink(
                                            n,
                                            payloadBytes,
                                            interval,
                                            DeliveryGuarantee.EXACTLY_ONCE));
                }
                System.out.printf(
                        "IggySink %,d x %4d B, checkpoints every %2d s: at-least-once %,10.0f"
                                + " records/s, exactly-once %,10.0f records/s (%.2f x)%n",
                        n,
                        payloadBytes,
                        interval.toSeconds(),
                        atLeastOnce,
                        exactlyOnce,
                        exactlyOnce / atLeastOnce);
            }
        }
    }

    private double checkpointedSink(
            int records, int payloadBytes, Duration interval, DeliveryGuarantee guarantee)
            throws Exception {
        String stream = newTopic();
        byte[] payload = new byte[payloadBytes];
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(interval.toMillis());
        env.fromSource(
                        new DataGeneratorSource<>(
                                i -> payload,
                                records,
                                PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO),
                        WatermarkStrategy.noWatermarks(),
                        "payloads")
                .sinkTo(
                        IggySink.<byte[]>builder()
                                .setConnection(connection)
                                .setStream(stream)
                                .setTopic("t")
                                .setMaxBatchMessages(BATCH_SIZE)
                                .setDeliveryGuarantee(guarantee)
                                .setExactlyOnceMaxBufferedBytes(1L << 30)
                                .setValueSerializationSchema(b -> b)
                                .build());
        runToEnd(env, guarantee + " job");
        long first =
                iggy.poll(stream, "t", 0, 0, 1).get(0).header().originTimestamp().longValueExact();
        long last = timestampMicros(stream, records - 1);
        dropTopic(stream);
        return records / (Math.max(1, last - first) / 1e6);
    }

    private void runToEnd(StreamExecutionEnvironment env, String what) throws Exception {
        JobGraph job = env.getStreamGraph().getJobGraph();
        flink.submitJob(job).get();
        JobResult result = flink.requestJobResult(job.getJobID()).get();
        if (!result.isSuccess()) {
            throw new IllegalStateException(
                    what + " failed", result.getSerializedThrowable().orElse(null));
        }
    }

    /**
     * The keyed-map benchmark's input, every value sent as it comes: what the keyed-map sink's
     * reconciliation costs is its throughput relative to this.
     */
    private double iggySinkOnChanges(int records, int unchangedPercent) throws Exception {
        ChangeGenerator changes =
                new ChangeGenerator(Math.max(1, records / ROUNDS), unchangedPercent);
        return runIggySink(
                records,
                env ->
                        env.fromSource(
                                        new DataGeneratorSource<>(i -> i, records, Types.LONG),
                                        WatermarkStrategy.noWatermarks(),
                                        "indexes")
                                .map(changes::change)
                                .returns(CHANGES),
                change -> change.value());
    }

    private <T> double runIggySink(
            int records,
            Function<StreamExecutionEnvironment, DataStream<T>> input,
            SerializationSchema<T> value)
            throws Exception {
        String stream = newTopic();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        input.apply(env)
                .sinkTo(
                        IggySink.<T>builder()
                                .setConnection(connection)
                                .setStream(stream)
                                .setTopic("t")
                                .setMaxBatchMessages(BATCH_SIZE)
                                .setValueSerializationSchema(value)
                                .build());
        runToEnd(env, "IggySink job");
        double perSecond = serverMeasuredRate(stream, records, records);
        sinkMessagesPerRequest = averageBatchSize(stream, records);
        dropTopic(stream);
        return perSecond;
    }

    /**
     * Runs the keyed-map sink over {@code records} changes, then reads its state from a checkpoint
     * and, on RocksDB, from a canonical savepoint too.
     */
    private KeyedResult keyedMap(
            int records, int unchangedPercent, String stateBackend, boolean idempotentWrites)
            throws Exception {
        int keys = Math.max(1, records / ROUNDS);
        ChangeGenerator changes = new ChangeGenerator(keys, unchangedPercent);
        long expectedMessages = changes.messagesSent(records);
        String stream = newTopic();

        Configuration config = new Configuration();
        config.set(StateBackendOptions.STATE_BACKEND, stateBackend);
        config.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, snapshots.toUri().toString());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        env.setParallelism(1);
        env.enableCheckpointing(Duration.ofHours(1).toMillis());
        DataStream<Long> indexes =
                env.fromSource(
                        new DataGeneratorSource<>(i -> i, records, Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "indexes");
        // Keeps the job running after the input ends, so that a checkpoint can show the state.
        DataStream<Long> keepAlive =
                env.fromSource(
                                new DataGeneratorSource<>(
                                        i -> -1L,
                                        Long.MAX_VALUE,
                                        RateLimiterStrategy.perSecond(1e-6),
                                        Types.LONG),
                                WatermarkStrategy.noWatermarks(),
                                "keep-alive")
                        .filter(i -> i >= 0);
        indexes.union(keepAlive)
                .map(changes::change)
                .returns(CHANGES)
                .sinkTo(
                        IggySink.<String, byte[]>keyedMap()
                                .setConnection(connection)
                                .setStream(stream)
                                .setTopic("t")
                                .setMaxBatchMessages(BATCH_SIZE)
                                .setValueSerializationSchema(b -> b)
                                .setIdempotentWrites(idempotentWrites)
                                .build());
        JobGraph job = env.getStreamGraph().getJobGraph();
        JobID id = job.getJobID();
        flink.submitJob(job).get();
        waitForMessages(stream, expectedMessages);
        boolean rocksDb = stateBackend.equals("rocksdb");
        String label =
                (rocksDb ? "RocksDB" : "heap")
                        + " checkpoint"
                        + (idempotentWrites ? ", idempotent writes" : "");
        KeyedResult result = new KeyedResult();
        result.checkpoint =
                ReconcileStateSize.read(label, flink.triggerCheckpoint(id).get(), snapshots);
        if (rocksDb) {
            String savepoint =
                    flink.triggerSavepoint(
                                    id,
                                    snapshots.toUri().toString(),
                                    false,
                                    SavepointFormatType.CANONICAL)
                            .get();
            result.savepoint =
                    ReconcileStateSize.read("canonical savepoint (RocksDB)", savepoint, snapshots);
        }
        flink.cancelJob(id).get();

        result.recordsPerSecond = serverMeasuredRate(stream, records, expectedMessages);
        result.messagesSent = messagesCount(stream);
        result.actualUnchangedPercent = 100.0 * (records - expectedMessages) / records;
        result.averageBatchSize = averageBatchSize(stream, expectedMessages);
        dropTopic(stream);
        return result;
    }

    /**
     * Records ÷ the span between the server append times of the first and the last message. The
     * input spans the whole interval evenly, so this is the rate at which the input was processed.
     */
    private double serverMeasuredRate(String stream, long records, long messages) {
        long first = timestampMicros(stream, 0);
        long last = timestampMicros(stream, messages - 1);
        double seconds = Math.max(1, last - first) / 1e6;
        return records / seconds;
    }

    /** Messages per send request: the server stamps all messages of one request alike. */
    private double averageBatchSize(String stream, long messages) {
        long requests = 0;
        long previous = -1;
        for (long offset = 0; offset < messages; ) {
            List<Message> page = iggy.poll(stream, "t", 0, offset, 1000);
            for (Message m : page) {
                long timestamp = m.header().timestamp().longValueExact();
                if (timestamp != previous) {
                    requests++;
                    previous = timestamp;
                }
            }
            offset += page.size();
        }
        return (double) messages / Math.max(1, requests);
    }

    private long timestampMicros(String stream, long offset) {
        return iggy.poll(stream, "t", 0, offset, 1).get(0).header().timestamp().longValueExact();
    }

    private long messagesCount(String stream) {
        return iggy.messagesCount(stream, "t", 0);
    }

    /** Counts only: the extension's awaitMessages would also read a million messages back. */
    private void waitForMessages(String stream, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (messagesCount(stream) < expected) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting for " + expected + " messages");
            }
            Thread.sleep(50);
        }
    }

    private String newTopic() {
        String stream = iggy.uniqueName("sink-bench");
        iggy.createStream(stream);
        iggy.createTopic(stream, "t", 1);
        return stream;
    }

    private void dropTopic(String stream) {
        iggy.deleteStream(stream);
    }

    private static Message message(byte[] payload) {
        return Message.of(new String(payload, java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    static byte[] payload(int key, int version) {
        byte[] b = new byte[PAYLOAD_BYTES];
        long seed = key * 1_000_003L + version;
        for (int i = 0; i < b.length; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            b[i] = (byte) ('a' + ((seed >>> 33) % 26));
        }
        return b;
    }

    private static final class KeyedResult {
        double recordsPerSecond;
        long messagesSent;
        double actualUnchangedPercent;
        double averageBatchSize;
        ReconcileStateSize checkpoint;
        ReconcileStateSize savepoint;
    }

    /**
     * Record i is key (i mod keys) in round (i div keys). Round 0 is always new; later rounds keep
     * the key's value with a per-round probability chosen so that {@code unchangedPercent} of all
     * records are unchanged.
     */
    static final class ChangeGenerator implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final int keys;
        private final double unchangedPerLaterRound;

        ChangeGenerator(int keys, int unchangedPercent) {
            this.keys = keys;
            this.unchangedPerLaterRound =
                    Math.min(100.0, unchangedPercent * (double) ROUNDS / (ROUNDS - 1));
        }

        IggyMapChange<String, byte[]> change(long index) {
            int key = (int) (index % keys);
            int round = (int) (index / keys);
            return IggyMapChange.upsert("k" + key, payload(key, version(key, round)));
        }

        /** The last round up to {@code round} in which the key's value changed. */
        int version(int key, int round) {
            for (int r = round; r > 0; r--) {
                if (!unchanged(key, r)) {
                    return r;
                }
            }
            return 0;
        }

        boolean unchanged(int key, int round) {
            long h = (key * 0x9E3779B97F4A7C15L) ^ (round * 0xC2B2AE3D27D4EB4FL);
            h ^= h >>> 29;
            h *= 0xBF58476D1CE4E5B9L;
            h ^= h >>> 32;
            return round > 0 && Math.floorMod(h, 10_000) < unchangedPerLaterRound * 100;
        }

        long messagesSent(long records) {
            long sent = 0;
            for (long i = 0; i < records; i++) {
                if (!unchanged((int) (i % keys), (int) (i / keys))) {
                    sent++;
                }
            }
            return sent;
        }
    }
}

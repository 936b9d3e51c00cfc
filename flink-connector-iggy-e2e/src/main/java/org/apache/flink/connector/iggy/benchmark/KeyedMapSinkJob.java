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
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The keyed-map sink's job for {@link SinkBenchmark}: runs the sink over generated changes with a
 * given share of unchanged values, measures its rate on the server, and reads its reconcile state
 * from a checkpoint and, on RocksDB, from a canonical savepoint. Immutable; used by the benchmark's
 * main thread.
 */
final class KeyedMapSinkJob {

    /** Times each key appears in the keyed-map input. */
    static final int ROUNDS = 20;

    static final TypeInformation<IggyMapChange<String, byte[]>> CHANGES =
            TypeInformation.of(new TypeHint<IggyMapChange<String, byte[]>>() {});

    private final SinkBenchmarkSetup setup;

    /** Where checkpoints and savepoints are written, and read back from. */
    private final Path snapshots;

    KeyedMapSinkJob(SinkBenchmarkSetup setup, Path snapshots) {
        this.setup = setup;
        this.snapshots = snapshots;
    }

    /**
     * What one run of the keyed-map sink measured.
     *
     * @param recordsPerSecond input records ÷ the span of the server's append times
     * @param messagesSent messages in the topic after the run
     * @param actualUnchangedPercent the share of input records whose value was unchanged
     * @param averageBatchSize messages per send request
     * @param checkpoint the reconcile state in a checkpoint
     * @param savepoint the reconcile state in a canonical savepoint; null unless on RocksDB
     */
    record Result(
            double recordsPerSecond,
            long messagesSent,
            double actualUnchangedPercent,
            double averageBatchSize,
            ReconcileStateSize checkpoint,
            ReconcileStateSize savepoint) {}

    /**
     * Runs the keyed-map sink over {@code records} changes, then reads its state from a checkpoint
     * and, on RocksDB, from a canonical savepoint too.
     */
    Result run(int records, int unchangedPercent, String stateBackend, boolean idempotentWrites)
            throws Exception {
        ChangeGenerator changes = changes(records, unchangedPercent);
        long expectedMessages = changes.messagesSent(records);
        String stream = setup.newTopic();

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
                                .setConnection(setup.connection())
                                .setStream(stream)
                                .setTopic("t")
                                .setBatchSize(SinkBenchmark.BATCH_SIZE)
                                .setValueSerializationSchema(b -> b)
                                .setIdempotentWrites(idempotentWrites)
                                .build());
        JobGraph job = env.getStreamGraph().getJobGraph();
        JobID id = job.getJobID();
        setup.flink().submitJob(job).get();
        waitForMessages(stream, expectedMessages);
        boolean rocksDb = stateBackend.equals("rocksdb");
        String label =
                (rocksDb ? "RocksDB" : "heap")
                        + " checkpoint"
                        + (idempotentWrites ? ", idempotent writes" : "");
        ReconcileStateSize checkpoint =
                ReconcileStateSize.read(
                        label, setup.flink().triggerCheckpoint(id).get(), snapshots);
        ReconcileStateSize savepoint = null;
        if (rocksDb) {
            String pointer =
                    setup.flink()
                            .triggerSavepoint(
                                    id,
                                    snapshots.toUri().toString(),
                                    false,
                                    SavepointFormatType.CANONICAL)
                            .get();
            savepoint =
                    ReconcileStateSize.read("canonical savepoint (RocksDB)", pointer, snapshots);
        }
        setup.flink().cancelJob(id).get();

        Result result =
                new Result(
                        setup.serverMeasuredRate(stream, records, expectedMessages),
                        setup.messagesCount(stream),
                        100.0 * (records - expectedMessages) / records,
                        setup.averageBatchSize(stream, expectedMessages),
                        checkpoint,
                        savepoint);
        setup.dropTopic(stream);
        return result;
    }

    /** The changes of a keyed-map run over {@code records} records: each key in every round. */
    static ChangeGenerator changes(int records, int unchangedPercent) {
        return new ChangeGenerator(Math.max(1, records / ROUNDS), unchangedPercent);
    }

    /** Counts only: the extension's awaitMessages would also read a million messages back. */
    private void waitForMessages(String stream, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (setup.messagesCount(stream) < expected) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting for " + expected + " messages");
            }
            Thread.sleep(50);
        }
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
            return IggyMapChange.upsert("k" + key, SinkBenchmark.payload(key, version(key, round)));
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

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
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * {@code IggySink} with periodic checkpoints for {@link SinkBenchmark}'s exactly-once rows: one job
 * over generated payloads, at-least-once or exactly-once, and what it measured. Immutable; used by
 * the benchmark's main thread.
 *
 * <p>The rate is records ÷ the time the job worked on them: from the first record the writer took
 * (its origin timestamp) to the last record's append on the server, less the time it only waited
 * for the checkpoint after the input ended. Exactly-once output is sent when the checkpoint that
 * took it completes: in a running job it appears one checkpoint later, on average half an interval
 * of latency that is not throughput. A bounded job's last records wait for the next periodic
 * checkpoint, up to a whole interval with nothing to do, which would dominate a run shorter than a
 * few intervals; that wait (from the last record taken, or the last append before it, to the
 * checkpoint's trigger) is left out. Everything else exactly-once costs counts: writing the
 * write-ahead files, the checkpoints, and the committer's reads and sends. An at-least-once job's
 * last append precedes that checkpoint, so nothing is left out of its rate.
 *
 * <p>Both run at the sink's default batch sizes. Each run also measures the CPU time the whole
 * process (Flink, the sink, the in-JVM server) spent per record from submission to the job's end:
 * where both guarantees keep every core busy, the ratio of their rates cannot exceed the inverse
 * ratio of their CPU per record.
 *
 * <p>Checkpoints go to files under the benchmark's snapshot directory: Flink's default, the
 * JobManager's memory, refuses a checkpoint over 5 MiB, less than 50,000 messages of 100 B held by
 * an exactly-once writer. A failing job is not restarted: the benchmark fails with its cause.
 */
final class CheckpointedSinkJob {

    private final SinkBenchmarkSetup setup;

    /** Where the checkpoints are written. */
    private final Path snapshots;

    CheckpointedSinkJob(SinkBenchmarkSetup setup, Path snapshots) {
        this.setup = setup;
        this.snapshots = snapshots;
    }

    /**
     * What one run measured.
     *
     * @param recordsPerSecond records ÷ the time the job worked on them (see the class comment)
     * @param finalWaitMillis the wait for the checkpoint after the input ended, left out of the
     *     rate
     * @param checkpoints checkpoints completed during the run
     * @param largestCheckpointBytes the state size of the largest of the latest of them
     * @param cpuMicrosPerRecord the process's CPU time per record over the whole run
     * @param cpuByGroup the same by thread group (see {@link ThreadCpu}), in microseconds
     * @param coresBusy the process's CPU time while the writers took the records (from the first to
     *     the last record's origin timestamp) over that time: on two cores, 2 means both worked for
     *     the process all along
     */
    record Result(
            double recordsPerSecond,
            long finalWaitMillis,
            long checkpoints,
            long largestCheckpointBytes,
            double cpuMicrosPerRecord,
            String cpuByGroup,
            double coresBusy) {}

    /**
     * @param parallelism of the source and the sink; every writer sends to partition 0
     */
    Result run(
            int records,
            int payloadBytes,
            Duration interval,
            DeliveryGuarantee guarantee,
            int parallelism)
            throws Exception {
        String stream = setup.newTopic();
        byte[] payload = new byte[payloadBytes];
        Configuration config = new Configuration();
        config.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, snapshots.toUri().toString());
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        env.setParallelism(parallelism);
        env.enableCheckpointing(interval.toMillis());
        SinkBenchmarkSetup.payloads(env, payload, records)
                .sinkTo(
                        IggySink.<byte[]>builder()
                                .setConnection(setup.connection())
                                .setStream(stream)
                                .setTopic("t")
                                .setDeliveryGuarantee(guarantee)
                                .setValueSerializationSchema(b -> b)
                                .build());
        long cpuBefore = ThreadCpu.processCpuNanos();
        long nanoTimeOffset = System.nanoTime() - System.currentTimeMillis() * 1_000_000L;
        ThreadCpu threads = ThreadCpu.start();
        JobID job = setup.runToEnd(env, guarantee + " job");
        String cpuByGroup = ThreadCpu.format(threads.stop(), records * 1000.0);
        double cpuMicrosPerRecord = (ThreadCpu.processCpuNanos() - cpuBefore) / 1000.0 / records;
        long firstTaken = originMicros(stream, 0);
        long lastTaken = originMicros(stream, records - 1);
        Map<String, Long> taking =
                threads.between(
                        firstTaken * 1000 + nanoTimeOffset, lastTaken * 1000 + nanoTimeOffset);
        long takingCpu = ThreadCpu.processCpu(taking);
        double coresBusy =
                Runtime.getRuntime().availableProcessors()
                        * (double) takingCpu
                        / (takingCpu + taking.get(ThreadCpu.IDLE));
        long lastAppended = setup.timestampMicros(stream, records - 1);

        CheckpointStatsSnapshot stats =
                setup.flink().getArchivedExecutionGraph(job).get().getCheckpointStatsSnapshot();
        long finalTrigger = Long.MAX_VALUE;
        long largest = 0;
        // The latest checkpoints (Flink's web.checkpoints.history): the one that committed the
        // last records is the first completed after them; if it is not among them, nothing is
        // left out.
        for (AbstractCheckpointStats checkpoint : stats.getHistory().getCheckpoints()) {
            if (checkpoint.getStatus() == CheckpointStatsStatus.COMPLETED) {
                largest = Math.max(largest, checkpoint.getStateSize());
                long trigger = checkpoint.getTriggerTimestamp() * 1000;
                if (trigger >= lastTaken) {
                    finalTrigger = Math.min(finalTrigger, trigger);
                }
            }
        }
        // Output that waited for the checkpoint was appended after its trigger.
        long finalWait =
                finalTrigger < lastAppended
                        ? Math.max(
                                0,
                                finalTrigger
                                        - Math.max(
                                                lastTaken,
                                                lastAppendedBefore(stream, records, finalTrigger)))
                        : 0;
        setup.dropTopic(stream);
        double seconds = Math.max(1, lastAppended - firstTaken - finalWait) / 1e6;
        return new Result(
                records / seconds,
                finalWait / 1000,
                stats.getCounts().getNumberOfCompletedCheckpoints(),
                largest,
                cpuMicrosPerRecord,
                cpuByGroup,
                coresBusy);
    }

    private long originMicros(String stream, long offset) {
        return setup.iggy()
                .poll(stream, "t", 0, offset, 1)
                .get(0)
                .header()
                .originTimestamp()
                .longValueExact();
    }

    /** The append time of the last message appended before {@code micros}, or 0 if none. */
    private long lastAppendedBefore(String stream, long messages, long micros) {
        long low = -1;
        long high = messages;
        // binary search: every message before low+1 was appended before micros, none from high on
        while (high - low > 1) {
            long middle = (low + high) >>> 1;
            if (setup.timestampMicros(stream, middle) < micros) {
                low = middle;
            } else {
                high = middle;
            }
        }
        return low < 0 ? 0 : setup.timestampMicros(stream, low);
    }
}

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

import javax.annotation.Nullable;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * {@code IggySink} with periodic checkpoints for {@link SinkBenchmark}'s exactly-once rows: one job
 * over generated payloads, at-least-once or exactly-once, and what it measured. Its {@link
 * SinkRate} says how the rate is measured: over the whole run, or over the steady middle of a long
 * one. Immutable; used by the benchmark's main thread.
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

    private final SinkRate rate;

    /** The exactly-once writers' write-ahead directory; {@code null}: under the checkpoints. */
    @Nullable private final String writeAheadDir;

    CheckpointedSinkJob(SinkBenchmarkSetup setup, Path snapshots, SinkRate rate) {
        this(setup, snapshots, rate, null);
    }

    private CheckpointedSinkJob(
            SinkBenchmarkSetup setup,
            Path snapshots,
            SinkRate rate,
            @Nullable String writeAheadDir) {
        this.setup = setup;
        this.snapshots = snapshots;
        this.rate = rate;
        this.writeAheadDir = writeAheadDir;
    }

    /**
     * The same job with the exactly-once write-ahead files in {@code directory} (a memory file
     * system, say, to see what the disk costs).
     */
    CheckpointedSinkJob withWriteAheadDir(String directory) {
        return new CheckpointedSinkJob(setup, snapshots, rate, directory);
    }

    /**
     * What one run measured.
     *
     * @param recordsPerSecond the rate, as the job's {@link SinkRate} measures it
     * @param leftOutMillis time the rate leaves out (see {@link WholeRunRate})
     * @param checkpoints checkpoints completed during the run
     * @param largestCheckpointBytes the state size of the largest of the latest of them
     * @param cpuMicrosPerRecord the process's CPU time per record over the whole run
     * @param cpuByGroup the same by thread group (see {@link ThreadCpu}), in microseconds
     * @param coresBusy the process's CPU time over the stretch the rate covers, divided by that
     *     stretch: on two cores, 2 means both worked for the process all along
     */
    record Result(
            double recordsPerSecond,
            long leftOutMillis,
            long checkpoints,
            long largestCheckpointBytes,
            double cpuMicrosPerRecord,
            String cpuByGroup,
            double coresBusy) {}

    /**
     * @param parallelism of the source and the sink; every writer sends to partition 0
     * @param fsync with exactly-once: whether committed partitions are flushed with fsync before
     *     their write-ahead files are deleted (the in-JVM server's flush does no I/O)
     */
    Result run(
            int records,
            int payloadBytes,
            Duration interval,
            DeliveryGuarantee guarantee,
            int parallelism,
            boolean fsync)
            throws Exception {
        String stream = rate.newTopic();
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
                                .setExactlyOnceWriteAheadDir(writeAheadDir)
                                .setExactlyOnceFsyncBeforeDelete(fsync)
                                .build());
        long cpuBefore = ThreadCpu.processCpuNanos();
        ThreadCpu threads = ThreadCpu.start();
        SinkRate.Measuring measuring = rate.start(stream);
        JobID job = setup.runToEnd(env, guarantee + " job");
        String cpuByGroup = ThreadCpu.format(threads.stop(), records * 1000.0);
        double cpuMicrosPerRecord = (ThreadCpu.processCpuNanos() - cpuBefore) / 1000.0 / records;
        CheckpointStatsSnapshot stats =
                setup.flink().getArchivedExecutionGraph(job).get().getCheckpointStatsSnapshot();
        SinkRate.Measured measured = measuring.finish(records, stats);
        Map<String, Long> covered = threads.between(measured.fromNanos(), measured.toNanos());
        long coveredCpu = ThreadCpu.processCpu(covered);
        double coresBusy =
                Runtime.getRuntime().availableProcessors()
                        * (double) coveredCpu
                        / (coveredCpu + covered.get(ThreadCpu.IDLE));
        long largest = 0;
        for (AbstractCheckpointStats checkpoint : stats.getHistory().getCheckpoints()) {
            if (checkpoint.getStatus() == CheckpointStatsStatus.COMPLETED) {
                largest = Math.max(largest, checkpoint.getStateSize());
            }
        }
        setup.dropTopic(stream);
        return new Result(
                measured.recordsPerSecond(),
                measured.leftOutMillis(),
                stats.getCounts().getNumberOfCompletedCheckpoints(),
                largest,
                cpuMicrosPerRecord,
                cpuByGroup,
                coresBusy);
    }
}

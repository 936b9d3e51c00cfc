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

import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;

/**
 * The figures of {@link IggySource} against plain SDK poll loops in the same JVM, every row printed
 * side by side, each the median of interleaved repetitions. Not a test: run it and read the table.
 *
 * <pre>
 * flink-connector-iggy-e2e/run-benchmark.sh SourceBenchmark [repetitions] [idleSeconds] [scale] [warmUps] [batch]
 * flink-connector-iggy-e2e/run-benchmark.sh SourceBenchmark 0 60   # the idle-latency rows only
 * flink-connector-iggy-e2e/run-benchmark.sh SourceBenchmark+SinkBenchmark   # both, one build
 * </pre>
 *
 * <ul>
 *   <li>1,000,000 x 100 B in 4 partitions, p=1: job submission to last record, and first to last
 *       record (steady), each as a ratio to the SDK loop, also per repetition; time from submission
 *       to first record, next to a job reading Flink's own one-record source (its deployment) and
 *       what a fresh client's connect, log-in and first requests take (the reader's start); time
 *       from the last record to the job's end, next to the same for the one-record job.
 *   <li>The same 100 B records, steady, at p=2 (two readers of two partitions each).
 *   <li>300,000 x 1 KiB in 4 partitions, steady, p=1 and p=2, as a ratio to the SDK loop.
 *   <li>300,000 x 100 B in 10 of 1000 partitions, steady, as a ratio to the same in 4 partitions
 *       ({@link WideTopicBenchmark} measures it on its own, steadier).
 *   <li>Idle sources: for the default check pace and for a 20 ms and a 4 ms minimum poll interval,
 *       N = 1 and N = 20 sources in one TaskManager (one job, one slot), each on its own quiet
 *       1-partition topic, one message a second to one of them (after one uncounted message that
 *       takes the cold paths and 20 uncounted seconds of the same pace, while the JIT compilers
 *       finish with the fresh job): the process's CPU (in-JVM server and MiniCluster included) less
 *       the same JVM's CPU with no job, per source, as % of one core, and the delay from send to
 *       sink (median, p99); next to N plain SDK loops, each polling its topic once per the same
 *       interval; then where the sources' CPU went, their worst delays, and what one topic
 *       description costs on its own. An uncounted warm-up job runs first.
 *   <li>One run of {@link QuietInputsBenchmark}: one source over 1,000 quiet topics, 1,000 quiet
 *       streams and one topic of 1,000 quiet partitions.
 * </ul>
 *
 * <p>For the throughput rows it also prints where the CPU went per record, by thread group (as
 * above, plus the JVM's JIT compilers and garbage collectors and the cores' idle time), in the last
 * repetition and in the one whose 100 B steady ratio was lowest, and how long each eighth of the
 * records took, so that a slow start or a hiccup shows.
 *
 * <p>{@code warmUps} (default 3) repetitions of every throughput measure run first to warm the JVM
 * up and are not counted. Each SDK loop and job starts once the JIT compilers have been idle for
 * 200 ms (waiting at most 3 s). {@code repetitions} 0 skips the throughput rows; {@code
 * idleSeconds} 0 the idle rows. {@code scale} (default 1) multiplies the numbers of records of the
 * throughput rows: in a short job the JIT compilers and waiting weigh more per record
 * (docs/testing.md), which a longer job spreads out.
 *
 * <p>{@code batch} (default 1000) is the messages per poll request, of the SDK loop and of the
 * source alike: per-request costs shrink per record with it, per-record costs do not, which tells
 * the two apart (docs/testing.md). 0 leaves the source's polls at its default, sized by the topic's
 * average message size, against the loop's 1000.
 *
 * <p>The SDK loop: one thread and client per partition, poll (a batch), wait, repeat. Jobs run on
 * one MiniCluster started beforehand (1 TaskManager, 2 slots): "submission" is a job's submission
 * to a running cluster.
 *
 * <p>Uses the in-JVM server unless {@code IGGY_TCP_ADDRESS} points at a real one (credentials from
 * {@code IGGY_USERNAME}/{@code IGGY_PASSWORD}), as {@link IggyServerExtension} does for tests.
 *
 * <p>This class reads the arguments and starts the server and the cluster; {@link SourceThroughput}
 * runs the throughput rows ({@link SdkPollLoop} the SDK side, {@link ThroughputReport} prints
 * them), {@link IdleSources} the idle rows, {@link RequestCosts} the single requests' costs; {@link
 * SourceBenchmarkSetup} holds what they share.
 */
public final class SourceBenchmark {

    private SourceBenchmark() {}

    public static void main(String[] args) throws Exception {
        int repetitions = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int idleSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        int scale = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        int warmUps = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        int batchArgument =
                args.length > 4 ? Integer.parseInt(args[4]) : SourceBenchmarkSetup.DEFAULT_BATCH;
        boolean sourceSizesItsPolls = batchArgument == 0;
        int batch = sourceSizesItsPolls ? SourceBenchmarkSetup.DEFAULT_BATCH : batchArgument;

        SourceBenchmarkSetup setup = SourceBenchmarkSetup.start(batch, sourceSizesItsPolls);
        System.out.printf(
                "Iggy source benchmark: %s, %d cores, median of %d interleaved repetitions"
                        + " after %d uncounted warm-up repetitions, %d messages per poll%s%n",
                setup.serverName(),
                Runtime.getRuntime().availableProcessors(),
                repetitions,
                warmUps,
                batch,
                sourceSizesItsPolls ? " (the SDK loop; the source sizes its own)" : "");
        try {
            if (repetitions > 0) {
                SourceThroughput.run(setup, repetitions, scale, warmUps);
            }
            if (idleSeconds > 0) {
                IdleSources.run(setup, idleSeconds);
            }
        } finally {
            setup.stop();
        }
        System.exit(0);
    }
}

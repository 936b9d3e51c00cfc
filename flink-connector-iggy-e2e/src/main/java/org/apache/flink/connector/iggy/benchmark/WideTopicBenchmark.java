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

/**
 * Whether a source reads a wide topic, whose records are in 10 of its 1000 partitions, as fast as
 * the same records in a topic of 4 partitions: the two jobs alternate, and each repetition prints
 * both steady rates (first to last record) and their ratio. {@link SourceBenchmark} has the same
 * row among its others, where its short jobs share the JIT compilers with jobs of other shapes;
 * here a larger {@code scale} (default 8: 2.4 million records, about a second a job) and nothing
 * else running make the ratio steadier. Not a test: run it and read the figures.
 *
 * <pre>
 * flink-connector-iggy-e2e/run-benchmark.sh WideTopicBenchmark [repetitions] [scale] [warmUps]
 * </pre>
 *
 * <p>Runs on its main thread; the jobs run on one MiniCluster started beforehand.
 */
public final class WideTopicBenchmark {

    private WideTopicBenchmark() {}

    public static void main(String[] args) throws Exception {
        int repetitions = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int scale = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int warmUps = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        SourceBenchmarkSetup setup =
                SourceBenchmarkSetup.start(SourceBenchmarkSetup.DEFAULT_BATCH, false);
        System.out.printf(
                "Wide topic benchmark: %s, %d cores, %,d x 100 B, %d counted repetitions after %d"
                        + " uncounted, %d messages per poll%n",
                setup.serverName(),
                Runtime.getRuntime().availableProcessors(),
                scale * 300_000L,
                repetitions,
                warmUps,
                SourceBenchmarkSetup.DEFAULT_BATCH);
        try {
            String wide = SourceThroughput.wideTopic(setup, scale);
            String narrow = SourceThroughput.narrowTopic(setup, scale);
            RatioRow row = new RatioRow();
            for (int r = 0; r < warmUps + repetitions; r++) {
                ThroughputRun wideRun = SourceThroughput.readWideOrNarrow(setup, wide, scale);
                ThroughputRun narrowRun = SourceThroughput.readWideOrNarrow(setup, narrow, scale);
                double ratio = wideRun.steadyRate / narrowRun.steadyRate;
                boolean counted = r >= warmUps;
                System.out.printf(
                        "%-9s 10 of 1000 partitions %,11.0f rec/s, 4 partitions %,11.0f rec/s,"
                                + " ratio %.3f; ms per eighth: %s | %s%n",
                        counted ? "counted" : "warm-up",
                        wideRun.steadyRate,
                        narrowRun.steadyRate,
                        ratio,
                        wideRun.eighths(),
                        narrowRun.eighths());
                if (counted) {
                    row.add(wideRun.steadyRate, narrowRun.steadyRate);
                }
            }
            row.printMedians("", "10 of 1000 partitions", "4 partitions");
        } finally {
            setup.stop();
        }
        System.exit(0);
    }
}

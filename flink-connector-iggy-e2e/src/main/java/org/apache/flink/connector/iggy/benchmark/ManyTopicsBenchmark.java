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

import java.util.ArrayList;
import java.util.List;

/**
 * Whether one source reads 10 topics of 4 partitions as fast as the same records in one topic of 40
 * partitions, at parallelism 1 and 2: the jobs alternate, and each repetition prints the steady
 * rates (first to last record) and their ratio per parallelism. The goal is a ratio of at least
 * 0.9. Not a test: run it on an idle machine and read the figures.
 *
 * <pre>
 * flink-connector-iggy-e2e/run-benchmark.sh ManyTopicsBenchmark [repetitions] [records] [warmUps]
 * </pre>
 *
 * <p>{@code records} (default 2,400,000) are 100 B each, spread evenly over the 40 partitions. Runs
 * on its main thread; the jobs run on one MiniCluster started beforehand.
 */
public final class ManyTopicsBenchmark {

    private static final int TOPICS = 10;
    private static final int PARTITIONS_PER_TOPIC = 4;
    private static final int PARTITIONS = TOPICS * PARTITIONS_PER_TOPIC;

    private ManyTopicsBenchmark() {}

    public static void main(String[] args) throws Exception {
        int repetitions = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int records = args.length > 1 ? Integer.parseInt(args[1]) : 2_400_000;
        int warmUps = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int perPartition = records / PARTITIONS;
        long total = (long) perPartition * PARTITIONS;
        SourceBenchmarkSetup setup =
                SourceBenchmarkSetup.start(SourceBenchmarkSetup.DEFAULT_BATCH, false);
        System.out.printf(
                "Many topics benchmark: %s, %d cores, %,d x 100 B in %d topics x %d partitions"
                        + " vs 1 topic x %d partitions, %d counted repetitions after %d"
                        + " uncounted, %d messages per poll%n",
                setup.serverName(),
                Runtime.getRuntime().availableProcessors(),
                total,
                TOPICS,
                PARTITIONS_PER_TOPIC,
                PARTITIONS,
                repetitions,
                warmUps,
                SourceBenchmarkSetup.DEFAULT_BATCH);
        try {
            List<String> topics = new ArrayList<>();
            for (int t = 0; t < TOPICS; t++) {
                topics.add("t" + t);
            }
            String many = setup.fillTopics(TOPICS, PARTITIONS_PER_TOPIC, perPartition, 100);
            String one = setup.fill(PARTITIONS, PARTITIONS, perPartition, 100);
            for (int parallelism = 1; parallelism <= 2; parallelism++) {
                RatioRow row = new RatioRow();
                for (int r = 0; r < warmUps + repetitions; r++) {
                    ThroughputRun manyRun =
                            SourceThroughput.readTopics(setup, many, topics, parallelism, total);
                    ThroughputRun oneRun =
                            SourceThroughput.readTopics(
                                    setup, one, List.of("t"), parallelism, total);
                    double ratio = manyRun.steadyRate / oneRun.steadyRate;
                    boolean counted = r >= warmUps;
                    System.out.printf(
                            "%-9s p=%d 10 topics x 4 %,11.0f rec/s, 1 topic x 40 %,11.0f rec/s,"
                                    + " ratio %.3f%n",
                            counted ? "counted" : "warm-up",
                            parallelism,
                            manyRun.steadyRate,
                            oneRun.steadyRate,
                            ratio);
                    if (counted) {
                        row.add(manyRun.steadyRate, oneRun.steadyRate);
                    }
                }
                row.printMedians(" p=" + parallelism, "10 topics x 4", "1 topic x 40");
            }
        } finally {
            setup.stop();
        }
        System.exit(0);
    }
}

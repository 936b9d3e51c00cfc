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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.apache.flink.connector.iggy.benchmark.SourceBenchmarkSetup.median;

/**
 * Collects the throughput figures of every counted repetition and prints them: the table of medians
 * side by side, the raw values and ratios per repetition, the CPU per record by thread group and
 * the time per eighth of the records. Used by the benchmark's main thread only.
 */
final class ThroughputReport {

    // The throughput figures' names on the "Raw" line.
    static final String SDK_SMALL = "SDK 100 B";
    static final String SUBMIT_TO_LAST = "submit->last";
    static final String STEADY_SMALL = "steady";
    static final String FIRST_MS = "first ms";
    static final String FLINK_FIRST_MS = "Flink's source first ms";
    static final String END_MS = "last to end ms";
    static final String FLINK_END_MS = "Flink's source last to end ms";
    static final String SDK_KIB = "SDK 1 KiB";
    static final String KIB_P1 = "1 KiB p=1";
    static final String KIB_COPYING = "object reuse off";
    static final String KIB_P2 = "p=2";
    static final String SMALL_P2 = "100 B p=2";
    static final String WIDE = "1000p";
    static final String NARROW = "4p";
    static final String SDK_SMALL_ONE_CLIENT = "SDK one client 100 B";
    static final String SDK_KIB_ONE_CLIENT = "SDK one client 1 KiB";

    /** Each figure's value per counted repetition, in the order the "Raw" line prints them. */
    private final Map<String, List<Double>> raw = new LinkedHashMap<>();

    /** The runs of one repetition whose CPU per record and eighths the report prints. */
    record Repetition(
            ThroughputRun sdkSmall,
            ThroughputRun sourceSmall,
            ThroughputRun sdkKib,
            ThroughputRun sourceKib) {

        /** The 100 B IggySource job's steady rate as a ratio to the SDK loop's. */
        double smallSteadyRatio() {
            return sourceSmall.steadyRate / sdkSmall.steadyRate;
        }
    }

    void add(String figure, double value) {
        raw.computeIfAbsent(figure, ignored -> new ArrayList<>()).add(value);
    }

    /**
     * Prints every throughput row; {@code fresh} is what a fresh client's start costs, {@code last}
     * the last repetition, {@code slowest} the counted one with the lowest 100 B steady ratio.
     */
    void print(
            int scale,
            RequestCosts.FreshClientCost fresh,
            int batch,
            Repetition last,
            Repetition slowest) {
        double sdk = median(raw.get(SDK_SMALL));
        double sdk1k = median(raw.get(SDK_KIB));
        if (scale != 1) {
            System.out.printf(
                    "%nScale %d: every record count below is %d times what it says.", scale, scale);
        }
        System.out.printf(
                "%n%-58s %14s %14s %8s %8s%n",
                "measure", "SDK loop", "IggySource", "ratio", "target");
        row(
                "1M x 100 B, 4 partitions, p=1: submission -> last (rec/s)",
                sdk,
                median(raw.get(SUBMIT_TO_LAST)),
                ">= 0.9");
        row(
                "same, steady: first -> last record (rec/s)",
                sdk,
                median(raw.get(STEADY_SMALL)),
                ">= 0.95");
        row("same, steady, p=2 (rec/s)", sdk, median(raw.get(SMALL_P2)), ">= 0.9");
        row(
                "300k x 1 KiB, 4 partitions, steady, p=1 (rec/s)",
                sdk1k,
                median(raw.get(KIB_P1)),
                ">= 0.9");
        row(
                "300k x 1 KiB, 4 partitions, steady, p=2 (rec/s)",
                sdk1k,
                median(raw.get(KIB_P2)),
                ">= 0.9");
        row("same p=1, object reuse off (rec/s)", sdk1k, median(raw.get(KIB_COPYING)), "");
        row(
                "SDK loop, 4 threads sharing 1 client: 100 B (rec/s)",
                sdk,
                median(raw.get(SDK_SMALL_ONE_CLIENT)),
                "");
        row(
                "SDK loop, 4 threads sharing 1 client: 1 KiB (rec/s)",
                sdk1k,
                median(raw.get(SDK_KIB_ONE_CLIENT)),
                "");
        System.out.printf(
                "%-58s %14s %14.0f %8s %8s%n",
                "submission -> first record (ms)", "", median(raw.get(FIRST_MS)), "", "<= 200");
        sourceOnlyRow(
                "same, a job reading Flink's own one-record source (ms)",
                median(raw.get(FLINK_FIRST_MS)));
        sourceOnlyRow("last record -> job finished (ms)", median(raw.get(END_MS)));
        sourceOnlyRow(
                "same, a job reading Flink's own one-record source (ms)",
                median(raw.get(FLINK_END_MS)));
        System.out.printf(
                "A fresh client, median of %d: connect and log in %.1f ms, describe the topic %.1f"
                        + " ms, again %.1f ms, poll %d messages %.1f ms%n",
                RequestCosts.FreshClientCost.CLIENTS,
                fresh.connectMs,
                fresh.firstDescriptionMs,
                fresh.secondDescriptionMs,
                batch,
                fresh.pollMs);
        row(
                "10 of 1000 partitions with data / 4 partitions (rec/s)",
                median(raw.get(NARROW)),
                median(raw.get(WIDE)),
                ">= 0.9");
        StringBuilder perRepetition = new StringBuilder();
        raw.forEach(
                (figure, values) ->
                        perRepetition
                                .append(perRepetition.length() > 0 ? "; " : "")
                                .append(figure)
                                .append(' ')
                                .append(values));
        System.out.printf("%nRaw (per repetition): %s%n", perRepetition);
        // A repetition's two sides ran minutes apart at most: their ratio shows the warm-up trend.
        System.out.printf(
                "Ratios per repetition, IggySource / SDK loop of the same repetition: 100 B"
                        + " submission -> last %s; 100 B steady %s; 1 KiB p=1 %s%n",
                ratios(raw.get(SUBMIT_TO_LAST), raw.get(SDK_SMALL)),
                ratios(raw.get(STEADY_SMALL), raw.get(SDK_SMALL)),
                ratios(raw.get(KIB_P1), raw.get(SDK_KIB)));
        System.out.printf(
                "%nCPU per record, ns, by thread group, and the cores' time left idle (last"
                        + " repetition; for jobs from first to last record, sampled every 20 ms):%n  100 B, SDK loop: %s%n  100 B, IggySource"
                        + " p=1: %s%n  1 KiB, SDK loop: %s%n  1 KiB, IggySource p=1: %s%n",
                last.sdkSmall().cpuPerRecord(),
                last.sourceSmall().cpuPerRecord(),
                last.sdkKib().cpuPerRecord(),
                last.sourceKib().cpuPerRecord());
        // The median hides the slow repetitions; this shows where their time went.
        System.out.printf(
                "  the counted repetition with the lowest 100 B steady ratio (%.2f): SDK loop: %s;"
                        + " IggySource p=1: %s%n",
                slowest.smallSteadyRatio(),
                slowest.sdkSmall().cpuPerRecord(),
                slowest.sourceSmall().cpuPerRecord());
        // A slow start (connections, compilation) shows in the first eighth, a hiccup in one.
        System.out.printf(
                "%nms per eighth of the records, first to last (last repetition): 100 B,"
                        + " IggySource p=1: %s; 1 KiB, IggySource p=1: %s%n",
                last.sourceSmall().eighths(), last.sourceKib().eighths());
    }

    private static void row(String measure, double base, double source, String target) {
        System.out.printf(
                "%-58s %14.0f %14.0f %8.2f %8s%n", measure, base, source, source / base, target);
    }

    /** A figure of the source's side only, with no SDK loop to compare and no target. */
    private static void sourceOnlyRow(String measure, double source) {
        System.out.printf("%-58s %14s %14.0f%n", measure, "", source);
    }

    private static String ratios(List<Double> source, List<Double> base) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < source.size(); i++) {
            text.append(i > 0 ? " " : "")
                    .append(String.format("%.2f", source.get(i) / base.get(i)));
        }
        return text.toString();
    }
}

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

import org.apache.flink.connector.iggy.sink.IggySinkBuilder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * {@link SinkBenchmark}'s rows of {@code IggySink} at-least-once at its defaults: throughput
 * against the plain SDK send loop, and send → append latency at low input rates ({@link
 * LowRateLatency}); each also for other settings given as candidates, to compare defaults. Used by
 * the benchmark's main thread.
 */
final class SinkAtDefaults {

    private static final int PAYLOAD_BYTES = 100;

    /** Interleaved rounds of the throughput rows; the medians count. */
    private static final int MEDIAN_OF = 5;

    /** The plain SDK send loop: records/s. */
    @FunctionalInterface
    interface PlainLoop {
        double run(int records, byte[] payload) throws Exception;
    }

    /** The sink over {@code records} times {@code payload}, with {@code options}: records/s. */
    @FunctionalInterface
    interface SinkRun {
        double run(int records, byte[] payload, UnaryOperator<IggySinkBuilder<byte[]>> options)
                throws Exception;
    }

    private final SinkBenchmarkSetup setup;
    private final PlainLoop plainLoop;
    private final SinkRun sink;

    SinkAtDefaults(SinkBenchmarkSetup setup, PlainLoop plainLoop, SinkRun sink) {
        this.setup = setup;
        this.plainLoop = plainLoop;
        this.sink = sink;
    }

    /**
     * {@code IggySink} at-least-once with every option at its default against the plain SDK send
     * loop (batches of {@link SinkBenchmark#BATCH_SIZE}, each awaited), for 100 B payloads and 1
     * KiB payloads (a third of the records), {@link #MEDIAN_OF} rounds that run each once,
     * interleaved: the median rates and ratio count. Also the sink with each of {@code candidates}
     * (see {@link #withSettings}) in the same rounds.
     */
    void throughputRows(int records, String[] candidates) throws Exception {
        for (int payloadBytes : new int[] {PAYLOAD_BYTES, 1024}) {
            int n = payloadBytes == PAYLOAD_BYTES ? records : Math.max(1, records / 3);
            byte[] payload = new byte[payloadBytes];
            System.arraycopy(
                    SinkBenchmark.payload(0, 0),
                    0,
                    payload,
                    0,
                    Math.min(payloadBytes, PAYLOAD_BYTES));
            plainLoop.run(Math.min(n, 50_000), payload);
            withSettings(Math.min(n, 50_000), payload, "");
            RatioRow defaults = new RatioRow();
            RatioRow[] others = new RatioRow[candidates.length];
            Arrays.setAll(others, i -> new RatioRow());
            List<Double> loopSeconds = new ArrayList<>();
            for (int i = 0; i < MEDIAN_OF; i++) {
                double plain = plainLoop.run(n, payload);
                loopSeconds.add(n / plain);
                defaults.add(withSettings(n, payload, ""), plain);
                for (int c = 0; c < candidates.length; c++) {
                    others[c].add(withSettings(n, payload, candidates[c]), plain);
                }
            }
            String label =
                    String.format(
                            " of %d, %,d x %d B (the SDK loop took %.1f s)",
                            MEDIAN_OF, n, payloadBytes, SourceBenchmarkSetup.median(loopSeconds));
            defaults.printMedians(label, "IggySink at defaults", "plain SDK send loop");
            for (int c = 0; c < candidates.length; c++) {
                others[c].printMedians(
                        label, "IggySink with " + candidates[c], "plain SDK send loop");
            }
        }
    }

    /**
     * Send → append latency of the sink at defaults (and with each of {@code candidates}) at 100
     * and 10,000 records a second, {@code seconds} of input each (see {@link LowRateLatency}).
     */
    void latencyRows(int seconds, String[] candidates) throws Exception {
        LowRateLatency latency = new LowRateLatency(setup);
        latency.run(1000, 3, b -> b); // warm-up
        for (double perSecond : new double[] {100, 10_000}) {
            System.out.printf(
                    "IggySink at defaults, %,.0f records/s for %d s, send -> append: %s%n",
                    perSecond, seconds, latency.run(perSecond, seconds, b -> b));
            for (String candidate : candidates) {
                System.out.printf(
                        "IggySink with %s, %,.0f records/s for %d s, send -> append: %s%n",
                        candidate,
                        perSecond,
                        seconds,
                        latency.run(perSecond, seconds, b -> settings(b, candidate)));
            }
        }
    }

    /** The sink at-least-once at defaults but for {@code settings} (see {@link #settings}). */
    private double withSettings(int records, byte[] payload, String settings) throws Exception {
        return sink.run(records, payload, b -> settings(b, settings));
    }

    /**
     * Applies {@code settings}, {@code key=value} pairs joined by {@code :}, to the builder: {@code
     * bytes} (max batch bytes), {@code messages} (batch size), {@code linger} (ms), {@code
     * inflight} (max in-flight requests); empty: none.
     */
    static <T> IggySinkBuilder<T> settings(IggySinkBuilder<T> builder, String settings) {
        for (String pair : settings.isEmpty() ? new String[0] : settings.split(":")) {
            String[] kv = pair.split("=");
            long value = Long.parseLong(kv[1]);
            switch (kv[0]) {
                case "bytes" -> builder.setMaxBatchBytes(value);
                case "messages" -> builder.setBatchSize((int) value);
                case "linger" -> builder.setLinger(Duration.ofMillis(value));
                case "inflight" -> builder.setMaxInFlightRequests((int) value);
                default ->
                        throw new IllegalArgumentException(
                                "Unknown setting "
                                        + kv[0]
                                        + ": bytes, messages, linger or inflight");
            }
        }
        return builder;
    }

    static String[] candidates(String list) {
        return list.isEmpty() ? new String[0] : list.split(",");
    }
}

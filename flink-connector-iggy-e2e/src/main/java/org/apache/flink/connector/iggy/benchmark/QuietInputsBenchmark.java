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

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.iggy.benchmark.IdleSources.DelaySink;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.regex.Pattern;

import static org.apache.flink.connector.iggy.benchmark.SourceBenchmarkSetup.median;

/**
 * What one source at parallelism 1 and the default check pace costs over many quiet inputs: 1,000
 * topics of one partition (a topic pattern), 1,000 streams of one topic (a stream pattern) and one
 * topic of 1,000 partitions. Each run measures the process with no job first, then each shape: the
 * process's CPU (in-JVM server and MiniCluster included) beyond no job, in % of one core, in all
 * and by thread group, while one message a second goes to an input picked at random, and each
 * message's delay from send to sink (median, max). Prints each run, then the medians over the runs.
 * Not a test: run it and read the figures.
 *
 * <pre>
 * flink-connector-iggy-e2e/run-benchmark.sh QuietInputsBenchmark [runs] [seconds] [shapes]
 * </pre>
 *
 * <p>Defaults: 3 runs of 60 measured seconds per shape, each after {@link #WARM_SECONDS} uncounted
 * seconds at the same pace, all three shapes; {@code shapes} names some of them ({@code
 * topics,streams,partitions}), for a profile of one. Runs on its main thread; the sink's threads
 * note the delays.
 */
public final class QuietInputsBenchmark {

    /** Topics, streams or partitions of each shape. */
    static final int INPUTS = 1000;

    /** Uncounted seconds at one message a second before a measurement, as the idle rows wait. */
    private static final int WARM_SECONDS = 20;

    /** The shapes of 1,000 quiet inputs, each read by one source. */
    enum Shape {
        TOPICS("1,000 topics x 1 partition, topic pattern"),
        STREAMS("1,000 streams x 1 topic, stream pattern"),
        PARTITIONS("1 topic x 1,000 partitions");

        final String label;

        Shape(String label) {
            this.label = label;
        }
    }

    /** What one measurement found. */
    private record Run(
            double cpuPercent, Map<String, Double> byGroup, double medianMs, double maxMs) {}

    private QuietInputsBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        List<Shape> shapes = new ArrayList<>();
        for (String name : (args.length > 2 ? args[2] : "topics,streams,partitions").split(",")) {
            shapes.add(Shape.valueOf(name.trim().toUpperCase(java.util.Locale.ROOT)));
        }
        SourceBenchmarkSetup setup =
                SourceBenchmarkSetup.start(SourceBenchmarkSetup.DEFAULT_BATCH, true);
        System.out.printf(
                "Quiet inputs benchmark: %s, %d cores, one source at parallelism 1, default check"
                        + " pace, 1 msg/s to a random input, %d runs of %d s per shape%n",
                setup.serverName(), Runtime.getRuntime().availableProcessors(), runs, seconds);
        try {
            run(setup, runs, seconds, shapes);
        } finally {
            setup.stop();
        }
        System.exit(0);
    }

    static void run(SourceBenchmarkSetup setup, int runs, int seconds, List<Shape> shapes)
            throws Exception {
        String prefix = "quiet-" + UUID.randomUUID().toString().substring(0, 8);
        String topicsStream = prefix + "-topics";
        setup.iggy().createStream(topicsStream);
        for (int i = 0; i < INPUTS; i++) {
            setup.iggy().createTopic(topicsStream, "t" + i, 1);
            setup.iggy().createStream(prefix + "-s" + i);
            setup.iggy().createTopic(prefix + "-s" + i, "t", 1);
        }
        String partitionsStream = setup.fill(INPUTS, 0, 0, 0);
        Map<Shape, List<Run>> all = new EnumMap<>(Shape.class);
        for (int r = 1; r <= runs; r++) {
            ThreadCpu noJob = ThreadCpu.start();
            sleepSeconds(seconds);
            Map<String, Double> baseline = percentOfOneCore(noJob.stop(), noJob.wallNanos());
            System.out.printf(
                    "%nrun %d: no job %.1f%% of one core (load %s)%n",
                    r, baseline.values().stream().mapToDouble(d -> d).sum(), load());
            for (Shape shape : shapes) {
                IggySource<byte[]> source =
                        source(setup, shape, topicsStream, prefix, partitionsStream);
                Run run =
                        measure(
                                setup,
                                source,
                                i -> send(setup, shape, i, topicsStream, prefix, partitionsStream),
                                seconds,
                                baseline);
                all.computeIfAbsent(shape, s -> new ArrayList<>()).add(run);
                System.out.printf(
                        "  %-44s +%.1f%% of one core; send -> record median %.0f ms, max %.0f"
                                + " ms%n    by thread group beyond no job: %s%n",
                        shape.label, run.cpuPercent, run.medianMs, run.maxMs, format(run.byGroup));
            }
        }
        System.out.printf("%nMedians of %d runs (load now %s):%n", runs, load());
        for (Map.Entry<Shape, List<Run>> shape : all.entrySet()) {
            List<Run> measured = shape.getValue();
            System.out.printf(
                    "  %-44s +%.1f%% of one core (fetcher %.1f%%, SDK %.1f%%, server %.1f%%);"
                            + " median %.0f ms, max %.0f ms (largest %.0f ms)%n",
                    shape.getKey().label,
                    median(measured.stream().map(Run::cpuPercent).toList()),
                    median(measured.stream().map(m -> m.byGroup.get(ThreadCpu.FETCHER)).toList()),
                    median(measured.stream().map(m -> m.byGroup.get(ThreadCpu.SDK)).toList()),
                    median(measured.stream().map(m -> m.byGroup.get(ThreadCpu.SERVER)).toList()),
                    median(measured.stream().map(Run::medianMs).toList()),
                    median(measured.stream().map(Run::maxMs).toList()),
                    measured.stream().mapToDouble(Run::maxMs).max().orElse(0));
        }
    }

    private static IggySource<byte[]> source(
            SourceBenchmarkSetup setup,
            Shape shape,
            String topicsStream,
            String prefix,
            String partitionsStream) {
        IggySourceBuilder<byte[]> builder =
                IggySource.<byte[]>builder()
                        .setConnection(setup.connection())
                        .setStartingOffsets(IggyStartingOffsets.latest())
                        .setDeserializer(IggyRecordDeserializationSchema.payloads());
        switch (shape) {
            case TOPICS:
                return builder.setStream(topicsStream)
                        .setTopicPattern(Pattern.compile("t\\d+"))
                        .build();
            case STREAMS:
                return builder.setStreamPattern(Pattern.compile(Pattern.quote(prefix) + "-s\\d+"))
                        .setTopic("t")
                        .build();
            default:
                return builder.setStream(partitionsStream).setTopic("t").build();
        }
    }

    /** One message carrying its send time to input {@code i} of the shape. */
    private static void send(
            SourceBenchmarkSetup setup,
            Shape shape,
            int i,
            String topicsStream,
            String prefix,
            String partitionsStream) {
        List<byte[]> message = List.of(ByteBuffer.allocate(8).putLong(System.nanoTime()).array());
        switch (shape) {
            case TOPICS:
                setup.iggy().send(topicsStream, "t" + i, 0, message);
                break;
            case STREAMS:
                setup.iggy().send(prefix + "-s" + i, "t", 0, message);
                break;
            default:
                setup.iggy().send(partitionsStream, "t", i, message);
        }
    }

    /**
     * Runs the source into the delay sink; once a first message arrived, {@link #WARM_SECONDS} of
     * one message a second uncounted, then {@code seconds} measured.
     */
    private static Run measure(
            SourceBenchmarkSetup setup,
            IggySource<byte[]> source,
            IntConsumer sender,
            int seconds,
            Map<String, Double> baseline)
            throws Exception {
        DelaySink.DELAYS.clear();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "iggy quiet inputs")
                .sinkTo(new DelaySink());
        JobGraph job = env.getStreamGraph().getJobGraph();
        setup.flink().submitJob(job).get();
        try {
            Random random = new Random(seconds);
            // Until the readers have their splits and started at the partitions' ends.
            long giveUpAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (DelaySink.DELAYS.isEmpty()) {
                if (System.nanoTime() > giveUpAt) {
                    throw new IllegalStateException("No message arrived within 60 s");
                }
                sender.accept(random.nextInt(INPUTS));
                Thread.sleep(1000);
            }
            IdleSources.everySecond(WARM_SECONDS, () -> sender.accept(random.nextInt(INPUTS)));
            Thread.sleep(1000);
            DelaySink.DELAYS.clear();
            ThreadCpu threads = ThreadCpu.start();
            IdleSources.everySecond(seconds, () -> sender.accept(random.nextInt(INPUTS)));
            Thread.sleep(1000);
            Map<String, Double> used = percentOfOneCore(threads.stop(), threads.wallNanos());
            List<Double> delays = new ArrayList<>(DelaySink.DELAYS);
            if (delays.size() < seconds) {
                throw new IllegalStateException(
                        "Only " + delays.size() + " of " + seconds + " messages arrived");
            }
            Map<String, Double> beyond = new LinkedHashMap<>();
            used.forEach((group, percent) -> beyond.put(group, percent - baseline.get(group)));
            double cpu = beyond.values().stream().mapToDouble(d -> d).sum();
            return new Run(cpu, beyond, median(delays), Collections.max(delays));
        } finally {
            setup.flink().cancelJob(job.getJobID()).get();
            while (!setup.flink().getJobStatus(job.getJobID()).get().isTerminalState()) {
                Thread.sleep(50);
            }
            SourceBenchmarkSetup.settle();
        }
    }

    /** Each group's CPU as % of one core over {@code wallNanos}, without idle time or GC pauses. */
    private static Map<String, Double> percentOfOneCore(Map<String, Long> used, long wallNanos) {
        Map<String, Double> percent = new LinkedHashMap<>();
        used.forEach(
                (group, nanos) -> {
                    if (!group.equals(ThreadCpu.IDLE) && !group.equals(ThreadCpu.GC_PAUSES)) {
                        percent.put(group, 100.0 * nanos / wallNanos);
                    }
                });
        return percent;
    }

    private static String format(Map<String, Double> percent) {
        StringBuilder text = new StringBuilder();
        percent.forEach(
                (group, value) -> {
                    if (Math.abs(value) >= 0.05) {
                        text.append(text.length() > 0 ? ", " : "")
                                .append(group)
                                .append(String.format(" %+.1f", value));
                    }
                });
        return text.toString();
    }

    private static void sleepSeconds(int seconds) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < until) {
            Thread.sleep(100);
        }
    }

    /** The machine's load averages, as {@code uptime} prints them. */
    private static String load() {
        try {
            String[] fields =
                    java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg"))
                            .split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}

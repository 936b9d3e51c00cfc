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
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.common.shim.FlinkSink;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.PolledMessages;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import static org.apache.flink.connector.iggy.benchmark.SourceBenchmarkSetup.median;

/**
 * The idle rows of {@link SourceBenchmark}: what quiet sources cost in CPU and how long a rare
 * message takes from send to sink, next to plain SDK loops polling at the same pace. The delays are
 * noted by the sink's or the loops' threads into {@link DelaySink#DELAYS}; everything else belongs
 * to the thread that runs the rows.
 */
final class IdleSources {

    /**
     * Seconds of one message a second, uncounted, before a row's measurement: a fresh job's JIT
     * compilation goes on for a while at one message a second and is not what an idle job costs.
     */
    private static final int WARM_SECONDS = 20;

    /** The numbers of sources in one TaskManager that each row measures. */
    private static final int[] SOURCES = {1, 20};

    private IdleSources() {}

    /**
     * The idle rows: for each setting of the source's check pace, N sources in one TaskManager (N =
     * 1 and 20), each reading its own quiet 1-partition topic, one message a second sent to one of
     * them; next to N plain SDK loops, each polling its topic once per the same interval. Then what
     * one topic description costs, and one run of {@link QuietInputsBenchmark}.
     */
    static void run(SourceBenchmarkSetup setup, int idleSeconds) throws Exception {
        Duration interval = IggySourceBuilder.DEFAULT_POLL_INTERVAL;
        // Uncounted: the first jobs' JIT compilation would otherwise count as the readers' CPU.
        idleLatency(setup, List.of(setup.fill(1, 1, 0, 0)), interval, 5);
        idleSdkLoops(setup, List.of(setup.fill(1, 1, 0, 0)), interval, 5);
        // After the warm-up: the JVM's start-up compilation would otherwise count as no job's.
        double baselineCpu = cpuPercentOverSeconds(Math.min(10, idleSeconds));
        System.out.printf(
                "%nIdle sources, 1 msg/s to one of N quiet topics, %d s; process CPU with no job:"
                        + " %.1f%% of one core%n",
                idleSeconds, baselineCpu);
        System.out.printf(
                "%-44s %4s %22s %22s%n",
                "setting", "N", "source: CPU/src, med/p99", "SDK loop: CPU/src, med/p99");
        Map<Integer, Double> idleJobCpu = new TreeMap<>();
        for (int n : SOURCES) {
            idleJobCpu.put(n, idleFlinkJobCpu(setup, n, idleSeconds));
        }
        System.out.printf(
                "a job of N Flink sources that emit nothing, CPU per source less no job: %s%n",
                idleJobCpu.entrySet().stream()
                        .map(
                                e ->
                                        String.format(
                                                "N = %d: %.2f%%",
                                                e.getKey(),
                                                (e.getValue() - baselineCpu) / e.getKey()))
                        .collect(Collectors.joining(", ")));
        for (Duration min :
                new Duration[] {interval, Duration.ofMillis(20), Duration.ofMillis(4)}) {
            for (int n : SOURCES) {
                List<String> streams = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    streams.add(setup.fill(1, 1, 0, 0));
                }
                Latency source = idleLatency(setup, streams, min, idleSeconds);
                Latency loop = idleSdkLoops(setup, streams, min, idleSeconds);
                System.out.printf(
                        "%-44s %4d %22s %22s%n",
                        min.equals(interval)
                                ? "default (min = poll interval " + interval.toMillis() + " ms)"
                                : "min poll interval " + min.toMillis() + " ms",
                        n,
                        String.format(
                                "%.2f%%, %.1f / %.1f ms",
                                (source.cpuPercent - baselineCpu) / n,
                                source.medianMs,
                                source.p99Ms),
                        String.format(
                                "%.2f%%, %.1f / %.1f ms",
                                (loop.cpuPercent - baselineCpu) / n, loop.medianMs, loop.p99Ms));
                System.out.printf(
                        "    source's CPU per source less the job of N Flink sources that emit"
                                + " nothing: %.2f%%%n",
                        (source.cpuPercent - idleJobCpu.get(n)) / n);
                source.cpuByThreads.remove(ThreadCpu.IDLE);
                System.out.printf(
                        "    source's CPU, %% of one core: %s; worst delays (ms; #, send ms): %s%n",
                        ThreadCpu.format(source.cpuByThreads, source.wallNanos / 100.0),
                        source.worst);
            }
        }
        RequestCosts.RequestCost cost = RequestCosts.describeCost(setup, setup.fill(4, 4, 0, 0));
        System.out.printf(
                "One topic description (SDK getTopic, %d a second from one thread), CPU per"
                        + " request: caller %.0f us, SDK event loops %.0f us, timeouts %.0f us,"
                        + " in-JVM server %.0f us; round trip median %.2f ms%n",
                RequestCosts.RequestCost.PER_SECOND,
                cost.callerMicros,
                cost.sdkMicros,
                cost.timeoutMicros,
                cost.serverMicros,
                cost.roundTripMedianMs);
        System.out.printf(
                "%nOne source over 1,000 quiet inputs (QuietInputsBenchmark, one run):%n");
        QuietInputsBenchmark.run(
                setup, 1, idleSeconds, List.of(QuietInputsBenchmark.Shape.values()));
    }

    private static final class Latency {
        double medianMs;
        double p99Ms;
        double cpuPercent;
        Map<String, Long> cpuByThreads;
        long wallNanos;
        String worst;
    }

    /**
     * One unbounded job with a source per stream, each into the delay sink, all in one slot; one
     * message a second to the first stream, carrying its send time.
     */
    private static Latency idleLatency(
            SourceBenchmarkSetup setup, List<String> streams, Duration pollMinInterval, int seconds)
            throws Exception {
        DelaySink.DELAYS.clear();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        for (String stream : streams) {
            IggySource<byte[]> source =
                    IggySource.<byte[]>builder()
                            .setConnection(setup.connection())
                            .setStream(stream)
                            .setTopic("t")
                            .setStartingOffsets(IggyStartingOffsets.latest())
                            .setPollMinInterval(pollMinInterval)
                            .setDeserializer(IggyRecordDeserializationSchema.payloads())
                            .build();
            env.fromSource(source, WatermarkStrategy.noWatermarks(), "iggy " + stream)
                    .sinkTo(new DelaySink());
        }
        JobGraph job = env.getStreamGraph().getJobGraph();
        setup.flink().submitJob(job).get();
        try {
            return measureIdle(setup.iggy(), streams.get(0), seconds);
        } finally {
            setup.flink().cancelJob(job.getJobID()).get();
            while (!setup.flink().getJobStatus(job.getJobID()).get().isTerminalState()) {
                Thread.sleep(50);
            }
        }
    }

    /**
     * What a job costs without the connector: N of Flink's data generator sources, each allowed one
     * record an hour (so they wait, without spinning, after their first), into a discarding sink,
     * all in one slot; the process's CPU, as % of one core, after the same settling as the rows.
     */
    private static double idleFlinkJobCpu(SourceBenchmarkSetup setup, int n, int seconds)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        for (int i = 0; i < n; i++) {
            env.fromSource(
                            new DataGeneratorSource<>(
                                    index -> index,
                                    Long.MAX_VALUE,
                                    RateLimiterStrategy.perSecond(1.0 / 3600),
                                    Types.LONG),
                            WatermarkStrategy.noWatermarks(),
                            "idle " + i)
                    .sinkTo(new DiscardingSink<>());
        }
        JobGraph job = env.getStreamGraph().getJobGraph();
        setup.flink().submitJob(job).get();
        try {
            cpuPercentOverSeconds(3 + Math.min(WARM_SECONDS, seconds));
            return cpuPercentOverSeconds(seconds);
        } finally {
            setup.flink().cancelJob(job.getJobID()).get();
            while (!setup.flink().getJobStatus(job.getJobID()).get().isTerminalState()) {
                Thread.sleep(50);
            }
        }
    }

    /**
     * One thread and client per stream: poll the partition from the next offset, wait the interval,
     * repeat; each record's delay goes to the delay sink's list.
     */
    private static Latency idleSdkLoops(
            SourceBenchmarkSetup setup, List<String> streams, Duration interval, int seconds)
            throws Exception {
        DelaySink.DELAYS.clear();
        List<AsyncIggyTcpClient> clients = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        AtomicBoolean running = new AtomicBoolean(true);
        try {
            for (String stream : streams) {
                AsyncIggyTcpClient client = IggyClients.connect(setup.connection());
                clients.add(client);
                Thread thread =
                        new Thread(
                                () -> pollEvery(setup, client, stream, interval, running),
                                ThreadCpu.LOOP_THREAD_PREFIX + threads.size());
                threads.add(thread);
                thread.start();
            }
            return measureIdle(setup.iggy(), streams.get(0), seconds);
        } finally {
            running.set(false);
            for (Thread thread : threads) {
                thread.join();
            }
            clients.forEach(IggyClients::closeAndWait);
        }
    }

    private static void pollEvery(
            SourceBenchmarkSetup setup,
            AsyncIggyTcpClient client,
            String stream,
            Duration interval,
            AtomicBoolean running) {
        long next = 0;
        while (running.get()) {
            PolledMessages polled = setup.poll(client, stream, 0, next).join();
            for (Message message : polled.messages()) {
                if (next > 0 || message.header().offset().longValue() > 0) {
                    long sent = ByteBuffer.wrap(message.payload()).getLong();
                    DelaySink.DELAYS.add((System.nanoTime() - sent) / 1e6);
                }
                next = message.header().offset().longValue() + 1;
            }
            LockSupport.parkNanos(interval.toNanos());
        }
    }

    /**
     * Lets the readers start, sends one uncounted message that takes the cold paths, then one a
     * second to {@code stream}'s partition 0: uncounted for {@link #WARM_SECONDS}, while the JIT
     * compilers finish with the fresh job's paths (they would otherwise count as the readers' CPU,
     * which an idle job's steady state does not pay), then for {@code seconds}, measuring the
     * process's CPU and each message's delay.
     */
    private static Latency measureIdle(IggyServerExtension iggy, String stream, int seconds)
            throws Exception {
        long settleUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (System.nanoTime() < settleUntil) {
            Thread.sleep(100);
        }
        iggy.send(stream, "t", 0, List.of(ByteBuffer.allocate(8).putLong(0).array()));
        long warmUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (DelaySink.DELAYS.isEmpty() && System.nanoTime() < warmUntil) {
            Thread.sleep(10);
        }
        sendEverySecond(iggy, stream, Math.min(WARM_SECONDS, seconds), new ArrayList<>());
        Thread.sleep(1000);
        DelaySink.DELAYS.clear();
        // How long each send took: a delay includes the benchmark's own send.
        List<Double> sendMs = new ArrayList<>();
        ThreadCpu threads = ThreadCpu.start();
        sendEverySecond(iggy, stream, seconds, sendMs);
        long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (System.nanoTime() < waitUntil) {
            Thread.sleep(10);
        }
        Latency latency = new Latency();
        latency.cpuByThreads = threads.stop();
        latency.wallNanos = threads.wallNanos();
        latency.cpuPercent = 100.0 * ThreadCpu.processCpu(latency.cpuByThreads) / latency.wallNanos;
        List<Double> arrived = new ArrayList<>(DelaySink.DELAYS);
        if (arrived.size() < seconds) {
            throw new IllegalStateException(
                    "Only " + arrived.size() + " of " + seconds + " messages arrived");
        }
        latency.worst = worst(arrived, sendMs, 3);
        List<Double> delays = new ArrayList<>(arrived);
        Collections.sort(delays);
        latency.medianMs = median(delays);
        latency.p99Ms = delays.get((int) Math.ceil(0.99 * delays.size()) - 1);
        return latency;
    }

    /** One message a second to partition 0, carrying its send time; each send's time to sendMs. */
    private static void sendEverySecond(
            IggyServerExtension iggy, String stream, int seconds, List<Double> sendMs)
            throws InterruptedException {
        everySecond(
                seconds,
                () -> {
                    byte[] payload = ByteBuffer.allocate(8).putLong(System.nanoTime()).array();
                    long sendStart = System.nanoTime();
                    iggy.send(stream, "t", 0, List.of(payload));
                    sendMs.add((System.nanoTime() - sendStart) / 1e6);
                });
    }

    /** Runs {@code send} {@code seconds} times, once a second, the first time at once. */
    static void everySecond(int seconds, Runnable send) throws InterruptedException {
        long start = System.nanoTime();
        for (int i = 0; i < seconds; i++) {
            long due = start + TimeUnit.SECONDS.toNanos(i);
            while (System.nanoTime() < due) {
                Thread.sleep(Math.max(1, (due - System.nanoTime()) / 1_000_000));
            }
            send.run();
        }
    }

    /**
     * The {@code n} largest delays with their message's number and how long its send took, largest
     * first.
     */
    private static String worst(List<Double> delays, List<Double> sendMs, int n) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < delays.size(); i++) {
            order.add(i);
        }
        order.sort((a, b) -> Double.compare(delays.get(b), delays.get(a)));
        StringBuilder text = new StringBuilder();
        for (int i : order.subList(0, Math.min(n, order.size()))) {
            text.append(
                    String.format(
                            "%s%.1f (#%d, send %.1f)",
                            text.length() > 0 ? ", " : "",
                            delays.get(i),
                            i,
                            i < sendMs.size() ? sendMs.get(i) : Double.NaN));
        }
        return text.toString();
    }

    static double cpuPercentOverSeconds(int seconds) throws InterruptedException {
        long cpuStart = ThreadCpu.processCpuNanos();
        long wallStart = System.nanoTime();
        long until = wallStart + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < until) {
            Thread.sleep(100);
        }
        return 100.0 * (ThreadCpu.processCpuNanos() - cpuStart) / (System.nanoTime() - wallStart);
    }

    /** Notes each record's delay since the send time it carries (same JVM, same clock). */
    static final class DelaySink implements FlinkSink<byte[]> {
        static final List<Double> DELAYS = new CopyOnWriteArrayList<>();

        @Override
        public SinkWriter<byte[]> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(byte[] element, Context context) {
                    long sent = ByteBuffer.wrap(element).getLong();
                    DELAYS.add((System.nanoTime() - sent) / 1e6);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}

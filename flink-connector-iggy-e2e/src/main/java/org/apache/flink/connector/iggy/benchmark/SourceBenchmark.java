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
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.message.PollingStrategy;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

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
 *   <li>300,000 x 1 KiB in 4 partitions, steady, p=1 and p=2, as a ratio to the SDK loop.
 *   <li>300,000 x 100 B in 10 of 1000 partitions, steady, as a ratio to the same in 4 partitions.
 *   <li>1 message/s into an idle 4-partition topic (after one uncounted message that takes the cold
 *       paths): delay from send to the sink (median, p99) and the process's CPU (in-JVM server and
 *       MiniCluster included) as % of one core, next to the same JVM's CPU with no job running;
 *       then where the job's CPU went (the source's fetcher and task threads, the SDK's event
 *       loops, request timeouts, the in-JVM server, the rest), the worst delays, and what one topic
 *       description costs on its own.
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
 */
public final class SourceBenchmark {

    /** Messages per poll request of the SDK loop, and the count fixed for the source. */
    private static int batch = 1000;

    /** Whether the source's polls are sized by the message size (its default) instead. */
    private static boolean sourceSizesItsPolls;

    // The throughput figures' names on the "Raw" line.
    private static final String SDK_SMALL = "SDK 100 B";
    private static final String SUBMIT_TO_LAST = "submit->last";
    private static final String STEADY_SMALL = "steady";
    private static final String FIRST_MS = "first ms";
    private static final String FLINK_FIRST_MS = "Flink's source first ms";
    private static final String END_MS = "last to end ms";
    private static final String FLINK_END_MS = "Flink's source last to end ms";
    private static final String SDK_KIB = "SDK 1 KiB";
    private static final String KIB_P1 = "1 KiB p=1";
    private static final String KIB_COPYING = "object reuse off";
    private static final String KIB_P2 = "p=2";
    private static final String WIDE = "1000p";
    private static final String NARROW = "4p";
    private static final String SDK_SMALL_ONE_CLIENT = "SDK one client 100 B";
    private static final String SDK_KIB_ONE_CLIENT = "SDK one client 1 KiB";

    /**
     * Quiet time on the cluster before a job whose deployment is timed, longer than Flink's
     * resource manager waits before it matches slot requests (slotmanager.requirement-check.delay,
     * 50 ms by default), as the 100 B IggySource job has behind it (the SDK loop's run).
     */
    private static final long PAUSE_BEFORE_DEPLOYMENT_MS = 500;

    /** How long the JIT compilers must have been idle before a measurement starts (see settle). */
    private static final long SETTLE_QUIET_MS = 200;

    /** The longest wait for that. */
    private static final long SETTLE_MAX_MS = 3_000;

    /** Messages per send request while filling the topic. */
    private static final int SEND_BATCH = 1000;

    private static MiniCluster flink;

    private SourceBenchmark() {}

    public static void main(String[] args) throws Exception {
        int repetitions = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int idleSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        int scale = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        int warmUps = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        int batchArgument = args.length > 4 ? Integer.parseInt(args[4]) : batch;
        sourceSizesItsPolls = batchArgument == 0;
        batch = sourceSizesItsPolls ? batch : batchArgument;

        IggyServerExtension iggy = new IggyServerExtension();
        iggy.start();
        // One cluster for every job, started before the clocks run: "submission" is a job's
        // submission to a running cluster, as in production.
        flink = BenchmarkCluster.start();
        IggyConnectionConfig connection =
                IggyConnectionConfig.builder()
                        .setAddress(iggy.address())
                        .setCredentials(iggy.username(), iggy.password())
                        .build();
        System.out.printf(
                "Iggy source benchmark: %s, %d cores, median of %d interleaved repetitions"
                        + " after %d uncounted warm-up repetitions, %d messages per poll%s%n",
                iggy.isExternal() ? "server " + iggy.address() : "in-JVM server",
                Runtime.getRuntime().availableProcessors(),
                repetitions,
                warmUps,
                batch,
                sourceSizesItsPolls ? " (the SDK loop; the source sizes its own)" : "");
        try {
            if (repetitions > 0) {
                throughput(connection, iggy, repetitions, scale, warmUps);
            }
            if (idleSeconds > 0) {
                idleRows(connection, iggy, idleSeconds);
            }
        } finally {
            flink.close();
            iggy.stop();
        }
        System.exit(0);
    }

    /** The idle-topic rows, where the CPU went, and what one topic description costs. */
    private static void idleRows(
            IggyConnectionConfig connection, IggyServerExtension iggy, int idleSeconds)
            throws Exception {
        String idle = fill(iggy, 4, 4, 0, 0);
        double baselineCpu = cpuPercentOverSeconds(Math.min(10, idleSeconds));
        Latency latency = idleLatency(connection, iggy, idle, idleSeconds);
        System.out.printf(
                "%-58s %14s %14s %8s %8s%n",
                "1 msg/s, idle 4-partition topic: delay median / p99 (ms)",
                "",
                String.format("%.1f / %.1f", latency.medianMs, latency.p99Ms),
                "",
                "5 / 20");
        System.out.printf(
                "%-58s %14s %14s %8s %8s%n",
                "same: process CPU, % of one core (no job / job)",
                "",
                String.format("%.1f / %.1f", baselineCpu, latency.cpuPercent),
                "",
                "<= 5");
        latency.cpuByThreads.remove(ThreadCpu.IDLE);
        System.out.printf(
                "%nWhere the CPU went with the job, %% of one core: %s%n"
                        + "Worst delays (ms; the message's number, its send's ms): %s%n",
                ThreadCpu.format(latency.cpuByThreads, latency.wallNanos / 100.0), latency.worst);
        RequestCost cost = describeCost(connection, idle);
        System.out.printf(
                "One topic description (SDK getTopic, %d a second from one thread), CPU per"
                        + " request: caller %.0f us, SDK event loops %.0f us, timeouts %.0f us,"
                        + " in-JVM server %.0f us; round trip median %.2f ms%n",
                RequestCost.PER_SECOND,
                cost.callerMicros,
                cost.sdkMicros,
                cost.timeoutMicros,
                cost.serverMicros,
                cost.roundTripMedianMs);
    }

    /**
     * Every throughput row, each the median of {@code repetitions} interleaved runs after {@code
     * warmUps} uncounted ones; {@code scale} multiplies the numbers of records.
     */
    private static void throughput(
            IggyConnectionConfig connection,
            IggyServerExtension iggy,
            int repetitions,
            int scale,
            int warmUps)
            throws Exception {
        String small = fill(iggy, 4, 4, scale * 250_000, 100);
        String kib = fill(iggy, 4, 4, scale * 75_000, 1024);
        String wide = fill(iggy, 1000, 10, scale * 30_000, 100);
        String narrow = fill(iggy, 4, 4, scale * 75_000, 100);

        // Each figure's value per counted repetition, in the order the "Raw" line prints them.
        Map<String, List<Double>> raw = new LinkedHashMap<>();
        Run sdkSmallRun = null;
        Run sourceSmallRun = null;
        Run sdkKibRun = null;
        Run sourceKibRun = null;
        // The counted repetition whose 100 B steady ratio was lowest, for its split by thread.
        Run slowestSdkSmall = null;
        Run slowestSourceSmall = null;
        // The first repetition's rates were 2-8x below the others'. Later ones still vary while
        // the JIT recompiles the paths that jobs of other shapes made it give up (docs/testing.md).
        for (int r = 0; r < warmUps + repetitions; r++) {
            sdkSmallRun = sdkLoop(connection, small, 4, scale * 250_000);
            sourceSmallRun = flinkJob(connection, small, 1, scale * 1_000_000L, true);
            sdkKibRun = sdkLoop(connection, kib, 4, scale * 75_000);
            Run smallOneClient = sdkLoop(connection, small, 4, scale * 250_000, 1);
            Run kibOneClient = sdkLoop(connection, kib, 4, scale * 75_000, 1);
            sourceKibRun = flinkJob(connection, kib, 1, scale * 300_000L, true);
            Run kibCopying = flinkJob(connection, kib, 1, scale * 300_000L, false);
            Run kibTwo = flinkJob(connection, kib, 2, scale * 300_000L, true);
            Run wideRun = flinkJob(connection, wide, 1, scale * 300_000L, true);
            Run narrowRun = flinkJob(connection, narrow, 1, scale * 300_000L, true);
            if (r >= warmUps) {
                if (slowestSourceSmall == null
                        || sourceSmallRun.steadyRate / sdkSmallRun.steadyRate
                                < slowestSourceSmall.steadyRate / slowestSdkSmall.steadyRate) {
                    slowestSdkSmall = sdkSmallRun;
                    slowestSourceSmall = sourceSmallRun;
                }
                add(raw, SDK_SMALL, sdkSmallRun.steadyRate);
                add(raw, SUBMIT_TO_LAST, sourceSmallRun.submitToLastRate);
                add(raw, STEADY_SMALL, sourceSmallRun.steadyRate);
                add(raw, FIRST_MS, sourceSmallRun.firstRecordDelayNanos / 1e6);
                add(raw, END_MS, sourceSmallRun.lastRecordToEndNanos / 1e6);
                add(raw, SDK_KIB, sdkKibRun.steadyRate);
                add(raw, KIB_P1, sourceKibRun.steadyRate);
                add(raw, KIB_COPYING, kibCopying.steadyRate);
                add(raw, KIB_P2, kibTwo.steadyRate);
                add(raw, WIDE, wideRun.steadyRate);
                add(raw, NARROW, narrowRun.steadyRate);
                add(raw, SDK_SMALL_ONE_CLIENT, smallOneClient.steadyRate);
                add(raw, SDK_KIB_ONE_CLIENT, kibOneClient.steadyRate);
            }
        }
        // After the throughput rows, not among them: a job with another source sends another
        // reader through Flink's SourceOperator, and the JIT compilers would throw that code away
        // and compile it again while the next IggySource job reads (docs/testing.md).
        for (int r = 0; r < repetitions; r++) {
            // The 100 B IggySource job follows an SDK loop; without such a pause this job would
            // share the slot matching that the previous job's end set off (docs/testing.md).
            Thread.sleep(PAUSE_BEFORE_DEPLOYMENT_MS);
            Run flinkSource = oneRecordFromAFlinkSource();
            add(raw, FLINK_FIRST_MS, flinkSource.firstRecordDelayNanos / 1e6);
            add(raw, FLINK_END_MS, flinkSource.lastRecordToEndNanos / 1e6);
        }
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
        FreshClientCost fresh = freshClientCost(connection, small);
        System.out.printf(
                "A fresh client, median of %d: connect and log in %.1f ms, describe the topic %.1f"
                        + " ms, again %.1f ms, poll %d messages %.1f ms%n",
                FreshClientCost.CLIENTS,
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
                sdkSmallRun.cpuPerRecord(),
                sourceSmallRun.cpuPerRecord(),
                sdkKibRun.cpuPerRecord(),
                sourceKibRun.cpuPerRecord());
        // The median hides the slow repetitions; this shows where their time went.
        System.out.printf(
                "  the counted repetition with the lowest 100 B steady ratio (%.2f): SDK loop: %s;"
                        + " IggySource p=1: %s%n",
                slowestSourceSmall.steadyRate / slowestSdkSmall.steadyRate,
                slowestSdkSmall.cpuPerRecord(),
                slowestSourceSmall.cpuPerRecord());
        // A slow start (connections, compilation) shows in the first eighth, a hiccup in one.
        System.out.printf(
                "%nms per eighth of the records, first to last (last repetition): 100 B,"
                        + " IggySource p=1: %s; 1 KiB, IggySource p=1: %s%n",
                sourceSmallRun.eighths(), sourceKibRun.eighths());
    }

    private static void add(Map<String, List<Double>> raw, String figure, double value) {
        raw.computeIfAbsent(figure, ignored -> new ArrayList<>()).add(value);
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

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** A new stream with topic "t": {@code filled} of its partitions get the messages. */
    private static String fill(
            IggyServerExtension iggy,
            int partitions,
            int filled,
            int perPartition,
            int payloadSize) {
        String stream = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        iggy.createStream(stream);
        iggy.createTopic(stream, "t", partitions);
        byte[] payload = new byte[payloadSize];
        Arrays.fill(payload, (byte) 'x');
        for (int i = 0; i < filled; i++) {
            long p = (long) i * partitions / filled;
            for (int sent = 0; sent < perPartition; sent += SEND_BATCH) {
                int size = Math.min(SEND_BATCH, perPartition - sent);
                iggy.send(stream, "t", p, Collections.nCopies(size, payload));
            }
        }
        return stream;
    }

    /**
     * One thread per partition, each polling with its own client: poll, wait, repeat. Clients
     * connect before the clock starts.
     */
    private static Run sdkLoop(
            IggyConnectionConfig connection, String stream, int partitions, int perPartition)
            throws Exception {
        return sdkLoop(connection, stream, partitions, perPartition, partitions);
    }

    /** {@link #batch} messages of topic "t" from {@code offset}, as the SDK loop asks for them. */
    private static CompletableFuture<PolledMessages> poll(
            AsyncIggyTcpClient client, String stream, long partition, long offset) {
        return client.messages()
                .pollMessages(
                        StreamId.of(stream),
                        TopicId.of("t"),
                        Optional.of(partition),
                        Consumer.of(1L),
                        PollingStrategy.offset(BigInteger.valueOf(offset)),
                        (long) batch,
                        false);
    }

    /** The SDK loop with the partitions' threads sharing {@code clientCount} clients. */
    private static Run sdkLoop(
            IggyConnectionConfig connection,
            String stream,
            int partitions,
            int perPartition,
            int clientCount)
            throws Exception {
        settle();
        AtomicLong threadNumber = new AtomicLong();
        ExecutorService threads =
                Executors.newFixedThreadPool(
                        partitions,
                        task ->
                                new Thread(
                                        task,
                                        ThreadCpu.LOOP_THREAD_PREFIX
                                                + threadNumber.incrementAndGet()));
        List<AsyncIggyTcpClient> clients = new ArrayList<>();
        try {
            for (int c = 0; c < clientCount; c++) {
                clients.add(IggyClients.connect(connection));
            }
            ThreadCpu cpu = ThreadCpu.start();
            long start = System.nanoTime();
            List<Future<Long>> results = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                long partition = p;
                AsyncIggyTcpClient client = clients.get(p % clientCount);
                results.add(
                        threads.submit(
                                () -> {
                                    long offset = 0;
                                    long bytes = 0;
                                    while (offset < perPartition) {
                                        PolledMessages polled =
                                                poll(client, stream, partition, offset).join();
                                        for (Message m : polled.messages()) {
                                            bytes += m.payload().length;
                                        }
                                        offset += polled.messages().size();
                                    }
                                    return bytes;
                                }));
            }
            for (Future<Long> result : results) {
                result.get();
            }
            Run run = new Run();
            run.records = (long) partitions * perPartition;
            run.steadyRate = run.records / ((System.nanoTime() - start) / 1e9);
            run.cpu = cpu.stop();
            return run;
        } finally {
            threads.shutdownNow();
            clients.forEach(IggyClients::closeAndWait);
        }
    }

    /** One run of the SDK loop or of a job. */
    private static final class Run {
        long records;
        double steadyRate;
        double submitToLastRate;
        long firstRecordDelayNanos;

        /** From the last record to the job's end: the tasks' close and Flink ending the job. */
        long lastRecordToEndNanos;

        Map<String, Long> cpu;

        /** The sink's clock readings at each eighth of the records (parallelism 1 only). */
        long[] eighthMarks;

        String cpuPerRecord() {
            return ThreadCpu.format(cpu, records);
        }

        String eighths() {
            StringBuilder text = new StringBuilder();
            for (int i = 1; i < eighthMarks.length; i++) {
                text.append(i > 1 ? " " : "")
                        .append(String.format("%.1f", (eighthMarks[i] - eighthMarks[i - 1]) / 1e6));
            }
            return text.toString();
        }
    }

    private static IggySource<byte[]> source(
            IggyConnectionConfig connection, String stream, boolean bounded) {
        IggySourceBuilder<byte[]> builder =
                IggySource.<byte[]>builder()
                        .setConnection(connection)
                        .setStream(stream)
                        .setTopic("t")
                        .setConsumerName("bench-" + UUID.randomUUID())
                        .setStartingOffsets(
                                bounded
                                        ? IggyStartingOffsets.earliest()
                                        : IggyStartingOffsets.latest())
                        .setDeserializer(IggyRecordDeserializationSchema.payloads());
        if (bounded) {
            builder.setBounded(IggyStoppingOffsets.latest());
        }
        if (!sourceSizesItsPolls) {
            builder.setBatchSize(batch);
        }
        return builder.build();
    }

    /**
     * A bounded job reading the whole topic at parallelism p into a counting sink. With object
     * reuse off, Flink copies every record between the chained source and sink (a payload copy).
     */
    private static Run flinkJob(
            IggyConnectionConfig connection,
            String stream,
            int parallelism,
            long total,
            boolean objectReuse)
            throws Exception {
        settle();
        CountingSink.reset();
        CountingSink.markEvery = parallelism == 1 ? total / 8 : Long.MAX_VALUE;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        if (objectReuse) {
            env.getConfig().enableObjectReuse();
        }
        env.fromSource(source(connection, stream, true), WatermarkStrategy.noWatermarks(), "iggy")
                .sinkTo(new CountingSink());
        JobGraph job = env.getStreamGraph().getJobGraph();
        ThreadCpu cpu = ThreadCpu.start();
        Run figures = runToEnd(job, total);
        cpu.stop();
        // The steady stretch: deploying and ending a job are not a record's cost.
        figures.cpu = cpu.between(CountingSink.FIRST.get(), CountingSink.LAST.get());
        figures.steadyRate = total / ((CountingSink.LAST.get() - CountingSink.FIRST.get()) / 1e9);
        figures.eighthMarks = CountingSink.marks.clone();
        return figures;
    }

    /**
     * Waits, at most {@link #SETTLE_MAX_MS}, until the JIT compilers have not worked for {@link
     * #SETTLE_QUIET_MS}. A job's end leaves them code to compile (Flink's, Pekko's and Netty's
     * paths for ending a job), and a measurement that starts at once pays for the one before. Until
     * the clients' close stopped taking 2 s, that close gave them the time (docs/testing.md).
     */
    private static void settle() throws InterruptedException {
        long start = System.nanoTime();
        long quietSince = start;
        long compiled = ThreadCpu.jitCpuNanos();
        while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(SETTLE_MAX_MS)) {
            Thread.sleep(20);
            long now = ThreadCpu.jitCpuNanos();
            if (now != compiled) {
                compiled = now;
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince
                    >= TimeUnit.MILLISECONDS.toNanos(SETTLE_QUIET_MS)) {
                return;
            }
        }
    }

    /**
     * A job whose source is Flink's own (one record from memory): its submission to first record
     * and last record to end are what deploying and ending a job cost on this cluster, whatever the
     * source.
     */
    private static Run oneRecordFromAFlinkSource() throws Exception {
        CountingSink.reset();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromData(new byte[] {1}).sinkTo(new CountingSink());
        return runToEnd(env.getStreamGraph().getJobGraph(), 1);
    }

    /**
     * Runs a job that sends {@code total} records to the {@link CountingSink} until it ends; the
     * figures of its start and end.
     */
    private static Run runToEnd(JobGraph job, long total) throws Exception {
        long submitted = System.nanoTime();
        flink.submitJob(job).get();
        JobResult result = flink.requestJobResult(job.getJobID()).get();
        long ended = System.nanoTime();
        if (!result.isSuccess()) {
            throw new IllegalStateException(
                    "The benchmark job failed", result.getSerializedThrowable().orElse(null));
        }
        if (CountingSink.COUNT.get() != total) {
            throw new IllegalStateException(
                    "The job's sink counted "
                            + CountingSink.COUNT.get()
                            + " records, expected "
                            + total);
        }
        Run figures = new Run();
        figures.records = total;
        figures.submitToLastRate = total / ((CountingSink.LAST.get() - submitted) / 1e9);
        figures.firstRecordDelayNanos = CountingSink.FIRST.get() - submitted;
        figures.lastRecordToEndNanos = ended - CountingSink.LAST.get();
        return figures;
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
     * An unbounded job on an idle topic; one message a second (round robin over the partitions)
     * carrying its send time; the sink notes the delay.
     */
    private static Latency idleLatency(
            IggyConnectionConfig connection, IggyServerExtension iggy, String stream, int seconds)
            throws Exception {
        DelaySink.DELAYS.clear();
        // How long each send took: a delay includes the benchmark's own send.
        List<Double> sendMs = new ArrayList<>();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromSource(source(connection, stream, false), WatermarkStrategy.noWatermarks(), "iggy")
                .sinkTo(new DelaySink());
        JobGraph job = env.getStreamGraph().getJobGraph();
        flink.submitJob(job).get();
        try {
            // Let the job start and settle before measuring.
            long settleUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < settleUntil) {
                Thread.sleep(100);
            }
            // One message, not counted, takes the cold paths (its send alone once took 9 ms) so
            // that the figures are those of a running job; the measured ones follow a second on.
            iggy.send(stream, "t", 0, List.of(ByteBuffer.allocate(8).putLong(0).array()));
            long warmUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (DelaySink.DELAYS.isEmpty()) {
                if (System.nanoTime() > warmUntil) {
                    throw new IllegalStateException("The warm-up message did not arrive in 30 s");
                }
                Thread.sleep(10);
            }
            DelaySink.DELAYS.clear();
            Thread.sleep(1000);
            ThreadCpu threads = ThreadCpu.start();
            long cpuStart = ThreadCpu.processCpuNanos();
            long wallStart = System.nanoTime();
            for (int i = 0; i < seconds; i++) {
                long due = wallStart + TimeUnit.SECONDS.toNanos(i);
                while (System.nanoTime() < due) {
                    Thread.sleep(Math.max(1, (due - System.nanoTime()) / 1_000_000));
                }
                byte[] payload = ByteBuffer.allocate(8).putLong(System.nanoTime()).array();
                long sendStart = System.nanoTime();
                iggy.send(stream, "t", i % 4, List.of(payload));
                sendMs.add((System.nanoTime() - sendStart) / 1e6);
            }
            long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (System.nanoTime() < waitUntil) {
                Thread.sleep(10);
            }
            Latency latency = new Latency();
            latency.cpuPercent =
                    100.0
                            * (ThreadCpu.processCpuNanos() - cpuStart)
                            / (System.nanoTime() - wallStart);
            latency.cpuByThreads = threads.stop();
            latency.wallNanos = threads.wallNanos();
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
        } finally {
            flink.cancelJob(job.getJobID()).get();
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

    /** Medians, in ms, of a fresh client's start and first requests, as a reader makes them. */
    private static final class FreshClientCost {
        static final int CLIENTS = 20;
        double connectMs;
        double firstDescriptionMs;
        double secondDescriptionMs;
        double pollMs;
    }

    /**
     * A reader connects when its first splits arrive, so its client's start and first requests are
     * part of every job's time to the first record: connect and log in, describe the topic,
     * describe it again, poll {@link #batch} messages; {@link FreshClientCost#CLIENTS} fresh
     * clients one after the other.
     */
    private static FreshClientCost freshClientCost(IggyConnectionConfig connection, String stream)
            throws Exception {
        List<Double> connect = new ArrayList<>();
        List<Double> firstDescription = new ArrayList<>();
        List<Double> secondDescription = new ArrayList<>();
        List<Double> poll = new ArrayList<>();
        for (int i = 0; i < FreshClientCost.CLIENTS; i++) {
            long start = System.nanoTime();
            AsyncIggyTcpClient client = IggyClients.connect(connection);
            try {
                long connected = System.nanoTime();
                client.topics().getTopic(StreamId.of(stream), TopicId.of("t")).join();
                long described = System.nanoTime();
                client.topics().getTopic(StreamId.of(stream), TopicId.of("t")).join();
                long describedAgain = System.nanoTime();
                poll(client, stream, 0, 0).join();
                long polled = System.nanoTime();
                connect.add((connected - start) / 1e6);
                firstDescription.add((described - connected) / 1e6);
                secondDescription.add((describedAgain - described) / 1e6);
                poll.add((polled - describedAgain) / 1e6);
            } finally {
                IggyClients.closeAndWait(client);
            }
        }
        FreshClientCost cost = new FreshClientCost();
        cost.connectMs = median(connect);
        cost.firstDescriptionMs = median(firstDescription);
        cost.secondDescriptionMs = median(secondDescription);
        cost.pollMs = median(poll);
        return cost;
    }

    private static final class RequestCost {
        static final int PER_SECOND = 200;
        static final int SECONDS = 5;
        double callerMicros;
        double sdkMicros;
        double timeoutMicros;
        double serverMicros;
        double roundTripMedianMs;
    }

    /**
     * What one topic description costs, as the source asks for it: {@link RequestCost#PER_SECOND} a
     * second from one thread with a request timeout, each awaited, on a client of its own, so that
     * its event loops and its server connection are threads of their own.
     */
    private static RequestCost describeCost(IggyConnectionConfig connection, String stream)
            throws Exception {
        AsyncIggyTcpClient client = IggyClients.connect(connection);
        try {
            List<Double> roundTrips = new ArrayList<>();
            long period = TimeUnit.SECONDS.toNanos(1) / RequestCost.PER_SECOND;
            int requests = RequestCost.PER_SECOND * RequestCost.SECONDS;
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            ThreadCpu cpu = ThreadCpu.start();
            long callerStart = threads.getCurrentThreadCpuTime();
            long next = System.nanoTime();
            for (int i = 0; i < requests; i++) {
                next += period;
                long sent = System.nanoTime();
                client.topics()
                        .getTopic(StreamId.of(stream), TopicId.of("t"))
                        .orTimeout(connection.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
                        .join();
                roundTrips.add((System.nanoTime() - sent) / 1e6);
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
            long callerNanos = threads.getCurrentThreadCpuTime() - callerStart;
            Map<String, Long> used = cpu.stop();
            double perRequest = 1e3 * requests;
            RequestCost cost = new RequestCost();
            cost.callerMicros = callerNanos / perRequest;
            cost.sdkMicros = used.get(ThreadCpu.SDK) / perRequest;
            cost.timeoutMicros = used.get(ThreadCpu.TIMEOUTS) / perRequest;
            cost.serverMicros = used.get(ThreadCpu.SERVER) / perRequest;
            cost.roundTripMedianMs = median(roundTrips);
            return cost;
        } finally {
            IggyClients.closeAndWait(client);
        }
    }

    private static double cpuPercentOverSeconds(int seconds) throws InterruptedException {
        long cpuStart = ThreadCpu.processCpuNanos();
        long wallStart = System.nanoTime();
        long until = wallStart + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < until) {
            Thread.sleep(100);
        }
        return 100.0 * (ThreadCpu.processCpuNanos() - cpuStart) / (System.nanoTime() - wallStart);
    }

    /** Notes each record's delay since the send time it carries (same JVM, same clock). */
    private static final class DelaySink implements Sink<byte[]> {
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

    /** Counts records and notes when the first and last arrived; nothing per record is shared. */
    private static final class CountingSink implements Sink<byte[]> {
        static final AtomicLong COUNT = new AtomicLong();
        static final AtomicLong FIRST = new AtomicLong(Long.MAX_VALUE);
        static final AtomicLong LAST = new AtomicLong(Long.MIN_VALUE);

        /** Records between two of {@link #marks}; set before a job at parallelism 1. */
        static volatile long markEvery = Long.MAX_VALUE;

        /** The clock at the first record, at each {@link #markEvery}-th after it, and the last. */
        static volatile long[] marks = new long[0];

        static void reset() {
            COUNT.set(0);
            FIRST.set(Long.MAX_VALUE);
            LAST.set(Long.MIN_VALUE);
            markEvery = Long.MAX_VALUE;
            marks = new long[0];
        }

        @Override
        public SinkWriter<byte[]> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                final long every = markEvery;
                final List<Long> marked = new ArrayList<>();
                long count;
                long first;
                long last;
                long bytes;

                @Override
                public void write(byte[] element, Context context) {
                    // Reading the clock costs about as much as the source's own work on a
                    // record: read it for the first record and every 256th after that. The last
                    // record's time is then at most 255 records early (under 0.3 ms here).
                    if ((count++ & 255) == 0) {
                        last = System.nanoTime();
                        if (count == 1) {
                            first = last;
                        }
                        if (count - 1 >= marked.size() * every) {
                            marked.add(last);
                        }
                    }
                    bytes += element.length;
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {
                    if (count > 0) {
                        COUNT.addAndGet(count);
                        FIRST.accumulateAndGet(first, Math::min);
                        LAST.accumulateAndGet(last, Math::max);
                        if (every != Long.MAX_VALUE) {
                            marked.add(last);
                            marks = marked.stream().mapToLong(Long::longValue).toArray();
                        }
                    }
                }
            };
        }
    }
}

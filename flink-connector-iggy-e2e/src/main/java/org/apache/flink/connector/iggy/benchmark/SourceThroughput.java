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
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.iggy.common.shim.FlinkSink;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.END_MS;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.FIRST_MS;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.FLINK_END_MS;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.FLINK_FIRST_MS;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.KIB_COPYING;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.KIB_P1;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.KIB_P2;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.NARROW;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.SDK_KIB;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.SDK_KIB_ONE_CLIENT;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.SDK_SMALL;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.SDK_SMALL_ONE_CLIENT;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.SMALL_P2;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.STEADY_SMALL;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.SUBMIT_TO_LAST;
import static org.apache.flink.connector.iggy.benchmark.ThroughputReport.WIDE;

/**
 * The throughput rows of {@link SourceBenchmark}: bounded {@link IggySource} jobs and {@link
 * SdkPollLoop} runs over the same topics, interleaved, their figures handed to a {@link
 * ThroughputReport}. Runs on the benchmark's main thread; the {@link CountingSink}'s totals are
 * written by the sink's writers when they close and read after the job ended.
 */
final class SourceThroughput {

    /**
     * Quiet time on the cluster before a job whose deployment is timed, longer than Flink's
     * resource manager waits before it matches slot requests (slotmanager.requirement-check.delay,
     * 50 ms by default), as the 100 B IggySource job has behind it (the SDK loop's run).
     */
    private static final long PAUSE_BEFORE_DEPLOYMENT_MS = 500;

    private SourceThroughput() {}

    /**
     * Every throughput row, each the median of {@code repetitions} interleaved runs after {@code
     * warmUps} uncounted ones; {@code scale} multiplies the numbers of records.
     */
    static void run(SourceBenchmarkSetup setup, int repetitions, int scale, int warmUps)
            throws Exception {
        String small = setup.fill(4, 4, scale * 250_000, 100);
        String kib = setup.fill(4, 4, scale * 75_000, 1024);
        String wide = wideTopic(setup, scale);
        String narrow = narrowTopic(setup, scale);

        ThroughputReport report = new ThroughputReport();
        ThroughputReport.Repetition last = null;
        // The counted repetition whose 100 B steady ratio was lowest, for its split by thread.
        ThroughputReport.Repetition slowest = null;
        // The first repetition's rates were 2-8x below the others'. Later ones still vary while
        // the JIT recompiles the paths that jobs of other shapes made it give up (docs/testing.md).
        for (int r = 0; r < warmUps + repetitions; r++) {
            ThroughputRun sdkSmallRun = SdkPollLoop.run(setup, small, 4, scale * 250_000);
            ThroughputRun sourceSmallRun = flinkJob(setup, small, 1, scale * 1_000_000L, true);
            ThroughputRun sdkKibRun = SdkPollLoop.run(setup, kib, 4, scale * 75_000);
            ThroughputRun smallOneClient = SdkPollLoop.run(setup, small, 4, scale * 250_000, 1);
            ThroughputRun kibOneClient = SdkPollLoop.run(setup, kib, 4, scale * 75_000, 1);
            ThroughputRun sourceKibRun = flinkJob(setup, kib, 1, scale * 300_000L, true);
            ThroughputRun kibCopying = flinkJob(setup, kib, 1, scale * 300_000L, false);
            ThroughputRun kibTwo = flinkJob(setup, kib, 2, scale * 300_000L, true);
            ThroughputRun smallTwo = flinkJob(setup, small, 2, scale * 1_000_000L, true);
            ThroughputRun wideRun = readWideOrNarrow(setup, wide, scale);
            ThroughputRun narrowRun = readWideOrNarrow(setup, narrow, scale);
            last =
                    new ThroughputReport.Repetition(
                            sdkSmallRun, sourceSmallRun, sdkKibRun, sourceKibRun);
            if (r >= warmUps) {
                if (slowest == null || last.smallSteadyRatio() < slowest.smallSteadyRatio()) {
                    slowest = last;
                }
                report.add(SDK_SMALL, sdkSmallRun.steadyRate);
                report.add(SUBMIT_TO_LAST, sourceSmallRun.submitToLastRate);
                report.add(STEADY_SMALL, sourceSmallRun.steadyRate);
                report.add(FIRST_MS, sourceSmallRun.firstRecordDelayNanos / 1e6);
                report.add(END_MS, sourceSmallRun.lastRecordToEndNanos / 1e6);
                report.add(SDK_KIB, sdkKibRun.steadyRate);
                report.add(KIB_P1, sourceKibRun.steadyRate);
                report.add(KIB_COPYING, kibCopying.steadyRate);
                report.add(KIB_P2, kibTwo.steadyRate);
                report.add(SMALL_P2, smallTwo.steadyRate);
                report.add(WIDE, wideRun.steadyRate);
                report.add(NARROW, narrowRun.steadyRate);
                report.add(SDK_SMALL_ONE_CLIENT, smallOneClient.steadyRate);
                report.add(SDK_KIB_ONE_CLIENT, kibOneClient.steadyRate);
            }
        }
        // After the throughput rows, not among them: a job with another source sends another
        // reader through Flink's SourceOperator, and the JIT compilers would throw that code away
        // and compile it again while the next IggySource job reads (docs/testing.md).
        for (int r = 0; r < repetitions; r++) {
            // The 100 B IggySource job follows an SDK loop; without such a pause this job would
            // share the slot matching that the previous job's end set off (docs/testing.md).
            Thread.sleep(PAUSE_BEFORE_DEPLOYMENT_MS);
            ThroughputRun flinkSource = oneRecordFromAFlinkSource(setup);
            report.add(FLINK_FIRST_MS, flinkSource.firstRecordDelayNanos / 1e6);
            report.add(FLINK_END_MS, flinkSource.lastRecordToEndNanos / 1e6);
        }
        report.print(
                scale, RequestCosts.freshClientCost(setup, small), setup.batch(), last, slowest);
    }

    /** 300,000 x 100 B ({@code scale} times that) in 10 of the 1000 partitions of a new topic. */
    static String wideTopic(SourceBenchmarkSetup setup, int scale) {
        return setup.fill(1000, 10, scale * 30_000, 100);
    }

    /** The same records in a new topic of 4 partitions. */
    static String narrowTopic(SourceBenchmarkSetup setup, int scale) {
        return setup.fill(4, 4, scale * 75_000, 100);
    }

    /** A bounded job at parallelism 1 reading a {@link #wideTopic} or a {@link #narrowTopic}. */
    static ThroughputRun readWideOrNarrow(SourceBenchmarkSetup setup, String stream, int scale)
            throws Exception {
        return flinkJob(setup, stream, 1, scale * 300_000L, true);
    }

    private static IggySource<byte[]> source(
            SourceBenchmarkSetup setup, String stream, boolean bounded, String... topics) {
        IggySourceBuilder<byte[]> builder =
                IggySource.<byte[]>builder()
                        .setConnection(setup.connection())
                        .setStream(stream)
                        .setTopics(topics.length == 0 ? new String[] {"t"} : topics)
                        .setConsumerName("bench-" + UUID.randomUUID())
                        .setStartingOffsets(
                                bounded
                                        ? IggyStartingOffsets.earliest()
                                        : IggyStartingOffsets.latest())
                        .setDeserializer(IggyRecordDeserializationSchema.payloads());
        if (bounded) {
            builder.setBounded(IggyStoppingOffsets.latest());
        }
        if (!setup.sourceSizesItsPolls()) {
            builder.setPollBatchSize(setup.batch());
        }
        return builder.build();
    }

    /**
     * A bounded job at parallelism p reading {@code topics} of the stream (all {@code total}
     * records) with one source, object reuse on.
     */
    static ThroughputRun readTopics(
            SourceBenchmarkSetup setup,
            String stream,
            List<String> topics,
            int parallelism,
            long total)
            throws Exception {
        return flinkJob(setup, stream, parallelism, total, true, topics.toArray(new String[0]));
    }

    /**
     * A bounded job reading the whole topic (or the given topics) at parallelism p into a counting
     * sink. With object reuse off, Flink copies every record between the chained source and sink (a
     * payload copy).
     */
    private static ThroughputRun flinkJob(
            SourceBenchmarkSetup setup,
            String stream,
            int parallelism,
            long total,
            boolean objectReuse,
            String... topics)
            throws Exception {
        SourceBenchmarkSetup.settle();
        CountingSink.reset();
        CountingSink.markEvery = parallelism == 1 ? total / 8 : Long.MAX_VALUE;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        if (objectReuse) {
            env.getConfig().enableObjectReuse();
        }
        env.fromSource(
                        source(setup, stream, true, topics),
                        WatermarkStrategy.noWatermarks(),
                        "iggy")
                .sinkTo(new CountingSink());
        JobGraph job = env.getStreamGraph().getJobGraph();
        ThreadCpu cpu = ThreadCpu.start();
        ThroughputRun figures = runToEnd(setup, job, total);
        cpu.stop();
        // The steady stretch: deploying and ending a job are not a record's cost.
        figures.cpu = cpu.between(CountingSink.FIRST.get(), CountingSink.LAST.get());
        figures.steadyRate = total / ((CountingSink.LAST.get() - CountingSink.FIRST.get()) / 1e9);
        figures.eighthMarks = CountingSink.marks.clone();
        return figures;
    }

    /**
     * A job whose source is Flink's own (one record from memory): its submission to first record
     * and last record to end are what deploying and ending a job cost on this cluster, whatever the
     * source.
     */
    private static ThroughputRun oneRecordFromAFlinkSource(SourceBenchmarkSetup setup)
            throws Exception {
        CountingSink.reset();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromData(new byte[] {1}).sinkTo(new CountingSink());
        return runToEnd(setup, env.getStreamGraph().getJobGraph(), 1);
    }

    /**
     * Runs a job that sends {@code total} records to the {@link CountingSink} until it ends; the
     * figures of its start and end.
     */
    private static ThroughputRun runToEnd(SourceBenchmarkSetup setup, JobGraph job, long total)
            throws Exception {
        long submitted = System.nanoTime();
        setup.flink().submitJob(job).get();
        JobResult result = setup.flink().requestJobResult(job.getJobID()).get();
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
        ThroughputRun figures = new ThroughputRun();
        figures.records = total;
        figures.submitToLastRate = total / ((CountingSink.LAST.get() - submitted) / 1e9);
        figures.firstRecordDelayNanos = CountingSink.FIRST.get() - submitted;
        figures.lastRecordToEndNanos = ended - CountingSink.LAST.get();
        return figures;
    }

    /** Counts records and notes when the first and last arrived; nothing per record is shared. */
    private static final class CountingSink implements FlinkSink<byte[]> {
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

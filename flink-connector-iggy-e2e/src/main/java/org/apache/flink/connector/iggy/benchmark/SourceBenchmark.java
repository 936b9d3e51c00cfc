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
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.message.PollingStrategy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records per second of {@link IggySource} (bounded, parallelism p over p partitions) against a
 * plain SDK poll loop per partition reading the same data with the same batch size. Not a test: run
 * it and read the ratios.
 *
 * <pre>
 * flink-connector-iggy-e2e/run-benchmark.sh SourceBenchmark [partitions] [messagesPerPartition] [batchSize]
 * </pre>
 *
 * <p>"IggySource rec/s" is measured from the first to the last record reaching the sink; the figure
 * "incl. startup" adds the local job's submission and scheduling.
 *
 * <p>Uses the in-JVM server unless {@code IGGY_TCP_ADDRESS} points at a real one (credentials from
 * {@code IGGY_USERNAME}/{@code IGGY_PASSWORD}), as {@link IggyServerExtension} does for tests.
 */
public final class SourceBenchmark {

    private static final int ROUNDS = 3;

    /** Messages per send request while filling the topic. */
    private static final int SEND_BATCH = 1000;

    private SourceBenchmark() {}

    public static void main(String[] args) throws Exception {
        int partitions = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int perPartition = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        int batchSize = args.length > 2 ? Integer.parseInt(args[2]) : 1000;

        IggyServerExtension iggy = new IggyServerExtension();
        iggy.start();
        IggyConnectionConfig connection =
                IggyConnectionConfig.builder()
                        .setAddress(iggy.address())
                        .setCredentials(iggy.username(), iggy.password())
                        .build();
        System.out.printf(
                "Iggy source benchmark: %s, %d partitions x %d messages, batch %d, best of %d%n",
                iggy.isExternal() ? "server " + iggy.address() : "in-JVM server",
                partitions,
                perPartition,
                batchSize,
                ROUNDS);
        System.out.printf(
                "%-8s %16s %16s %16s %8s%n",
                "payload", "SDK loop rec/s", "IggySource rec/s", "(incl. startup)", "ratio");
        try {
            for (int payloadSize : new int[] {100, 1024}) {
                String stream = "bench-" + UUID.randomUUID().toString().substring(0, 8);
                fill(iggy, stream, partitions, perPartition, payloadSize);
                double sdk = 0;
                double flink = 0;
                double flinkWall = 0;
                for (int round = 0; round < ROUNDS; round++) {
                    sdk =
                            Math.max(
                                    sdk,
                                    sdkLoop(
                                            connection,
                                            stream,
                                            partitions,
                                            perPartition,
                                            batchSize));
                    double[] rates =
                            flinkJob(connection, stream, partitions, perPartition, batchSize);
                    flink = Math.max(flink, rates[0]);
                    flinkWall = Math.max(flinkWall, rates[1]);
                }
                System.out.printf(
                        "%-8s %16.0f %16.0f %16.0f %8.2f%n",
                        payloadSize + " B", sdk, flink, flinkWall, flink / sdk);
                iggy.deleteStream(stream);
            }
        } finally {
            iggy.stop();
        }
        System.exit(0);
    }

    private static void fill(
            IggyServerExtension iggy,
            String stream,
            int partitions,
            int perPartition,
            int payloadSize) {
        iggy.createStream(stream);
        iggy.createTopic(stream, "t", partitions);
        byte[] payload = new byte[payloadSize];
        Arrays.fill(payload, (byte) 'x');
        for (long p = 0; p < partitions; p++) {
            for (int sent = 0; sent < perPartition; sent += SEND_BATCH) {
                int size = Math.min(SEND_BATCH, perPartition - sent);
                iggy.send(stream, "t", p, Collections.nCopies(size, payload));
            }
        }
    }

    /**
     * One thread per partition, each polling with its own client: poll, wait, repeat. Clients
     * connect before the clock starts, as the source's steady figure excludes its start too.
     */
    private static double sdkLoop(
            IggyConnectionConfig connection,
            String stream,
            int partitions,
            int perPartition,
            int batchSize)
            throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(partitions);
        List<AsyncIggyTcpClient> clients = new ArrayList<>();
        try {
            for (int p = 0; p < partitions; p++) {
                clients.add(IggyClients.connect(connection));
            }
            long start = System.nanoTime();
            List<Future<Long>> results = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                long partition = p;
                AsyncIggyTcpClient client = clients.get(p);
                results.add(
                        threads.submit(
                                () -> {
                                    long offset = 0;
                                    long bytes = 0;
                                    while (offset < perPartition) {
                                        PolledMessages polled =
                                                client.messages()
                                                        .pollMessages(
                                                                StreamId.of(stream),
                                                                TopicId.of("t"),
                                                                Optional.of(partition),
                                                                Consumer.of(1L),
                                                                PollingStrategy.offset(
                                                                        BigInteger.valueOf(offset)),
                                                                (long) batchSize,
                                                                false)
                                                        .join();
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
            return (double) partitions * perPartition / ((System.nanoTime() - start) / 1e9);
        } finally {
            threads.shutdownNow();
            clients.forEach(IggyClients::closeQuietly);
        }
    }

    /** Returns {steady records/s (first to last record), records/s including job startup}. */
    private static double[] flinkJob(
            IggyConnectionConfig connection,
            String stream,
            int partitions,
            int perPartition,
            int batchSize)
            throws Exception {
        CountingSink.reset();
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironment(partitions);
        IggySource<byte[]> source =
                IggySource.<byte[]>builder()
                        .setConnection(connection)
                        .setStream(stream)
                        .setTopic("t")
                        .setConsumerName("bench-" + UUID.randomUUID())
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setBounded(IggyStoppingOffsets.latest())
                        .setBatchSize(batchSize)
                        .setDeserializer(IggyRecordDeserializationSchema.payloads())
                        .build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "iggy").sinkTo(new CountingSink());
        long start = System.nanoTime();
        env.execute("iggy source benchmark");
        long wall = System.nanoTime() - start;
        long total = (long) partitions * perPartition;
        if (CountingSink.COUNT.get() != total) {
            throw new IllegalStateException(
                    "IggySource read " + CountingSink.COUNT.get() + " records, expected " + total);
        }
        double steady = total / ((CountingSink.LAST.get() - CountingSink.FIRST.get()) / 1e9);
        return new double[] {steady, total / (wall / 1e9)};
    }

    /** Counts records and notes when the first and last arrived; nothing per record is shared. */
    private static final class CountingSink implements Sink<byte[]> {
        static final AtomicLong COUNT = new AtomicLong();
        static final AtomicLong FIRST = new AtomicLong(Long.MAX_VALUE);
        static final AtomicLong LAST = new AtomicLong(Long.MIN_VALUE);

        static void reset() {
            COUNT.set(0);
            FIRST.set(Long.MAX_VALUE);
            LAST.set(Long.MIN_VALUE);
        }

        @Override
        public SinkWriter<byte[]> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                long count;
                long first;
                long last;
                long bytes;

                @Override
                public void write(byte[] element, Context context) {
                    if (count++ == 0) {
                        first = System.nanoTime();
                    }
                    bytes += element.length;
                    last = System.nanoTime();
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {
                    if (count > 0) {
                        COUNT.addAndGet(count);
                        FIRST.accumulateAndGet(first, Math::min);
                        LAST.accumulateAndGet(last, Math::max);
                    }
                }
            };
        }
    }
}

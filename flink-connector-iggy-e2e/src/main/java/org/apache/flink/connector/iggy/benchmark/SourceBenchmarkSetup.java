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

import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.runtime.minicluster.MiniCluster;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.message.PollingStrategy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What every measurement of {@link SourceBenchmark} shares: the Iggy server and the Flink cluster,
 * both running for the whole benchmark, the poll size, and the helpers that fill topics, poll as
 * the SDK loop does, wait for the JIT compilers and take medians. Immutable.
 *
 * @param iggy the in-JVM or external Iggy server
 * @param connection how clients and sources connect to it
 * @param flink the one cluster every job is submitted to
 * @param batch messages per poll request of the SDK loop, and the count fixed for the source
 * @param sourceSizesItsPolls whether the source's polls are sized by the message size (its default)
 *     instead
 */
record SourceBenchmarkSetup(
        IggyServerExtension iggy,
        IggyConnectionConfig connection,
        MiniCluster flink,
        int batch,
        boolean sourceSizesItsPolls) {

    /** Messages per poll request unless the command line says otherwise. */
    static final int DEFAULT_BATCH = 1000;

    /** How long the JIT compilers must have been idle before a measurement starts (see settle). */
    private static final long SETTLE_QUIET_MS = 200;

    /** The longest wait for that. */
    private static final long SETTLE_MAX_MS = 3_000;

    /** Messages per send request while filling the topic. */
    private static final int SEND_BATCH = 1000;

    /**
     * Starts the Iggy server and the one Flink cluster every job of the benchmark is submitted to,
     * before the clocks run: "submission" is a job's submission to a running cluster, as in
     * production.
     */
    static SourceBenchmarkSetup start(int batch, boolean sourceSizesItsPolls) throws Exception {
        IggyServerExtension iggy = new IggyServerExtension();
        iggy.start();
        MiniCluster flink = BenchmarkCluster.start();
        IggyConnectionConfig connection =
                IggyConnectionConfig.builder()
                        .setAddress(iggy.address())
                        .setCredentials(iggy.username(), iggy.password())
                        .build();
        return new SourceBenchmarkSetup(iggy, connection, flink, batch, sourceSizesItsPolls);
    }

    /** Stops the cluster, then the server. */
    void stop() throws Exception {
        flink.close();
        iggy.stop();
    }

    /** Where the records come from, for the first line of a benchmark's output. */
    String serverName() {
        return iggy.isExternal() ? "server " + iggy.address() : "in-JVM server";
    }

    /** A new stream with topic "t": {@code filled} of its partitions get the messages. */
    String fill(int partitions, int filled, int perPartition, int payloadSize) {
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
     * A new stream of {@code topics} topics {@code t0, t1, ...} of {@code partitions} partitions
     * each, every partition holding {@code perPartition} messages of {@code payloadSize} bytes.
     */
    String fillTopics(int topics, int partitions, int perPartition, int payloadSize) {
        String stream = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        iggy.createStream(stream);
        byte[] payload = new byte[payloadSize];
        Arrays.fill(payload, (byte) 'x');
        for (int t = 0; t < topics; t++) {
            String topic = "t" + t;
            iggy.createTopic(stream, topic, partitions);
            for (long p = 0; p < partitions; p++) {
                for (int sent = 0; sent < perPartition; sent += SEND_BATCH) {
                    int size = Math.min(SEND_BATCH, perPartition - sent);
                    iggy.send(stream, topic, p, Collections.nCopies(size, payload));
                }
            }
        }
        return stream;
    }

    /**
     * {@link #batch()} messages of topic "t" from {@code offset}, as the SDK loop asks for them.
     */
    CompletableFuture<PolledMessages> poll(
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

    /**
     * Waits, at most {@link #SETTLE_MAX_MS}, until the JIT compilers have not worked for {@link
     * #SETTLE_QUIET_MS}. A job's end leaves them code to compile (Flink's, Pekko's and Netty's
     * paths for ending a job), and a measurement that starts at once pays for the one before. Until
     * the clients' close stopped taking 2 s, that close gave them the time (docs/testing.md).
     */
    static void settle() throws InterruptedException {
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

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}

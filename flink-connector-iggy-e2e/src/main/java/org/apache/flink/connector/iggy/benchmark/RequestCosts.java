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

import org.apache.flink.connector.iggy.common.client.IggyClients;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.apache.flink.connector.iggy.benchmark.SourceBenchmarkSetup.median;

/**
 * What single SDK requests cost on their own, as the source makes them: a fresh client's start and
 * first requests, and a topic description's CPU and round trip. The figures are set once by the
 * measuring thread and read after.
 */
final class RequestCosts {

    private RequestCosts() {}

    /** Medians, in ms, of a fresh client's start and first requests, as a reader makes them. */
    static final class FreshClientCost {
        static final int CLIENTS = 20;
        double connectMs;
        double firstDescriptionMs;
        double secondDescriptionMs;
        double pollMs;
    }

    /**
     * A reader connects when its first splits arrive, so its client's start and first requests are
     * part of every job's time to the first record: connect and log in, describe the topic,
     * describe it again, poll {@link SourceBenchmarkSetup#batch()} messages; {@link
     * FreshClientCost#CLIENTS} fresh clients one after the other.
     */
    static FreshClientCost freshClientCost(SourceBenchmarkSetup setup, String stream)
            throws Exception {
        List<Double> connect = new ArrayList<>();
        List<Double> firstDescription = new ArrayList<>();
        List<Double> secondDescription = new ArrayList<>();
        List<Double> poll = new ArrayList<>();
        for (int i = 0; i < FreshClientCost.CLIENTS; i++) {
            long start = System.nanoTime();
            AsyncIggyTcpClient client = IggyClients.connect(setup.connection());
            try {
                long connected = System.nanoTime();
                client.topics().getTopic(StreamId.of(stream), TopicId.of("t")).join();
                long described = System.nanoTime();
                client.topics().getTopic(StreamId.of(stream), TopicId.of("t")).join();
                long describedAgain = System.nanoTime();
                setup.poll(client, stream, 0, 0).join();
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

    static final class RequestCost {
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
    static RequestCost describeCost(SourceBenchmarkSetup setup, String stream) throws Exception {
        AsyncIggyTcpClient client = IggyClients.connect(setup.connection());
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
                        .orTimeout(
                                setup.connection().requestTimeout().toMillis(),
                                TimeUnit.MILLISECONDS)
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
}

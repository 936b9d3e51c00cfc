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
import org.apache.iggy.message.Message;
import org.apache.iggy.message.PolledMessages;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The plain SDK loop the source's throughput is compared with: one thread per partition, each
 * polling its partition from the next offset until it has read all of it, with no Flink around.
 */
final class SdkPollLoop {

    private SdkPollLoop() {}

    /**
     * One thread per partition, each polling with its own client: poll, wait, repeat. Clients
     * connect before the clock starts.
     */
    static ThroughputRun run(
            SourceBenchmarkSetup setup, String stream, int partitions, int perPartition)
            throws Exception {
        return run(setup, stream, partitions, perPartition, partitions);
    }

    /** The SDK loop with the partitions' threads sharing {@code clientCount} clients. */
    static ThroughputRun run(
            SourceBenchmarkSetup setup,
            String stream,
            int partitions,
            int perPartition,
            int clientCount)
            throws Exception {
        SourceBenchmarkSetup.settle();
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
                clients.add(IggyClients.connect(setup.connection()));
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
                                                setup.poll(client, stream, partition, offset)
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
            ThroughputRun run = new ThroughputRun();
            run.records = (long) partitions * perPartition;
            run.steadyRate = run.records / ((System.nanoTime() - start) / 1e9);
            run.cpu = cpu.stop();
            return run;
        } finally {
            threads.shutdownNow();
            clients.forEach(IggyClients::closeAndWait);
        }
    }
}

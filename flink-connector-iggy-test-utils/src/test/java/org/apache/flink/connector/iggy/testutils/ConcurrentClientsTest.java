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
package org.apache.flink.connector.iggy.testutils;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.exception.IggyResourceNotFoundException;
import org.apache.iggy.exception.IggyServerException;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;
import org.apache.iggy.message.PollingStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.apache.flink.connector.iggy.testutils.TestMessages.offsets;
import static org.apache.flink.connector.iggy.testutils.TestMessages.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Many connections at once: the async SDK's pool and several blocking clients. */
class ConcurrentClientsTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @Test
    void concurrentAsyncSendsToOnePartitionGetDistinctConsecutiveOffsets() throws Exception {
        String stream = IGGY.uniqueName("async");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
        int batches = 50;
        int perBatch = 20;

        AsyncIggyTcpClient async =
                AsyncIggyTcpClient.builder()
                        .host(IGGY.host())
                        .port(IGGY.port())
                        .credentials(IGGY.username(), IGGY.password())
                        .connectionPoolSize(5)
                        .buildAndLogin()
                        .get(30, TimeUnit.SECONDS);
        try {
            List<CompletableFuture<Void>> sends = new ArrayList<>();
            for (int b = 0; b < batches; b++) {
                sends.add(
                        async.messages()
                                .sendMessages(
                                        StreamId.of(stream),
                                        TopicId.of("t"),
                                        Partitioning.partitionId(0L),
                                        TestMessages.numbered("b" + b, perBatch)));
            }
            CompletableFuture.allOf(sends.toArray(new CompletableFuture[0]))
                    .get(60, TimeUnit.SECONDS);

            List<Message> all = IGGY.readAll(stream, "t", 0);
            assertThat(all).hasSize(batches * perBatch);
            for (int i = 0; i < all.size(); i++) {
                assertThat(all.get(i).header().offset().longValueExact()).isEqualTo(i);
            }
            // Each batch is appended as a whole: its messages are contiguous and in order.
            for (int i = 0; i < all.size(); i += perBatch) {
                String prefix = TestMessages.text(all.get(i)).split("-")[0];
                for (int j = 0; j < perBatch; j++) {
                    assertThat(TestMessages.text(all.get(i + j))).isEqualTo(prefix + "-" + j);
                }
            }
            // The pool really used several connections, each logging in on its own.
            assertThat(IGGY.client().system().getClients().size()).isGreaterThan(2);
        } finally {
            async.close().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void concurrentAsyncPollsSeeTheSameData() throws Exception {
        String stream = IGGY.uniqueName("async-poll");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            payloads.add(("p" + i).getBytes());
        }
        IGGY.send(stream, "t", 0, payloads);

        AsyncIggyTcpClient async =
                AsyncIggyTcpClient.builder()
                        .host(IGGY.host())
                        .port(IGGY.port())
                        .credentials(IGGY.username(), IGGY.password())
                        .buildAndLogin()
                        .get(30, TimeUnit.SECONDS);
        try {
            List<CompletableFuture<List<Message>>> polls = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                long from = i * 5L;
                polls.add(
                        async.messages()
                                .pollMessages(
                                        StreamId.of(stream),
                                        TopicId.of("t"),
                                        Optional.of(0L),
                                        Consumer.of(1L),
                                        PollingStrategy.offset(BigInteger.valueOf(from)),
                                        5L,
                                        false)
                                .thenApply(polled -> polled.messages()));
            }
            for (int i = 0; i < polls.size(); i++) {
                List<Message> messages = polls.get(i).get(30, TimeUnit.SECONDS);
                long from = i * 5L;
                assertThat(offsets(messages))
                        .containsExactly(from, from + 1, from + 2, from + 3, from + 4);
                assertThat(texts(messages).get(0)).isEqualTo("p" + from);
            }
        } finally {
            async.close().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void asyncErrorsCarryTheServersCode() throws Exception {
        AsyncIggyTcpClient async =
                AsyncIggyTcpClient.builder()
                        .host(IGGY.host())
                        .port(IGGY.port())
                        .credentials(IGGY.username(), IGGY.password())
                        .buildAndLogin()
                        .get(30, TimeUnit.SECONDS);
        try {
            CompletableFuture<Void> send =
                    async.messages()
                            .sendMessages(
                                    StreamId.of(IGGY.uniqueName("missing")),
                                    TopicId.of("t"),
                                    Partitioning.partitionId(0L),
                                    List.of(Message.of("x")));

            assertThatThrownBy(() -> send.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isExactlyInstanceOf(IggyResourceNotFoundException.class)
                    .satisfies(
                            e ->
                                    assertThat(((IggyServerException) e).getRawErrorCode())
                                            .isEqualTo(1009));
        } finally {
            async.close().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void blockingClientsOnSeveralThreadsWriteToDifferentPartitions() throws Exception {
        String stream = IGGY.uniqueName("threads");
        IGGY.createStream(stream);
        int writers = 4;
        IGGY.createTopic(stream, "t", writers);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> results = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                long partition = w;
                results.add(
                        pool.submit(
                                () -> {
                                    try (IggyTcpClient client = IGGY.newClient()) {
                                        for (int b = 0; b < 20; b++) {
                                            client.messages()
                                                    .sendMessages(
                                                            StreamId.of(stream),
                                                            TopicId.of("t"),
                                                            Partitioning.partitionId(partition),
                                                            TestMessages.numbered(
                                                                    "w" + partition, 10));
                                        }
                                    }
                                    return null;
                                }));
            }
            for (Future<?> result : results) {
                result.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        for (int w = 0; w < writers; w++) {
            List<Message> all = IGGY.readAll(stream, "t", w);
            assertThat(all).hasSize(200);
            Set<String> prefixes = new HashSet<>();
            for (Message message : all) {
                prefixes.add(TestMessages.text(message).split("-")[0]);
            }
            assertThat(prefixes).containsExactly("w" + w);
        }
    }
}

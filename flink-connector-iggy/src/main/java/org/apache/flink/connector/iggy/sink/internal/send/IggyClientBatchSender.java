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
package org.apache.flink.connector.iggy.sink.internal.send;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * {@link IggyBatchSender} over one logged-in {@link IggyServerClient} with a single connection.
 *
 * <p>The SDK encodes a batch on the thread that sends it, and encoding costs more than everything
 * else the sink does per record. Sends therefore run on a thread of their own, one after the other
 * in call order, so the task goes on with the next records meanwhile. The single connection carries
 * the requests in that order (see {@link IggyServerClient#connectWithOneConnection}), so batches of
 * a partition are appended in call order even while several are in flight. Topics are described on
 * that thread too, so the task never waits on the network.
 */
@Internal
public final class IggyClientBatchSender implements IggyBatchSender {

    private final IggyServerClient client;
    private final IggyConnectionConfig connection;
    private final ExecutorService sendingThread;

    private IggyClientBatchSender(IggyServerClient client, IggyWriterConfig config) {
        this.client = client;
        this.connection = config.connection();
        this.sendingThread =
                Executors.newSingleThreadExecutor(
                        new ExecutorThreadFactory("iggy-sink-sender " + config.stream()));
    }

    /**
     * Connects and logs in, failing with a message naming the address otherwise. Topics are
     * described when a record first goes to them ({@link #partitionCount}).
     *
     * @param reconnects counts the connections the client opens again
     */
    public static IggyClientBatchSender open(IggyWriterConfig config, Counter reconnects) {
        return new IggyClientBatchSender(
                IggyServerClient.connectWithOneConnection(config.connection(), reconnects), config);
    }

    /** {@link #open}, when called, with the writer's {@value IggyClients#RECONNECTS} counter. */
    public static Supplier<IggyBatchSender> opener(
            IggyWriterConfig config, WriterInitContext context) {
        Counter reconnects =
                context.metricGroup()
                        .counter(IggyClients.RECONNECTS, new ThreadSafeSimpleCounter());
        return () -> open(config, reconnects);
    }

    /**
     * Like {@link #open}, but once its connection closed nothing more is sent (see {@link
     * IggyServerClient#connectWithOneLastingConnection}): a batch queued behind a lost one fails
     * instead of overtaking it. For the exactly-once committer, which then opens a new sender.
     */
    public static IggyClientBatchSender openWithoutReconnecting(IggyWriterConfig config) {
        return new IggyClientBatchSender(
                IggyServerClient.connectWithOneLastingConnection(config.connection()), config);
    }

    /**
     * The client the batches go through, for the exactly-once committer's reads and its fence,
     * which watches the connection that sent.
     */
    public IggyServerClient client() {
        return client;
    }

    @Override
    public CompletableFuture<Integer> partitionCount(IggySinkTarget topic) {
        return CompletableFuture.supplyAsync(
                () -> {
                    int partitions =
                            client.describe(topic.stream(), topic.topic()).partitionsCount();
                    if (partitions == 0) {
                        throw new IggyConfigurationException(
                                "Iggy "
                                        + topic
                                        + " at "
                                        + connection.address()
                                        + " has no partitions. The connector never creates"
                                        + " partitions: add some first.");
                    }
                    return partitions;
                },
                sendingThread);
    }

    @Override
    public CompletableFuture<Void> send(IggyTopicPartition target, List<OutgoingMessage> messages) {
        return CompletableFuture.supplyAsync(() -> client.send(target, messages), sendingThread)
                .thenCompose(sent -> sent);
    }

    @Override
    public CompletableFuture<Map<Long, Long>> endOffsets(IggySinkTarget topic) {
        String gone = "Iggy " + topic + " at " + connection.address() + " is gone: it was deleted.";
        return client.describeTopic(topic.stream(), topic.topic())
                .thenApply(d -> d.orElseThrow(() -> new IggyConnectorException(gone)).endOffsets());
    }

    @Override
    public void close() {
        sendingThread.shutdownNow();
        client.close();
    }
}

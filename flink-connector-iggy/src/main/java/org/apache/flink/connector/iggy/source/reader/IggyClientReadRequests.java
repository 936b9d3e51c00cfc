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
package org.apache.flink.connector.iggy.source.reader;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.SdkIds;
import org.apache.flink.connector.iggy.source.split.TopicPath;
import org.apache.flink.metrics.Counter;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.message.PollingStrategy;
import org.apache.iggy.stream.StreamDetails;
import org.apache.iggy.topic.TopicDetails;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@link IggyReadRequests} through one SDK client, which connects at the first poll or description:
 * on the fetcher thread, once the task is running, never while the reader is created or started.
 */
@Internal
final class IggyClientReadRequests implements IggyReadRequests {

    private final IggyConnectionConfig config;
    private final Consumer consumer;
    private final Counter reconnects;
    @Nullable private volatile AsyncIggyTcpClient client;
    private boolean closed;

    /**
     * @param reconnects counts the connections the client opens again (see {@link
     *     IggyClients#connect(IggyConnectionConfig, Counter)})
     */
    IggyClientReadRequests(IggyConnectionConfig config, String consumerName, Counter reconnects) {
        this.config = config;
        this.reconnects = reconnects;
        this.consumer = Consumer.of(ConsumerId.of(consumerName));
    }

    /** The client, connecting first if this is the first request; blocks up to the timeout. */
    private AsyncIggyTcpClient connected() {
        AsyncIggyTcpClient c = client;
        if (c != null) {
            return c;
        }
        synchronized (this) {
            if (closed) {
                throw new IggyConnectorException("The Iggy source reader is closed");
            }
            if (client == null) {
                client = IggyClients.connect(config, reconnects);
            }
            return client;
        }
    }

    @Override
    public CompletableFuture<PolledMessages> poll(
            TopicPath topic, long partitionId, long offset, long count) {
        return connected()
                .messages()
                .pollMessages(
                        SdkIds.streamId(topic.stream()),
                        SdkIds.topicId(topic.topic()),
                        Optional.of(partitionId),
                        consumer,
                        PollingStrategy.offset(BigInteger.valueOf(offset)),
                        count,
                        false)
                .orTimeout(config.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public CompletableFuture<Optional<TopicDetails>> describeTopic(TopicPath topic) {
        return connected()
                .topics()
                .getTopic(SdkIds.streamId(topic.stream()), SdkIds.topicId(topic.topic()))
                .orTimeout(config.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public CompletableFuture<Optional<StreamDetails>> describeStream(IggyId stream) {
        return connected()
                .streams()
                .getStream(SdkIds.streamId(stream))
                .orTimeout(config.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public CompletableFuture<Void> storeOffset(TopicPath topic, long partitionId, long offset) {
        AsyncIggyTcpClient c = client;
        if (c == null) {
            // Only offsets of records read are stored, and reading connected first.
            return CompletableFuture.failedFuture(
                    new IllegalStateException("not connected to Iggy yet"));
        }
        return c.consumerOffsets()
                .storeConsumerOffset(
                        SdkIds.streamId(topic.stream()),
                        SdkIds.topicId(topic.topic()),
                        Optional.of(partitionId),
                        consumer,
                        BigInteger.valueOf(offset))
                .orTimeout(config.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public String description(TopicPath topic) {
        return topic + " at " + config.address();
    }

    @Override
    public void close() {
        AsyncIggyTcpClient c;
        synchronized (this) {
            closed = true;
            c = client;
            client = null;
        }
        IggyClients.closeAndWait(c);
    }
}

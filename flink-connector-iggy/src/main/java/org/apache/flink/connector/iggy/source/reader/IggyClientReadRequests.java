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
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.MessageBatch;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamListing;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamSummary;
import org.apache.flink.connector.iggy.source.split.TopicPath;
import org.apache.flink.metrics.Counter;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * {@link IggyReadRequests} through one SDK client, connected at the first request: on the fetcher
 * thread once the task runs, never while the reader is created or started (FLINK-39330). The client
 * is set and {@code closed} read and written under this object's lock.
 */
@Internal
final class IggyClientReadRequests implements IggyReadRequests {

    private final IggyConnectionConfig config;
    private final String consumer;
    private final Counter reconnects;
    @Nullable private volatile IggyServerClient server;
    private boolean closed;

    IggyClientReadRequests(IggyConnectionConfig config, String consumerName, Counter reconnects) {
        this.config = config;
        this.reconnects = reconnects;
        this.consumer = consumerName;
    }

    private IggyServerClient connected() {
        IggyServerClient s = server;
        if (s != null) {
            return s;
        }
        synchronized (this) {
            if (closed) {
                throw new IggyConnectorException("The Iggy source reader is closed");
            }
            if (server == null) {
                server = IggyServerClient.connect(config, reconnects);
            }
            return server;
        }
    }

    @Override
    public CompletableFuture<MessageBatch> poll(
            TopicPath topic, long partitionId, long offset, long count) {
        return connected()
                .poll(topic.stream(), topic.topic(), partitionId, consumer, offset, count);
    }

    @Override
    public CompletableFuture<Optional<TopicDescription>> describeTopic(TopicPath topic) {
        return connected().describeTopic(topic.stream(), topic.topic());
    }

    @Override
    public CompletableFuture<Optional<StreamSummary>> describeStream(IggyId stream) {
        return connected().describeStream(stream);
    }

    @Override
    public CompletableFuture<List<StreamListing>> listStreams() {
        return connected().listStreams();
    }

    @Override
    public CompletableFuture<Void> storeOffset(TopicPath topic, long partitionId, long offset) {
        return connected()
                .storeOffset(topic.stream(), topic.topic(), partitionId, consumer, offset);
    }

    @Override
    public String description(TopicPath topic) {
        return topic + " at " + config.address();
    }

    @Override
    public void close() {
        IggyServerClient s;
        synchronized (this) {
            closed = true;
            s = server;
            server = null;
        }
        if (s != null) {
            s.close();
        }
    }
}

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
package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.StreamSummary;
import org.apache.flink.connector.iggy.source.split.TopicPath;
import org.apache.flink.metrics.Counter;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Optional;

/**
 * Describes topics and lists streams through the gateway. Connects at the first request, on the
 * worker thread that asks, and keeps the connection until closed; a request after a close connects
 * again.
 */
@Internal
final class IggyTopicDescriber implements TopicDescriber {

    private final IggyConnectionConfig config;
    private final String consumerName;
    private final Counter reconnects;
    @Nullable private IggyServerClient server;

    /**
     * @param reconnects counts the connections the client opens again (see {@link
     *     IggyServerClient#connect(IggyConnectionConfig, Counter)})
     */
    IggyTopicDescriber(IggyConnectionConfig config, String consumerName, Counter reconnects) {
        this.config = config;
        this.reconnects = reconnects;
        this.consumerName = consumerName;
    }

    private IggyServerClient server() {
        if (server == null) {
            server = IggyServerClient.connect(config, reconnects);
        }
        return server;
    }

    @Override
    public synchronized PartitionOffsets describe(TopicPath topic) {
        IggyServerClient s = server();
        return new IggyPartitionOffsets(
                s, topic, consumerName, s.describe(topic.stream(), topic.topic()));
    }

    @Override
    public synchronized Optional<PartitionOffsets> describeIfPresent(TopicPath topic) {
        IggyServerClient s = server();
        return s.topic(topic.stream(), topic.topic())
                .map(d -> new IggyPartitionOffsets(s, topic, consumerName, d));
    }

    @Override
    public synchronized List<String> streams() {
        return server().streamNames();
    }

    @Override
    public synchronized List<String> topics(String stream) {
        // Empty also for a stream deleted since it was listed.
        return server().stream(IggyId.of(stream)).map(StreamSummary::topics).orElse(List.of());
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}

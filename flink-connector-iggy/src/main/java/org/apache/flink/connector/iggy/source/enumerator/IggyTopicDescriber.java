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
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopics;
import org.apache.flink.metrics.Counter;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;

import javax.annotation.Nullable;

/**
 * Describes the topic through the SDK. Connects at a description, on the worker thread that asks,
 * and keeps the connection until closed; a description after a close connects again.
 */
@Internal
final class IggyTopicDescriber implements TopicDescriber {

    private final IggyConnectionConfig config;
    private final IggyId stream;
    private final IggyId topic;
    private final String consumerName;
    private final Counter reconnects;
    @Nullable private AsyncIggyTcpClient client;

    /**
     * @param reconnects counts the connections the client opens again (see {@link
     *     IggyClients#connect(IggyConnectionConfig, Counter)})
     */
    IggyTopicDescriber(
            IggyConnectionConfig config,
            IggyId stream,
            IggyId topic,
            String consumerName,
            Counter reconnects) {
        this.config = config;
        this.reconnects = reconnects;
        this.stream = stream;
        this.topic = topic;
        this.consumerName = consumerName;
    }

    @Override
    public synchronized PartitionOffsets describe() {
        if (client == null) {
            client = IggyClients.connect(config, reconnects);
        }
        return new IggyPartitionOffsets(
                client,
                config,
                stream,
                topic,
                consumerName,
                IggyTopics.describe(client, config, stream, topic));
    }

    @Override
    public synchronized void close() {
        IggyClients.closeAndWait(client);
        client = null;
    }
}

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
import org.apache.flink.connector.iggy.common.IggyErrorCode;
import org.apache.flink.connector.iggy.common.IggyTopics;
import org.apache.flink.connector.iggy.common.SdkIds;
import org.apache.flink.connector.iggy.source.split.TopicPath;
import org.apache.flink.metrics.Counter;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.stream.StreamBase;
import org.apache.iggy.stream.StreamDetails;
import org.apache.iggy.topic.Topic;
import org.apache.iggy.topic.TopicDetails;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Describes topics and lists streams through the SDK. Connects at the first request, on the worker
 * thread that asks, and keeps the connection until closed; a request after a close connects again.
 */
@Internal
final class IggyTopicDescriber implements TopicDescriber {

    private final IggyConnectionConfig config;
    private final String consumerName;
    private final Counter reconnects;
    @Nullable private AsyncIggyTcpClient client;

    /**
     * @param reconnects counts the connections the client opens again (see {@link
     *     IggyClients#connect(IggyConnectionConfig, Counter)})
     */
    IggyTopicDescriber(IggyConnectionConfig config, String consumerName, Counter reconnects) {
        this.config = config;
        this.reconnects = reconnects;
        this.consumerName = consumerName;
    }

    private AsyncIggyTcpClient client() {
        if (client == null) {
            client = IggyClients.connect(config, reconnects);
        }
        return client;
    }

    @Override
    public synchronized PartitionOffsets describe(TopicPath topic) {
        AsyncIggyTcpClient c = client();
        return offsets(c, topic, IggyTopics.describe(c, config, topic.stream(), topic.topic()));
    }

    @Override
    public synchronized Optional<PartitionOffsets> describeIfPresent(TopicPath topic) {
        AsyncIggyTcpClient c = client();
        Optional<TopicDetails> details;
        try {
            details =
                    IggyClients.await(
                            c.topics()
                                    .getTopic(
                                            SdkIds.streamId(topic.stream()),
                                            SdkIds.topicId(topic.topic())),
                            config.requestTimeout(),
                            "read " + topic + " at " + config.address());
        } catch (RuntimeException e) {
            if (IggyErrorCode.STREAM_ID_NOT_FOUND.isCauseOf(e)
                    || IggyErrorCode.TOPIC_ID_NOT_FOUND.isCauseOf(e)) {
                return Optional.empty();
            }
            throw e;
        }
        return details.map(d -> offsets(c, topic, d));
    }

    private PartitionOffsets offsets(AsyncIggyTcpClient c, TopicPath topic, TopicDetails details) {
        return new IggyPartitionOffsets(c, config, topic, consumerName, details);
    }

    @Override
    public synchronized List<String> streams() {
        List<String> names = new ArrayList<>();
        for (StreamBase stream :
                IggyClients.await(
                        client().streams().getStreams(),
                        config.requestTimeout(),
                        "list the streams at " + config.address())) {
            names.add(stream.name());
        }
        return names;
    }

    @Override
    public synchronized List<String> topics(String stream) {
        Optional<StreamDetails> details;
        try {
            details =
                    IggyClients.await(
                            client().streams().getStream(StreamId.of(stream)),
                            config.requestTimeout(),
                            "list the topics of stream '" + stream + "' at " + config.address());
        } catch (RuntimeException e) {
            if (IggyErrorCode.STREAM_ID_NOT_FOUND.isCauseOf(e)) {
                return List.of(); // deleted since it was listed
            }
            throw e;
        }
        List<String> names = new ArrayList<>();
        details.ifPresent(d -> d.topics().stream().map(Topic::name).forEach(names::add));
        return names;
    }

    @Override
    public synchronized void close() {
        IggyClients.closeAndWait(client);
        client = null;
    }
}

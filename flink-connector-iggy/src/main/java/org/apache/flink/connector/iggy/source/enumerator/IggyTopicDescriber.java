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
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.common.client.TopicDescription.TopicSummary;
import org.apache.flink.connector.iggy.source.split.TopicPath;
import org.apache.flink.metrics.Counter;

import javax.annotation.Nullable;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Connects at the first request and keeps the connection until closed (then connects again). Its
 * client is read and set under this object's lock, by the enumerator's worker threads.
 */
@Internal
final class IggyTopicDescriber implements TopicDescriber {

    private final IggyConnectionConfig config;
    private final String consumerName;
    private final Counter reconnects;
    @Nullable private IggyServerClient server;

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
        return offsets(s, topic, s.describe(topic.stream(), topic.topic()));
    }

    @Override
    public synchronized Optional<PartitionOffsets> describeIfPresent(TopicPath topic) {
        IggyServerClient s = server();
        return s.topic(topic.stream(), topic.topic()).map(d -> offsets(s, topic, d));
    }

    @Override
    public synchronized List<String> streams() {
        return server().streamNames();
    }

    @Override
    public synchronized List<String> topics(String stream) {
        // Empty also for a stream deleted since it was listed.
        return server().stream(IggyId.of(stream))
                .map(s -> s.topics().stream().map(TopicSummary::name).toList())
                .orElse(List.of());
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    private PartitionOffsets offsets(
            IggyServerClient server, TopicPath topic, TopicDescription details) {
        return new ServerOffsets(server, topic, details.endOffsets(), consumerName);
    }

    /** {@link PartitionOffsets} read from the server: high watermarks from one description. */
    private record ServerOffsets(
            IggyServerClient server,
            TopicPath topic,
            Map<Long, Long> highWatermarks,
            String consumerName)
            implements PartitionOffsets {
        @Override
        public Collection<Long> partitionIds() {
            return highWatermarks.keySet();
        }

        @Override
        public long highWatermark(long partitionId) {
            Long hw = highWatermarks.get(partitionId);
            if (hw == null) {
                throw new IllegalArgumentException(
                        "Partition " + partitionId + " is not in the description of " + topic);
            }
            return hw;
        }

        @Override
        public Optional<Long> storedOffset(long partitionId) {
            return server.storedOffset(topic.stream(), topic.topic(), partitionId, consumerName);
        }

        @Override
        public OptionalLong firstOffsetAtOrAfter(long partitionId, long timestampMillis) {
            return server.firstOffsetAtOrAfter(
                    topic.stream(), topic.topic(), partitionId, consumerName, timestampMillis);
        }
    }
}

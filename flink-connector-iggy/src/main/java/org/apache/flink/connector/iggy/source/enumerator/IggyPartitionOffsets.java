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
import org.apache.flink.connector.iggy.common.IggyTopics;
import org.apache.flink.connector.iggy.common.SdkIds;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.consumeroffset.ConsumerOffsetInfo;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.message.PollingStrategy;
import org.apache.iggy.partition.Partition;
import org.apache.iggy.topic.TopicDetails;

import java.math.BigInteger;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** {@link PartitionOffsets} read from the server: high watermarks from one topic description. */
@Internal
final class IggyPartitionOffsets implements PartitionOffsets {

    private final AsyncIggyTcpClient client;
    private final IggyConnectionConfig config;
    private final TopicPath topic;
    private final Consumer consumer;
    private final Map<Long, Long> highWatermarks = new HashMap<>();

    IggyPartitionOffsets(
            AsyncIggyTcpClient client,
            IggyConnectionConfig config,
            TopicPath topic,
            String consumerName,
            TopicDetails details) {
        this.client = client;
        this.config = config;
        this.topic = topic;
        this.consumer = Consumer.of(ConsumerId.of(consumerName));
        for (Partition partition : details.partitions()) {
            highWatermarks.put(partition.id(), highWatermark(partition));
        }
    }

    /**
     * The exclusive end of a partition. {@code current_offset} is 0 both when the partition is
     * empty and when it holds one message, so emptiness comes from the message count.
     */
    static long highWatermark(Partition partition) {
        return IggyTopics.endOffset(partition);
    }

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
        Optional<ConsumerOffsetInfo> info =
                IggyClients.await(
                        client.consumerOffsets()
                                .getConsumerOffset(
                                        SdkIds.streamId(topic.stream()),
                                        SdkIds.topicId(topic.topic()),
                                        Optional.of(partitionId),
                                        consumer),
                        config.requestTimeout(),
                        "read the stored offset of partition " + partitionId + " of " + topic);
        return info.map(i -> i.storedOffset().longValueExact());
    }

    @Override
    public OptionalLong firstOffsetAtOrAfter(long partitionId, long timestampMillis) {
        PolledMessages polled =
                IggyClients.await(
                        client.messages()
                                .pollMessages(
                                        SdkIds.streamId(topic.stream()),
                                        SdkIds.topicId(topic.topic()),
                                        Optional.of(partitionId),
                                        consumer,
                                        PollingStrategy.timestamp(
                                                BigInteger.valueOf(timestampMillis)
                                                        .multiply(BigInteger.valueOf(1000))),
                                        1L,
                                        false),
                        config.requestTimeout(),
                        "find the first message at or after timestamp "
                                + timestampMillis
                                + " in partition "
                                + partitionId
                                + " of "
                                + topic);
        return polled.messages().isEmpty()
                ? OptionalLong.empty()
                : OptionalLong.of(polled.messages().get(0).header().offset().longValueExact());
    }
}

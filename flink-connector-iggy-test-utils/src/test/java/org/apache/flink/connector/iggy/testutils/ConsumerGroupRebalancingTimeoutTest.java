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

import org.apache.flink.connector.iggy.testutils.server.EmbeddedIggyServer;

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.consumergroup.ConsumerGroupMember;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.PollingStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.apache.flink.connector.iggy.testutils.TestMessages.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A partition pending revocation moves after the rebalancing timeout even without a commit
 * (docs/development/iggy-protocol.md §8.3). Uses a short timeout, so it needs the embedded server's
 * config.
 */
class ConsumerGroupRebalancingTimeoutTest {

    @RegisterExtension
    static final IggyServerExtension IGGY =
            new IggyServerExtension(
                    EmbeddedIggyServer.Config.builder()
                            .consumerGroupRebalancingTimeout(Duration.ofMillis(200))
                            .build());

    @Test
    void pendingRevocationCompletesAfterTheTimeout() throws InterruptedException {
        assumeTrue(IGGY.embeddedServer().isPresent(), "needs the embedded server's config");
        String stream = IGGY.uniqueName("rebalance-timeout");
        StreamId streamId = StreamId.of(stream);
        TopicId topicId = TopicId.of("t");
        ConsumerId group = ConsumerId.of("g");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 2);
        IGGY.send(stream, "t", 1, List.of("one".getBytes()));
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        List<IggyTcpClient> members = new ArrayList<>(List.of(IGGY.newClient(), IGGY.newClient()));
        try {
            IggyTcpClient a = members.get(0);
            IggyTcpClient b = members.get(1);
            a.consumerGroups().joinConsumerGroup(streamId, topicId, group);
            a.messages()
                    .pollMessages(
                            streamId,
                            topicId,
                            Optional.of(1L),
                            Consumer.group(group),
                            PollingStrategy.first(),
                            10L,
                            false);
            b.consumerGroups().joinConsumerGroup(streamId, topicId, group);
            assertThat(partitionsOf(streamId, topicId, group, 1)).isEmpty();

            waitUntil(
                    "partition 1 moves to member 1",
                    Duration.ofSeconds(10),
                    () -> {
                        // Any group access after the timeout completes the move; B's own poll
                        // does.
                        b.messages()
                                .pollMessages(
                                        streamId,
                                        topicId,
                                        Optional.of(1L),
                                        Consumer.group(group),
                                        PollingStrategy.first(),
                                        10L,
                                        false);
                        return !partitionsOf(streamId, topicId, group, 1).isEmpty();
                    });

            assertThat(partitionsOf(streamId, topicId, group, 1)).containsExactly(1L);
            assertThat(
                            texts(
                                    b.messages()
                                            .pollMessages(
                                                    streamId,
                                                    topicId,
                                                    Optional.of(1L),
                                                    Consumer.group(group),
                                                    PollingStrategy.first(),
                                                    10L,
                                                    false)
                                            .messages()))
                    .containsExactly("one");
        } finally {
            Clients.closeAll(members);
        }
    }

    /** The partitions of the member with the given id. */
    private static List<Long> partitionsOf(
            StreamId streamId, TopicId topicId, ConsumerId group, long memberId) {
        return IGGY
                .client()
                .consumerGroups()
                .getConsumerGroup(streamId, topicId, group)
                .orElseThrow()
                .members()
                .stream()
                .filter(m -> m.id() == memberId)
                .map(ConsumerGroupMember::partitions)
                .findFirst()
                .orElseThrow();
    }
}

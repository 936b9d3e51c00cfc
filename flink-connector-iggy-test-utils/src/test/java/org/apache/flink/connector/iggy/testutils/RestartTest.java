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
import org.apache.iggy.consumergroup.ConsumerGroupDetails;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.identifier.UserId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;
import org.apache.iggy.personalaccesstoken.RawPersonalAccessToken;
import org.apache.iggy.user.UserStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.apache.flink.connector.iggy.testutils.TestMessages.offsets;
import static org.apache.flink.connector.iggy.testutils.TestMessages.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link EmbeddedIggyServer#restart()} and {@link EmbeddedIggyServer#disconnectClients()}:
 * connections drop, data survives. Embedded only.
 */
class RestartTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private EmbeddedIggyServer server;

    @BeforeEach
    void requireEmbeddedServer() {
        assumeTrue(IGGY.embeddedServer().isPresent(), "restarts only the embedded server");
        server = IGGY.embeddedServer().orElseThrow();
    }

    @Test
    void restartKeepsStreamsMessagesOffsetsUsersAndTokens() {
        String stream = IGGY.uniqueName("restart");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 2);
        IGGY.send(stream, "t", 1, List.of("a".getBytes(), "b".getBytes()));
        IGGY.client()
                .consumerOffsets()
                .storeConsumerOffset(
                        StreamId.of(stream),
                        TopicId.of("t"),
                        Optional.of(1L),
                        Consumer.of(ConsumerId.of("reader")),
                        BigInteger.ZERO);
        String user = IGGY.uniqueName("u");
        IGGY.client()
                .users()
                .createUser(user, "secret-password", UserStatus.Active, Optional.empty());
        RawPersonalAccessToken token =
                IGGY.client()
                        .personalAccessTokens()
                        .createPersonalAccessToken(IGGY.uniqueName("pat"), BigInteger.ZERO);
        int port = server.port();

        server.restart();

        assertThat(server.port()).isEqualTo(port);
        try (IggyTcpClient client = IGGY.newClient()) {
            assertThat(client.streams().getStream(StreamId.of(stream))).isPresent();
            assertThat(
                            texts(
                                    client.messages()
                                            .pollMessages(
                                                    StreamId.of(stream),
                                                    TopicId.of("t"),
                                                    Optional.of(1L),
                                                    Consumer.of(ConsumerId.of("reader")),
                                                    org.apache.iggy.message.PollingStrategy.next(),
                                                    10L,
                                                    false)
                                            .messages()))
                    .containsExactly("b");
            assertThat(client.users().getUser(UserId.of(user))).isPresent();
        }
        assertThat(IGGY.storedOffset(stream, "t", 1, "reader")).contains(0L);
        try (IggyTcpClient tokenClient =
                IggyTcpClient.builder().host(IGGY.host()).port(IGGY.port()).build()) {
            tokenClient.connect();
            assertThat(
                            tokenClient
                                    .personalAccessTokens()
                                    .loginWithPersonalAccessToken(token.token())
                                    .userId())
                    .isZero();
        }
    }

    @Test
    void offsetsContinueAfterARestart() {
        String stream = IGGY.uniqueName("restart-offsets");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
        IGGY.send(stream, "t", 0, List.of(new byte[1], new byte[1]));

        server.restart();
        IGGY.send(stream, "t", 0, List.of(new byte[1]));

        assertThat(offsets(IGGY.readAll(stream, "t", 0))).containsExactly(0L, 1L, 2L);
    }

    @Test
    void restartDropsConnectionsAndTheirGroupMemberships() {
        String stream = IGGY.uniqueName("restart-groups");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
        StreamId streamId = StreamId.of(stream);
        TopicId topicId = TopicId.of("t");
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        try (IggyTcpClient member = IGGY.newClient()) {
            member.consumerGroups().joinConsumerGroup(streamId, topicId, ConsumerId.of("g"));

            server.restart();

            ConsumerGroupDetails group =
                    IGGY.client()
                            .consumerGroups()
                            .getConsumerGroup(streamId, topicId, ConsumerId.of("g"))
                            .orElseThrow();
            assertThat(group.membersCount()).isZero();
        }
    }

    @Test
    void disconnectClientsDropsConnectionsButKeepsListening() {
        String stream = IGGY.uniqueName("disconnect");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
        IggyTcpClient other = IGGY.newClient();
        try {
            assertThat(server.connectionCount()).isGreaterThanOrEqualTo(2);

            server.disconnectClients();

            assertThat(server.connectionCount()).isZero();
            assertThat(server.isRunning()).isTrue();
            IGGY.send(stream, "t", 0, List.of("after".getBytes()));
            assertThat(texts(IGGY.readAll(stream, "t", 0))).containsExactly("after");
        } finally {
            other.close();
        }
    }

    @Test
    void connectionCountFallsWhenAClientCloses() throws InterruptedException {
        int before = server.connectionCount();
        IggyTcpClient client = IGGY.newClient();
        assertThat(server.connectionCount()).isEqualTo(before + 1);

        client.close();

        waitUntil(
                "the server counts " + before + " connections",
                Duration.ofSeconds(10),
                () -> server.connectionCount() <= before,
                () -> ", it counts " + server.connectionCount());
        assertThat(server.connectionCount()).isEqualTo(before);
    }

    @Test
    void theExtensionsClientWorksAgainAfterARestart() {
        String stream = IGGY.uniqueName("restart-client");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);

        server.restart();

        IGGY.client()
                .messages()
                .sendMessages(
                        StreamId.of(stream),
                        TopicId.of("t"),
                        Partitioning.partitionId(0L),
                        List.of(Message.of("after restart")));
        assertThat(texts(IGGY.readAll(stream, "t", 0))).containsExactly("after restart");
    }
}

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
package org.apache.flink.connector.iggy.common;

import org.apache.flink.connector.iggy.testutils.IggyServerExtension;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.topic.TopicDetails;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Connecting, logging in and looking up topics fail fast with messages that name the fix. */
class IggyClientsITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static IggyConnectionConfig.Builder config() {
        return IggyConnectionConfig.builder()
                .setAddress(IGGY.address())
                .setCredentials(IGGY.username(), IGGY.password())
                .setConnectTimeout(Duration.ofSeconds(5));
    }

    @Test
    void connectsAndDescribesAnExistingTopic() {
        String stream = IGGY.uniqueName("clients");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 3);
        IggyConnectionConfig config = config().build();

        AsyncIggyTcpClient client = IggyClients.connect(config);
        try {
            TopicDetails details =
                    IggyTopics.describe(client, config, IggyId.of(stream), IggyId.of("t"));
            assertThat(details.partitions()).hasSize(3);
        } finally {
            IggyClients.closeQuietly(client);
            IGGY.deleteStream(stream);
        }
    }

    @Test
    void wrongPasswordNamesTheUserButNotThePassword() {
        IggyConnectionConfig config =
                config().setCredentials(IGGY.username(), "wrong-password-42").build();

        assertThatThrownBy(() -> IggyClients.connect(config))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining(IGGY.address())
                .hasMessageContaining("user '" + IGGY.username() + "'")
                .hasMessageContaining("Check the username and password")
                .message()
                .doesNotContain("wrong-password-42");
    }

    @Test
    void unknownPersonalAccessTokenIsRejectedWithoutEchoingIt() {
        IggyConnectionConfig config = config().setPersonalAccessToken("no-such-token-1").build();

        assertThatThrownBy(() -> IggyClients.connect(config))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("personal access token")
                .message()
                .doesNotContain("no-such-token-1");
    }

    @Test
    void unreachableServerFailsWithinTheConnectTimeout() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        IggyConnectionConfig config =
                config().setAddress("127.0.0.1:" + closedPort)
                        .setConnectTimeout(Duration.ofSeconds(2))
                        .build();

        assertThatThrownBy(() -> IggyClients.connect(config))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("Cannot connect to Iggy at 127.0.0.1:" + closedPort)
                .hasMessageContaining("Check that the server is running");
    }

    @Test
    void missingStreamAndMissingTopicAreNamed() {
        String stream = IGGY.uniqueName("clients");
        IGGY.createStream(stream);
        IggyConnectionConfig config = config().build();
        AsyncIggyTcpClient client = IggyClients.connect(config);
        try {
            assertThatThrownBy(
                            () ->
                                    IggyTopics.describe(
                                            client,
                                            config,
                                            IggyId.of(stream + "-missing"),
                                            IggyId.of("t")))
                    .isInstanceOf(IggyConnectorException.class)
                    .hasMessageContaining("stream '" + stream + "-missing' does not exist")
                    .hasMessageContaining("create it first");
            assertThatThrownBy(
                            () ->
                                    IggyTopics.describe(
                                            client, config, IggyId.of(stream), IggyId.of("nope")))
                    .isInstanceOf(IggyConnectorException.class)
                    .hasMessageContaining("topic 'nope' does not exist in stream '" + stream + "'");
        } finally {
            IggyClients.closeQuietly(client);
            IGGY.deleteStream(stream);
        }
    }
}

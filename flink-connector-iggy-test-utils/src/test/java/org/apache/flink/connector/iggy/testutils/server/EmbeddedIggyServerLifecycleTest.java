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
package org.apache.flink.connector.iggy.testutils.server;

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.exception.IggyAuthenticationException;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Start, stop, ports and credentials of the server itself (no extension involved). */
class EmbeddedIggyServerLifecycleTest {

    @Test
    void ephemeralPortIsChosenAtStartAndKeptAcrossRestarts() {
        try (EmbeddedIggyServer server =
                EmbeddedIggyServer.start(EmbeddedIggyServer.Config.defaults())) {
            int port = server.port();
            assertThat(port).isPositive();
            assertThat(server.address()).isEqualTo("127.0.0.1:" + port);

            server.stop();
            assertThat(server.isRunning()).isFalse();
            server.start();

            assertThat(server.isRunning()).isTrue();
            assertThat(server.port()).isEqualTo(port);
        }
    }

    @Test
    void configuredPortIsUsed() throws Exception {
        int free;
        try (ServerSocket probe = new ServerSocket(0)) {
            free = probe.getLocalPort();
        }
        try (EmbeddedIggyServer server =
                EmbeddedIggyServer.start(EmbeddedIggyServer.Config.builder().port(free).build())) {
            assertThat(server.port()).isEqualTo(free);
        }
    }

    @Test
    void wildcardHostIsReachedThroughLoopback() {
        try (EmbeddedIggyServer server =
                        EmbeddedIggyServer.start(
                                EmbeddedIggyServer.Config.builder().host("0.0.0.0").build());
                IggyTcpClient client = login(server, "iggy", "iggy")) {
            assertThat(server.host()).isEqualTo("127.0.0.1");
            assertThat(client.system().ping()).isEqualTo("pong");
        }
    }

    @Test
    void rootCredentialsAreConfigurable() {
        try (EmbeddedIggyServer server =
                EmbeddedIggyServer.start(
                        EmbeddedIggyServer.Config.builder()
                                .rootCredentials("admin", "s3cret")
                                .build())) {
            try (IggyTcpClient client = login(server, "admin", "s3cret")) {
                assertThat(client.streams().getStreams()).isEmpty();
            }
            assertThatThrownBy(() -> login(server, "iggy", "iggy"))
                    .isInstanceOf(IggyAuthenticationException.class);
        }
    }

    @Test
    void startingTwiceIsRefusedAndStoppingTwiceIsHarmless() {
        EmbeddedIggyServer server = EmbeddedIggyServer.start(EmbeddedIggyServer.Config.defaults());
        try {
            assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class);
        } finally {
            server.stop();
            server.close();
        }
        assertThat(server.isRunning()).isFalse();
    }

    @Test
    void deduplicationSettingsAreValidated() {
        assertThatThrownBy(
                        () ->
                                new EmbeddedIggyServer.Config.Deduplication(
                                        true, 0, java.time.Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(EmbeddedIggyServer.Config.defaults().deduplication().enabled()).isFalse();
        assertThat(
                        EmbeddedIggyServer.Config.builder()
                                .deduplicationEnabled()
                                .build()
                                .deduplication()
                                .maxEntries())
                .isEqualTo(10_000);
    }

    @Test
    void segmentSettingsAreValidatedAndCarriedByToBuilder() {
        EmbeddedIggyServer.Config defaults = EmbeddedIggyServer.Config.defaults();
        assertThat(defaults.segmentSize()).as("the real server's 1 GiB").isEqualTo(1L << 30);
        assertThat(defaults.deleteOldestSegments()).isFalse();
        assertThatThrownBy(() -> EmbeddedIggyServer.Config.builder().segmentSize(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("segmentSize must be positive");
        assertThatThrownBy(() -> EmbeddedIggyServer.Config.builder().segmentSize(-1))
                .isInstanceOf(IllegalArgumentException.class);

        EmbeddedIggyServer.Config config =
                EmbeddedIggyServer.Config.builder()
                        .segmentSize(256L << 20)
                        .deleteOldestSegments(true)
                        .build();
        EmbeddedIggyServer.Config derived = config.toBuilder().port(1234).build();

        assertThat(derived.segmentSize()).isEqualTo(256L << 20);
        assertThat(derived.deleteOldestSegments()).isTrue();
        assertThat(derived.toString())
                .contains("segmentSize=268435456", "deleteOldestSegments=true");
    }

    private static IggyTcpClient login(EmbeddedIggyServer server, String user, String password) {
        return IggyTcpClient.builder()
                .host(server.host())
                .port(server.port())
                .credentials(user, password)
                .buildAndLogin();
    }
}

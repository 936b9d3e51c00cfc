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
package org.apache.flink.connector.iggy.common.client;

import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.TcpProxy;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.util.ExceptionUtils;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

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

        try (IggyServerClient client = IggyServerClient.connect(config, new SimpleCounter())) {
            assertThat(client.describe(IggyId.of(stream), IggyId.of("t")).partitions()).hasSize(3);
        } finally {
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

    /**
     * The SDK does not notice a connection that closes under a request: without help the request
     * waited for the whole request timeout (30 s here). The connection opened to replace it counts
     * once in {@code reconnects}: a client of one connection, since a pooled client may serve the
     * next request on another connection it already has.
     */
    @Test
    void aConnectionThatClosesWithARequestInFlightFailsItAtOnceSayingSo() {
        try (TcpProxy proxy = TcpProxy.start(IGGY.host(), IGGY.port())) {
            IggyConnectionConfig config =
                    config().setAddress(proxy.address())
                            .setRequestTimeout(Duration.ofSeconds(30))
                            .build();
            SimpleCounter reconnects = new SimpleCounter();
            AsyncIggyTcpClient client =
                    IggyClients.connect(
                            config, IggyClients.oneConnection(config), reconnects, true);
            try {
                proxy.closeOnNextRequest();
                long start = System.nanoTime();
                assertThatThrownBy(
                                () ->
                                        IggyClients.await(
                                                client.streams().getStreams(),
                                                config.requestTimeout(),
                                                "list streams"))
                        .isInstanceOf(IggyConnectorException.class)
                        .hasMessageContaining("connection to Iggy at " + proxy.address())
                        .hasMessageContaining("closed")
                        .hasNoCause();
                // A correctness deadline far below the request timeout, not a speed target.
                assertThat(Duration.ofNanos(System.nanoTime() - start))
                        .isLessThan(Duration.ofSeconds(3));
                assertThat(proxy.connectionsClosedWithARequest()).isEqualTo(1);

                assertThat(reconnects.getCount()).as("nothing opened again yet").isZero();

                // The pool opens (and logs in) a new connection for the next request: a reconnect.
                assertThat(
                                IggyClients.await(
                                        client.streams().getStreams(),
                                        config.requestTimeout(),
                                        "list streams"))
                        .isNotNull();
                assertThat(reconnects.getCount()).isEqualTo(1);
            } finally {
                IggyClients.closeAndWait(client);
            }
            assertThat(reconnects.getCount()).as("closing the client is no reconnect").isEqualTo(1);
        }
    }

    /** Connections the pool adds to serve requests at once are no reconnects. */
    @Test
    void connectionsAddedForConcurrentRequestsAreNoReconnects() {
        IggyConnectionConfig config = config().build();
        SimpleCounter reconnects = new SimpleCounter();
        AsyncIggyTcpClient client =
                IggyClients.connect(config, AsyncIggyTcpClient.builder(), reconnects, true);
        try {
            List<CompletableFuture<?>> concurrent = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                concurrent.add(client.streams().getStreams());
            }
            for (CompletableFuture<?> request : concurrent) {
                IggyClients.await(request, config.requestTimeout(), "list streams");
            }
        } finally {
            IggyClients.closeAndWait(client);
        }
        assertThat(reconnects.getCount()).as("also not closing the client").isZero();
    }

    /**
     * A server that accepts TCP and never answers: the login times out, the connect timeout bounds
     * the whole attempt (closing the client is not waited for), and the message says what happened
     * instead of blaming the credentials.
     */
    @Test
    void aServerThatNeverAnswersFailsWithinTheConnectTimeoutNamingTheLogin() throws IOException {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + silent.getLocalPort();
            Duration connectTimeout = Duration.ofSeconds(2);
            IggyConnectionConfig config =
                    config().setAddress(address).setConnectTimeout(connectTimeout).build();

            long start = System.nanoTime();
            Throwable failure = catchThrowable(() -> IggyClients.connect(config));
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(failure)
                    .isInstanceOf(IggyConnectorException.class)
                    .hasMessageContaining("Cannot log in to Iggy at " + address)
                    .hasMessageContaining("did not answer the login request within PT2S")
                    .hasMessageContaining("TCP port of an Iggy server")
                    .hasMessageContaining("whether the server expects TLS (setTlsEnabled(true))")
                    .message()
                    .doesNotContain("username and password");
            // A correctness deadline (the connect timeout plus a margin), not a speed target.
            assertThat(took).isLessThan(connectTimeout.plusSeconds(1));
        }
    }

    /** Flink's SQL client prints only the root cause: that must be our text. */
    @Test
    void connectionFailuresAreTheirOwnRootCauseAndCarryTheOriginal() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        IggyConnectionConfig refused = config().setAddress("127.0.0.1:" + closedPort).build();
        IggyConnectionConfig wrongPassword =
                config().setCredentials(IGGY.username(), "wrong-password-42").build();

        Throwable notConnected = catchThrowable(() -> IggyClients.connect(refused));
        Throwable notLoggedIn = catchThrowable(() -> IggyClients.connect(wrongPassword));

        Throwable asFlinkShowsIt =
                ExceptionUtils.stripException(
                        new RuntimeException("Job failed", notConnected), RuntimeException.class);
        assertThat(rootCause(new RuntimeException("Job failed", notConnected)))
                .isSameAs(notConnected)
                .isSameAs(asFlinkShowsIt)
                .hasMessageContaining("Cannot connect to Iggy at 127.0.0.1:" + closedPort)
                .hasMessageContaining("ConnectException");
        assertThat(notConnected.getSuppressed()).isNotEmpty();
        // Flink's SQL client shows the text after the last "Caused by: " of the whole trace.
        String[] causes =
                ExceptionUtils.stringifyException(new RuntimeException("Job failed", notConnected))
                        .split("Caused by: ");
        assertThat(causes[causes.length - 1])
                .startsWith(IggyConnectorException.class.getName() + ": Cannot connect to Iggy");
        assertThat(rootCause(notLoggedIn))
                .isSameAs(notLoggedIn)
                .hasMessageContaining("Cannot log in to Iggy")
                .hasMessageContaining("Check the username and password");
    }

    private static Throwable rootCause(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root;
    }

    @Test
    void missingStreamAndMissingTopicAreNamed() {
        String stream = IGGY.uniqueName("clients");
        IGGY.createStream(stream);
        IggyConnectionConfig config = config().build();
        try (IggyServerClient client = IggyServerClient.connect(config, new SimpleCounter())) {
            assertThatThrownBy(
                            () -> client.describe(IggyId.of(stream + "-missing"), IggyId.of("t")))
                    .isInstanceOf(IggyConnectorException.class)
                    .hasMessageContaining("stream '" + stream + "-missing' does not exist")
                    .hasMessageContaining("create it first");
            assertThatThrownBy(() -> client.describe(IggyId.of(stream), IggyId.of("nope")))
                    .isInstanceOf(IggyConnectorException.class)
                    .hasMessageContaining("topic 'nope' does not exist in stream '" + stream + "'")
                    .hasMessageNotContaining("did you mean");
        } finally {
            IGGY.deleteStream(stream);
        }
    }

    @Test
    void aMisspeltStreamOrTopicNamesTheClosestExistingOnes() {
        String stream = IGGY.uniqueName("suggest");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "events", 1);
        IGGY.createTopic(stream, "orders", 1);
        try (IggyServerClient client =
                IggyServerClient.connect(config().build(), new SimpleCounter())) {
            assertThatThrownBy(() -> client.describe(IggyId.of(stream), IggyId.of("evnts")))
                    .isInstanceOf(IggyConfigurationException.class)
                    .hasMessageContaining(
                            "Iggy topic 'evnts' does not exist in stream '"
                                    + stream
                                    + "' at "
                                    + config().build().address()
                                    + " (did you mean 'events'?). The connector never creates"
                                    + " topics");
            assertThatThrownBy(() -> client.describe(IggyId.of(stream), IggyId.of("ordres")))
                    .hasMessageContaining("(did you mean 'orders'?)");
            String misspelt = stream + "x";
            assertThatThrownBy(() -> client.describe(IggyId.of(misspelt), IggyId.of("events")))
                    .isInstanceOf(IggyConfigurationException.class)
                    .hasMessageContaining("Iggy stream '" + misspelt + "' does not exist at ")
                    .hasMessageContaining(" (did you mean ")
                    .hasMessageContaining("'" + stream + "'");
        } finally {
            IGGY.deleteStream(stream);
        }
    }
}

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

import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.pool.FixedChannelPool;
import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The workarounds that reach the SDK's Netty connections, against a server. */
class IggySdkITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static final SdkInternals SDK = internals();

    private static SdkInternals internals() {
        try {
            return SdkInternals.resolve();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static IggyConnectionConfig.Builder config() {
        return IggyConnectionConfig.builder()
                .setAddress(IGGY.address())
                .setCredentials(IGGY.username(), IGGY.password())
                .setConnectTimeout(Duration.ofSeconds(5));
    }

    /**
     * The SDK's {@code connect()} completes before its connection is back in the pool. Watching
     * must still reach that connection, not a second one the pool opens meanwhile: a request on the
     * unwatched one waited out the request timeout when its connection closed (seen once in CI).
     * Holding the connection stands in for a give-back that has not run yet.
     */
    @Test
    void theConnectionConnectOpenedIsWatchedAlthoughItIsGivenBackLate() throws Exception {
        AsyncIggyTcpClient client =
                AsyncIggyTcpClient.builder().host(IGGY.host()).port(IGGY.port()).build();
        try {
            client.connect().get(5, TimeUnit.SECONDS);
            FixedChannelPool pool = SDK.pool(client);
            // Borrowing during the SDK's own late give-back would open a second connection.
            waitUntil(
                    "connect() gave its connection back",
                    Duration.ofSeconds(5),
                    () -> pool.acquiredChannelCount() == 0);
            Channel opened = pool.acquire().get(5, TimeUnit.SECONDS);

            CompletableFuture<Void> watched =
                    SdkChannels.watch(SDK, client, IGGY.address(), false, () -> {}, true);
            assertThat(watched).isNotDone();
            pool.release(opened);
            watched.get(5, TimeUnit.SECONDS);

            assertThat(opened.pipeline().get(SdkChannels.WATCHER_NAME)).isNotNull();
        } finally {
            IggyClients.closeAndWait(client);
        }
    }

    /**
     * Closing a client ends its threads in a tenth of a second, not after Netty's 2 s quiet period,
     * which the SDK's own close waits and every task end and SQL client exit used to pay. No
     * request is left waiting: the one in flight fails saying its connection closed, the one
     * waiting for the connection fails too.
     */
    @Test
    void closingSkipsNettysQuietPeriodAndFailsTheRequestsLeft() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + silent.getLocalPort();
            AsyncIggyTcpClient client =
                    AsyncIggyTcpClient.builder()
                            .host("127.0.0.1")
                            .port(silent.getLocalPort())
                            .connectionPoolSize(1)
                            .build();
            client.connect().get(5, TimeUnit.SECONDS);
            SdkChannels.watch(SDK, client, address, false, () -> {}, true).get(5, TimeUnit.SECONDS);
            EventLoopGroup loops = SDK.bootstrap(SDK.pool(client)).config().group();
            try (Socket server = silent.accept()) {
                server.setSoTimeout(5_000);
                CompletableFuture<String> inFlight = client.system().ping();
                assertThat(server.getInputStream().read()).isNotNegative(); // the ping was sent
                CompletableFuture<String> waiting = client.system().ping(); // the pool holds 1

                long start = System.nanoTime();
                IggyClients.closeAndWait(client);
                Duration took = Duration.ofNanos(System.nanoTime() - start);

                assertThat(loops.isTerminated()).isTrue();
                // Correctness, not a speed target: the quiet period is not waited.
                assertThat(took).isLessThan(Duration.ofSeconds(2));
                assertThatThrownBy(() -> inFlight.get(5, TimeUnit.SECONDS))
                        .hasMessageContaining(SdkChannels.closedMessage(address));
                assertThatThrownBy(() -> waiting.get(5, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class);
            }
        }
    }

    /**
     * Flink may interrupt a closing task or coordinator: the client's threads must end all the
     * same, before the job's class loader goes, and the interrupt is kept for the caller.
     */
    @Test
    void anInterruptedCloseStillEndsTheThreads() throws Exception {
        AsyncIggyTcpClient client = IggyClients.connect(config().build());
        EventLoopGroup loops = SDK.bootstrap(SDK.pool(client)).config().group();

        Thread.currentThread().interrupt();
        boolean stillInterrupted;
        try {
            IggyClients.closeAndWait(client);
        } finally {
            stillInterrupted = Thread.interrupted();
        }

        assertThat(stillInterrupted).isTrue();
        assertThat(loops.isTerminated()).isTrue();
    }
}

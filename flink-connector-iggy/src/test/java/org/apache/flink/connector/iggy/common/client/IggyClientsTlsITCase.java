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
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.server.SelfSignedCertificate;

import io.netty.channel.Channel;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.channel.pool.SimpleChannelPool;
import io.netty.handler.ssl.SslHandler;
import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Deque;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TLS against the in-JVM server's TLS listener: the right CA connects; a wrong or missing CA, TLS
 * against plain TCP and plain TCP against TLS each fail naming what failed and the fix, never the
 * credentials.
 */
class IggyClientsTlsITCase {

    @RegisterExtension static final IggyServerExtension TLS = new IggyServerExtension().withTls();

    @RegisterExtension static final IggyServerExtension PLAIN = new IggyServerExtension();

    @TempDir static Path certificates;

    private static IggyConnectionConfig.Builder config(IggyServerExtension server) {
        return IggyConnectionConfig.builder()
                .setAddress(server.address())
                .setCredentials(server.username(), server.password())
                .setConnectTimeout(Duration.ofSeconds(3));
    }

    @Test
    void trustingTheServersCaConnectsOverTls() {
        IggyConnectionConfig config =
                config(TLS).setTlsCertificate(TLS.tlsCertificatePath().toString()).build();

        AsyncIggyTcpClient client = IggyClients.connect(config);
        try {
            assertThat(
                            IggyClients.await(
                                    client.streams().getStreams(),
                                    config.requestTimeout(),
                                    "list streams"))
                    .isNotNull();
        } finally {
            IggyClients.closeAndWait(client);
        }
    }

    @Test
    void aWrongCaFailsTheHandshakeNamingTheCertificateFile() {
        String wrongCa =
                SelfSignedCertificate.generate().writeCertificatePem(certificates).toString();
        IggyConnectionConfig config = config(TLS).setTlsCertificate(wrongCa).build();

        assertThatThrownBy(() -> IggyClients.connect(config))
                .isInstanceOf(IggyConnectorException.class)
                .hasNoCause()
                .hasMessageContaining("Cannot connect to Iggy at " + TLS.address())
                .hasMessageContaining("TLS handshake failed")
                .hasMessageContaining("certificate is not trusted")
                .hasMessageContaining(wrongCa)
                .message()
                .doesNotContain("..")
                .doesNotContain("username and password")
                .doesNotContain("'tls.enabled'");
    }

    /**
     * A failed handshake closes the connection, and Netty then removes its handlers, the TLS one
     * too: when that happened before the connector looked at the connection the SDK opened, the
     * certificate's failure was lost and the error said the server did not speak TLS.
     *
     * <p>The SDK's {@code connect()} gives its connection back to the pool without waiting for the
     * handshake. If the handshake failed first, the pool drops the closed connection; otherwise it
     * keeps it idle until it closes. Either way the connector finds no usable connection with its
     * handshake, and its error must still name the certificate.
     */
    @Test
    void aHandshakeThatFailedBeforeTheConnectorLookedStillNamesTheCertificate() throws Exception {
        String wrongCa =
                SelfSignedCertificate.generate().writeCertificatePem(certificates).toString();
        IggyConnectionConfig config = config(TLS).setTlsCertificate(wrongCa).build();
        AsyncIggyTcpClient client =
                AsyncIggyTcpClient.builder()
                        .host(config.host())
                        .port(config.port())
                        .tls(true)
                        .tlsCertificate(wrongCa)
                        .credentials(TLS.username(), TLS.password())
                        .connectionPoolSize(1)
                        .build();
        try {
            IggyClients.await(client.connect(), config.connectTimeout(), "connect");
            FixedChannelPool pool = SdkInternals.resolve().pool(client);
            Deque<Channel> idle = idleConnections(pool);
            waitUntil(
                    "the SDK's connection given back to its pool, and then either dropped by the"
                            + " pool or closed without its TLS handler",
                    Duration.ofSeconds(10),
                    () -> {
                        if (pool.acquiredChannelCount() > 0) {
                            return false;
                        }
                        Channel first = idle.peekFirst();
                        return first == null
                                || (!first.isOpen()
                                        && first.pipeline().get(SslHandler.class) == null);
                    });

            assertThatThrownBy(
                            () ->
                                    IggyClients.await(
                                            IggySdk.get()
                                                    .watchConnections(
                                                            client,
                                                            config.address(),
                                                            true,
                                                            () -> {},
                                                            true),
                                            config.connectTimeout(),
                                            "complete the TLS handshake"))
                    .satisfies(
                            failure ->
                                    assertThat(
                                                    ConnectionFailures.tlsHandshakeFailed(
                                                                    config, failure)
                                                            .getMessage())
                                            .contains("certificate is not trusted")
                                            .contains(wrongCa));
        } finally {
            IggyClients.closeAndWait(client);
        }
    }

    @SuppressWarnings("unchecked")
    private static Deque<Channel> idleConnections(FixedChannelPool pool) throws Exception {
        Field deque = SimpleChannelPool.class.getDeclaredField("deque");
        deque.setAccessible(true);
        return (Deque<Channel>) deque.get(pool);
    }

    @Test
    void noCaFailsTheHandshakeNamingTheSetting() {
        IggyConnectionConfig config = config(TLS).setTlsEnabled(true).build();

        assertThatThrownBy(() -> IggyClients.connect(config))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("TLS handshake failed")
                .hasMessageContaining("certificate is not trusted")
                .hasMessageContaining("(setTlsCertificate)");
    }

    @Test
    void plainTcpAgainstATlsServerSaysToTurnTlsOn() {
        IggyConnectionConfig config = config(TLS).build();

        assertThatThrownBy(() -> IggyClients.connect(config))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("Cannot log in to Iggy at " + TLS.address())
                .hasMessageContaining("(setTlsEnabled(true))")
                .message()
                .doesNotContain("username and password")
                .doesNotContain("'tls.enabled'");
    }

    @Test
    void tlsAgainstAPlainServerSaysToTurnTlsOff() {
        IggyConnectionConfig config =
                config(PLAIN).setTlsCertificate(TLS.tlsCertificatePath().toString()).build();

        assertThatThrownBy(() -> IggyClients.connect(config))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("Cannot connect to Iggy at " + PLAIN.address())
                .hasMessageContaining("TLS handshake")
                .hasMessageContaining("turn TLS off (setTlsEnabled(false))")
                .message()
                .doesNotContain("username and password")
                .doesNotContain("'tls.enabled'");
    }
}

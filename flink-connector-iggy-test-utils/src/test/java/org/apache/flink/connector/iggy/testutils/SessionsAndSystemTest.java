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

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.exception.IggyAuthenticationException;
import org.apache.iggy.system.ClientInfo;
import org.apache.iggy.system.ClientInfoDetails;
import org.apache.iggy.system.Stats;
import org.apache.iggy.user.IdentityInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.apache.flink.connector.iggy.testutils.IggyErrors.assertServerError;
import static org.assertj.core.api.Assertions.assertThat;

/** Connection sessions, login and logout, ping, stats, get-me and clients (§1.3, §6.1–6.4). */
class SessionsAndSystemTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @Test
    void pingWorksWithoutLogin() {
        try (IggyTcpClient anonymous = connectWithoutLogin()) {
            assertThat(anonymous.system().ping()).isEqualTo("pong");
        }
    }

    @Test
    void rootLoginReturnsUserIdZero() {
        try (IggyTcpClient anonymous = connectWithoutLogin()) {
            IdentityInfo identity = anonymous.users().login(IGGY.username(), IGGY.password());

            assertThat(identity.userId()).isEqualTo(0L);
        }
    }

    @Test
    void wrongPasswordOrUnknownUserIsInvalidCredentials() {
        try (IggyTcpClient anonymous = connectWithoutLogin()) {
            assertServerError(
                    () -> anonymous.users().login(IGGY.username(), "wrong-password"),
                    IggyAuthenticationException.class,
                    42);
            assertServerError(
                    () -> anonymous.users().login("no-such-user", "whatever"),
                    IggyAuthenticationException.class,
                    42);
        }
    }

    @Test
    void tooShortUsernameOrPasswordIsRejectedBeforeLookup() {
        try (IggyTcpClient anonymous = connectWithoutLogin()) {
            assertServerError(
                    () -> anonymous.users().login("ab", "whatever"),
                    IggyAuthenticationException.class,
                    43);
            assertServerError(
                    () -> anonymous.users().login(IGGY.username(), "pw"),
                    IggyAuthenticationException.class,
                    44);
        }
    }

    @Test
    void commandsBeforeLoginAreUnauthenticated() {
        // The SDK sends GET_STATS without replaying a login, so the server's 40 reaches us.
        try (IggyTcpClient anonymous = connectWithoutLogin()) {
            assertServerError(
                    () -> anonymous.system().getStats(), IggyAuthenticationException.class, 40);
        }
    }

    @Test
    void logoutEndsTheSessionsLogin() {
        try (IggyTcpClient client = IGGY.newClient()) {
            assertThat(client.system().getStats().hostname()).isNotEmpty();

            client.users().logout();

            assertServerError(
                    () -> client.system().getStats(), IggyAuthenticationException.class, 40);
            client.users().login(IGGY.username(), IGGY.password());
            assertThat(client.system().getStats().hostname()).isNotEmpty();
        }
    }

    @Test
    void statsCountTheCatalog() {
        String stream = IGGY.uniqueName("stats");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 2);
        IGGY.send(stream, "t", 0, java.util.List.of(new byte[3]));

        Stats stats = IGGY.client().system().getStats();

        assertThat(stats.hostname()).isNotEmpty();
        assertThat(stats.streamsCount()).isGreaterThanOrEqualTo(1L);
        assertThat(stats.topicsCount()).isGreaterThanOrEqualTo(1L);
        assertThat(stats.partitionsCount()).isGreaterThanOrEqualTo(2L);
        assertThat(stats.messagesCount()).isGreaterThanOrEqualTo(java.math.BigInteger.ONE);
        assertThat(stats.clientsCount()).isGreaterThanOrEqualTo(1L);
    }

    @Test
    void getMeDescribesThisConnectionAndGetClientsListsIt() {
        ClientInfoDetails me = IGGY.client().system().getMe();

        assertThat(me.clientId()).isPositive();
        assertThat(me.transport()).isEqualTo("Tcp");
        assertThat(me.address()).contains(":");
        // Root is user 0, which the SDK shows as "no user".
        assertThat(me.userId()).isEmpty();
        assertThat(IGGY.client().system().getClients())
                .extracting(ClientInfo::clientId)
                .contains(me.clientId());
        assertThat(IGGY.client().system().getClient(me.clientId()).clientId())
                .isEqualTo(me.clientId());
    }

    @Test
    void clientIdZeroIsInvalid() {
        // 101 is not in the SDK's table, so it surfaces as a plain server exception.
        assertServerError(
                () -> IGGY.client().system().getClient(0L),
                org.apache.iggy.exception.IggyServerException.class,
                101);
    }

    @Test
    void eachConnectionIsItsOwnClient() {
        try (IggyTcpClient first = IGGY.newClient();
                IggyTcpClient second = IGGY.newClient()) {
            assertThat(first.system().getMe().clientId())
                    .isNotEqualTo(second.system().getMe().clientId());
        }
    }

    private static IggyTcpClient connectWithoutLogin() {
        IggyTcpClient client = IggyTcpClient.builder().host(IGGY.host()).port(IGGY.port()).build();
        client.connect();
        return client;
    }
}

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
import org.apache.iggy.exception.IggyConflictException;
import org.apache.iggy.exception.IggyResourceNotFoundException;
import org.apache.iggy.personalaccesstoken.PersonalAccessTokenInfo;
import org.apache.iggy.personalaccesstoken.RawPersonalAccessToken;
import org.apache.iggy.stream.StreamBase;
import org.apache.iggy.user.IdentityInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.apache.flink.connector.iggy.testutils.IggyErrors.assertServerError;
import static org.assertj.core.api.Assertions.assertThat;

/** Personal access tokens (docs/development/iggy-protocol.md §6.3). */
class PersonalAccessTokensTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private final List<String> createdTokens = new ArrayList<>();

    @AfterEach
    void deleteTokens() {
        for (String name : createdTokens) {
            try {
                IGGY.client().personalAccessTokens().deletePersonalAccessToken(name);
            } catch (RuntimeException e) {
                // already deleted by the test
            }
        }
    }

    @Test
    void createdTokenLogsInAsItsUser() {
        RawPersonalAccessToken token = create(IGGY.uniqueName("pat"), BigInteger.ZERO);
        String stream = IGGY.uniqueName("pat-stream");
        IGGY.createStream(stream);

        try (IggyTcpClient client = connectWithoutLogin()) {
            IdentityInfo identity =
                    client.personalAccessTokens().loginWithPersonalAccessToken(token.token());

            assertThat(identity.userId()).isEqualTo(0L);
            assertThat(client.streams().getStreams())
                    .as("the token's session sees what its user sees")
                    .extracting(StreamBase::name)
                    .contains(stream);
        }
    }

    @Test
    void tokensAreListedWithTheirExpiry() {
        String forever = IGGY.uniqueName("pat");
        String expiring = IGGY.uniqueName("pat");
        create(forever, BigInteger.ZERO);
        long before = nowMicros();
        create(expiring, BigInteger.valueOf(3_600_000_000L));

        List<PersonalAccessTokenInfo> tokens =
                IGGY.client().personalAccessTokens().getPersonalAccessTokens();

        PersonalAccessTokenInfo foreverInfo = find(tokens, forever);
        PersonalAccessTokenInfo expiringInfo = find(tokens, expiring);
        assertThat(foreverInfo.expiryAt()).isEmpty();
        assertThat(expiringInfo.expiryAt().orElseThrow().longValueExact())
                .isGreaterThanOrEqualTo(before + 3_600_000_000L);
    }

    @Test
    void deletedOrUnknownTokenCannotLogIn() {
        String name = IGGY.uniqueName("pat");
        RawPersonalAccessToken token = create(name, BigInteger.ZERO);
        IGGY.client().personalAccessTokens().deletePersonalAccessToken(name);

        try (IggyTcpClient client = connectWithoutLogin()) {
            assertServerError(
                    () -> client.personalAccessTokens().loginWithPersonalAccessToken(token.token()),
                    IggyResourceNotFoundException.class,
                    20);
            assertServerError(
                    () ->
                            client.personalAccessTokens()
                                    .loginWithPersonalAccessToken("no-such-token-value"),
                    IggyResourceNotFoundException.class,
                    20);
        }
        assertThat(IGGY.client().personalAccessTokens().getPersonalAccessTokens())
                .extracting(PersonalAccessTokenInfo::name)
                .doesNotContain(name);
    }

    @Test
    void duplicateTokenNameIsAConflict() {
        String name = IGGY.uniqueName("pat");
        create(name, BigInteger.ZERO);

        // The server's 51 is CLIENT_ALREADY_EXISTS in the SDK's table: still a conflict.
        assertServerError(() -> create(name, BigInteger.ZERO), IggyConflictException.class, 51);
    }

    @Test
    void expiredTokenIsRefused() throws InterruptedException {
        RawPersonalAccessToken token = create(IGGY.uniqueName("pat"), BigInteger.valueOf(50_000));
        long expiresAfter = nowMicros() + 50_000;
        waitUntil(
                "the token's expiry passes",
                Duration.ofSeconds(5),
                () -> nowMicros() > expiresAfter);

        try (IggyTcpClient client = connectWithoutLogin()) {
            // 54 is PAT_NAME_ALREADY_EXISTS in the SDK's table, hence a "conflict".
            assertServerError(
                    () -> client.personalAccessTokens().loginWithPersonalAccessToken(token.token()),
                    IggyConflictException.class,
                    54);
        }
    }

    private RawPersonalAccessToken create(String name, BigInteger expiry) {
        RawPersonalAccessToken token =
                IGGY.client().personalAccessTokens().createPersonalAccessToken(name, expiry);
        createdTokens.add(name);
        return token;
    }

    private static PersonalAccessTokenInfo find(List<PersonalAccessTokenInfo> tokens, String name) {
        return tokens.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    private static IggyTcpClient connectWithoutLogin() {
        IggyTcpClient client = IggyTcpClient.builder().host(IGGY.host()).port(IGGY.port()).build();
        client.connect();
        return client;
    }

    private static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}

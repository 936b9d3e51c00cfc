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
import org.apache.flink.testutils.logging.LoggerAuditingExtension;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.event.Level;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Pins the SDK version and the SDK members the workarounds reach: an SDK upgrade fails here,
 * loudly, instead of silently turning the workarounds off. After an upgrade, check each workaround
 * of {@link IggySdk} against the new SDK (is it still needed, does each member still mean the
 * same), then update {@link IggySdk#CHECKED_SDK_VERSION} and this test.
 */
class IggySdkTest {

    @RegisterExtension
    final LoggerAuditingExtension warnings = new LoggerAuditingExtension(IggySdk.class, Level.WARN);

    @Test
    void theSdkOnTheClassPathIsTheOneTheWorkaroundsWereCheckedAgainst() throws Exception {
        Path sdkJar =
                Paths.get(
                        AsyncIggyTcpClient.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                                .toURI());

        assertThat(sdkJar.getFileName().toString())
                .as(
                        "The Iggy SDK is no longer %s: check every workaround of IggySdk against"
                                + " it, then update IggySdk.CHECKED_SDK_VERSION and this test",
                        IggySdk.CHECKED_SDK_VERSION)
                .isEqualTo("iggy-" + IggySdk.CHECKED_SDK_VERSION + ".jar");
    }

    @Test
    void everyReflectedMemberIsFoundAndNoOtherIsUsed() {
        assertThat(IggySdk.get().active()).isTrue();
        assertThat(IggySdk.get().reflectedMembers())
                .containsExactly(
                        "AsyncIggyTcpClient.connection",
                        "AsyncTcpConnection.channelPool",
                        "SimpleChannelPool.bootstrap",
                        "AsyncTcpConnection.IggyResponseHandler");
    }

    @Test
    void aRenamedOrRetypedMemberIsNamed() {
        assertThatThrownBy(
                        () ->
                                SdkInternals.resolve(
                                        SdkInternals.CONNECTION,
                                        "pool",
                                        SdkInternals.BOOTSTRAP,
                                        SdkInternals.RESPONSE_HANDLER))
                .isInstanceOf(NoSuchFieldException.class)
                .hasMessageContaining("pool");
        assertThatThrownBy(
                        () ->
                                SdkInternals.resolve(
                                        SdkInternals.CONNECTION,
                                        "isClosed", // there, but not a pool
                                        SdkInternals.BOOTSTRAP,
                                        SdkInternals.RESPONSE_HANDLER))
                .isInstanceOf(NoSuchFieldException.class)
                .hasMessageContaining("AsyncTcpConnection.isClosed is a");
        assertThatThrownBy(
                        () ->
                                SdkInternals.resolve(
                                        SdkInternals.CONNECTION,
                                        SdkInternals.CHANNEL_POOL,
                                        SdkInternals.BOOTSTRAP,
                                        "ResponseHandler"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    /** Without the SDK's members the client works as the plain SDK does, and each loss is said. */
    @Test
    void theFallbackDoesNothingAndWarnsOnEveryDegradedStep() throws Exception {
        IggySdk fallback = new IggySdk(null);
        AsyncIggyTcpClient client = AsyncIggyTcpClient.builder().host("127.0.0.1").port(1).build();

        assertThat(fallback.active()).isFalse();
        assertThat(fallback.reflectedMembers()).isEmpty();
        assertThat(fallback.watchConnections(client, "127.0.0.1:1", false, () -> {}, true))
                .isCompleted();
        fallback.close(client, Duration.ofSeconds(5));

        List<String> messages = warnings.getMessages();
        assertThat(messages).hasSize(2);
        assertThat(messages.get(0)).contains("127.0.0.1:1").contains("request timeout");
        assertThat(messages.get(1)).contains("2 s");
    }

    /** A flush needs the client's connection: without it, a configuration error names the fix. */
    @Test
    void theFallbackCannotFlushAndSaysHowToGoOn() {
        AsyncIggyTcpClient client = AsyncIggyTcpClient.builder().host("127.0.0.1").port(1).build();

        assertThat(
                        new IggySdk(null)
                                .flushUnsavedBuffer(
                                        client, StreamId.of("s"), TopicId.of("t"), 0, true))
                .failsWithin(Duration.ZERO)
                .withThrowableOfType(ExecutionException.class)
                .havingCause()
                .isInstanceOf(IggyConfigurationException.class)
                .withMessageContaining(IggySdk.CHECKED_SDK_VERSION)
                .withMessageContaining("fsync before deleting");
    }
}

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
package org.apache.flink.connector.iggy.sink.internal.committer;

import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.sink.WriteAheadTesting;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.TcpProxy;
import org.apache.flink.metrics.SimpleCounter;

import org.apache.iggy.user.StreamPermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import static org.apache.flink.connector.iggy.sink.internal.committer.CommitterTesting.commitUntilCommitted;
import static org.apache.flink.connector.iggy.sink.internal.committer.CommitterTesting.committable;
import static org.apache.flink.connector.iggy.sink.internal.committer.CommitterTesting.committer;
import static org.apache.flink.connector.iggy.sink.internal.committer.CommitterTesting.epochs;
import static org.apache.flink.connector.iggy.sink.internal.committer.CommitterTesting.onceAfter;
import static org.apache.flink.connector.iggy.sink.internal.committer.CommitterTesting.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Zombies: the connections of a failed committer, met by a new committer instance as after a
 * failover (a new epoch in the same write-ahead directory). The zombie goes through a {@link
 * TcpProxy}, the new committer straight to the server; both time out after 1 s.
 */
class CommitterFencingITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static final int BATCH = 10;
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final String PASSWORD = "secret-password";

    private String stream;
    private final String topic = "zombies";

    @TempDir Path dir;

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("fencing");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, topic, 2);
    }

    /**
     * The zombie's second batch is held in the network past its timeout and across the failover.
     * The new committer waits for the zombie's connection instead of reading back, and fails its
     * attempt; once the held batch is applied and the connection ends, its retry finds the batch:
     * each message once, in order. The zombie, connecting again, sends nothing.
     */
    @Test
    void aSendHeldAcrossAFailoverIsNeitherRepeatedNorReordered() throws Exception {
        IggyCommittable committable = committable(dir, stream, topic, 0, 9, 0, 25);
        IggyCommittable zombiesNext = committable(dir, stream, topic, 0, 10, 0, 5);
        CompletableFuture<Void> release = new CompletableFuture<>();
        try (TcpProxy proxy = TcpProxy.start(IGGY.host(), IGGY.port())) {
            IggyCommitter.BetweenSends holdTheSecondBatch =
                    onceAfter(0, () -> proxy.holdNextRequestUntil(release));
            IggyCommitter zombie =
                    committer(
                            dir, config(viaProxy(proxy)), OptionalLong.empty(), holdTheSecondBatch);
            try {
                RecordingCommitRequest first = new RecordingCommitRequest(committable, 0);
                zombie.commit(List.of(first));
                assertThat(first.outcome).as("the held batch timed out").isEqualTo("retry");

                try (IggyCommitter next =
                        committer(
                                dir, config(direct()), OptionalLong.of(9), IggyCommitter.NOTHING)) {
                    RecordingCommitRequest whileHeld = new RecordingCommitRequest(committable, 0);
                    next.commit(List.of(whileHeld));
                    assertThat(whileHeld.outcome)
                            .as("waited for the zombie's connection, then gave up the attempt")
                            .isEqualTo("retry");
                    assertThat(next.messagesReadBack()).as("never read back early").isZero();
                    assertThat(IGGY.messagesCount(stream, topic, 0)).isEqualTo(BATCH);

                    release.complete(null);
                    RecordingCommitRequest done = commitUntilCommitted(next, committable, 1);
                    assertThat(done.outcome).isEqualTo("committed");
                    assertThat(next.messagesResent()).as("the held batch was found").isEqualTo(5);
                }

                RecordingCommitRequest late = new RecordingCommitRequest(zombiesNext, 0);
                zombie.commit(List.of(late));
                assertThat(late.outcome)
                        .as("the zombie's new connection sent nothing")
                        .isEqualTo("retry");
            } finally {
                zombie.close();
            }
        }
        assertThat(texts(IGGY.readAll(stream, topic, 0)))
                .containsExactlyElementsOf(WriteAheadTesting.texts(committable));
    }

    /**
     * The zombie's host vanishes while its second batch is on the way: the server keeps its
     * connection open and idle (half-open). The new committer never reads back while the server
     * lists it; once the connection ends (as TCP keepalive would end it), it commits each message
     * once.
     */
    @Test
    void aHalfOpenConnectionOfAnEarlierAttemptHoldsTheCommitUntilItEnds() throws Exception {
        IggyCommittable committable = committable(dir, stream, topic, 1, 5, 0, 25);
        try (TcpProxy proxy = TcpProxy.start(IGGY.host(), IGGY.port())) {
            IggyCommitter.BetweenSends vanish = onceAfter(0, () -> proxy.stopForwarding());
            try (IggyCommitter zombie =
                    committer(dir, config(viaProxy(proxy)), OptionalLong.empty(), vanish)) {
                RecordingCommitRequest first = new RecordingCommitRequest(committable, 0);
                zombie.commit(List.of(first));
                assertThat(first.outcome).isEqualTo("retry");
            }

            try (IggyCommitter next =
                    committer(dir, config(direct()), OptionalLong.of(5), IggyCommitter.NOTHING)) {
                for (int attempt = 0; attempt < 2; attempt++) {
                    RecordingCommitRequest halfOpen = new RecordingCommitRequest(committable, 0);
                    next.commit(List.of(halfOpen));
                    assertThat(halfOpen.outcome).isEqualTo("retry");
                }
                assertThat(next.messagesReadBack()).as("never read back early").isZero();
                assertThat(IGGY.messagesCount(stream, topic, 1)).isEqualTo(BATCH);

                proxy.close(); // as keepalive ends a half-open connection
                RecordingCommitRequest done = commitUntilCommitted(next, committable, 1);
                assertThat(done.outcome).isEqualTo("committed");
                assertThat(next.messagesResent()).isEqualTo(15);
            }
        }
        assertThat(texts(IGGY.readAll(stream, topic, 1)))
                .containsExactlyElementsOf(WriteAheadTesting.texts(committable));
    }

    /** Past the wait, the attempt fails naming the connection and the fix. */
    @Test
    void aConnectionStillListedAfterTheWaitIsNamedWithTheFix() throws Exception {
        IggyServerClient other = IggyServerClient.connect(direct(), new SimpleCounter());
        IggyServerClient client = IggyServerClient.connect(direct(), new SimpleCounter());
        try {
            long otherId = other.clientId();
            ClientFence fence = new ClientFence(direct(), epochs(dir));
            fence.closedAfterFailure(otherId);
            assertThatThrownBy(() -> fence.await(client))
                    .isInstanceOf(IggyConnectorException.class)
                    .hasMessageContaining(
                            "still lists the connection(s) with client id(s) [" + otherId + "]")
                    .hasMessageContaining("reading back now could repeat them")
                    .hasMessageContaining("TCP keepalive")
                    .hasMessageContaining("keepalive = true");
        } finally {
            other.close();
            client.close();
        }
    }

    @Test
    void aCommitterThatMayNotListClientsIsRefused() throws Exception {
        String user = IGGY.uniqueName("no-read-servers");
        StreamPermissions sendAndRead =
                new StreamPermissions(false, true, false, true, true, true, Map.of());
        IGGY.createUserOfStream(user, PASSWORD, stream, sendAndRead);
        IggyConnectionConfig connection =
                IggyConnectionConfig.builder()
                        .setAddress(IGGY.address())
                        .setCredentials(user, PASSWORD)
                        .setRequestTimeout(TIMEOUT)
                        .build();
        IggyCommittable committable = committable(dir, stream, topic, 0, 3, 0, 5);
        try (IggyCommitter committer =
                committer(dir, config(connection), OptionalLong.empty(), IggyCommitter.NOTHING)) {
            RecordingCommitRequest request = new RecordingCommitRequest(committable, 0);
            assertThatThrownBy(() -> committer.commit(List.of(request)))
                    .rootCause()
                    .isInstanceOf(ClientFence.CannotFence.class)
                    .hasMessageContaining("needs to list the clients")
                    .hasMessageContaining("user '" + user + "'")
                    .hasMessageContaining("permission to read servers")
                    .hasMessageNotContaining(PASSWORD);
            assertThat(request.outcome).isEqualTo("failed");
        }
        assertThat(IGGY.messagesCount(stream, topic, 0)).isZero();
        assertThat(dir.resolve("epochs")).as("no epoch started").doesNotExist();
    }

    private IggyConnectionConfig viaProxy(TcpProxy proxy) {
        return IggyConnectionConfig.builder()
                .setAddress(proxy.address())
                .setCredentials(IGGY.username(), IGGY.password())
                .setRequestTimeout(TIMEOUT)
                .build();
    }

    private static IggyConnectionConfig direct() {
        return IggyConnectionConfig.builder()
                .setAddress(IGGY.address())
                .setCredentials(IGGY.username(), IGGY.password())
                .setRequestTimeout(TIMEOUT)
                .build();
    }

    /** Batches of {@link #BATCH}, one unanswered at a time. */
    private IggyWriterConfig config(IggyConnectionConfig connection) {
        return CommitterTesting.writerConfig(connection, stream, topic, BATCH, 1);
    }
}

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
import org.apache.flink.connector.iggy.sink.ExactlyOnceWriterTest;
import org.apache.flink.connector.iggy.sink.RecordingMetricGroup;
import org.apache.flink.connector.iggy.sink.WriteAheadTesting;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.WireFormat;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.testutils.IggySinkExternalContext;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.TcpProxy;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;

import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.apache.flink.connector.iggy.sink.internal.committer.CommitterTesting.KEEP_FILES;
import static org.apache.flink.connector.iggy.sink.internal.committer.CommitterTesting.commitUntilCommitted;
import static org.apache.flink.connector.iggy.sink.internal.committer.CommitterTesting.committable;
import static org.apache.flink.connector.iggy.sink.internal.committer.CommitterTesting.committer;
import static org.apache.flink.connector.iggy.sink.internal.committer.CommitterTesting.epochs;
import static org.apache.flink.connector.iggy.sink.internal.committer.CommitterTesting.onceAfter;
import static org.apache.flink.connector.iggy.sink.internal.committer.CommitterTesting.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The committer against a server: sending, reading back after a partial commit, failing. */
class IggyCommitterITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static final int BATCH = 10;

    private String stream;
    private final String topic = "eo";
    private IggyWriterConfig config;

    @TempDir Path dir;

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("committer");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, topic, 2);
        config = writerConfig(IggySinkExternalContext.connection(IGGY));
    }

    @Test
    void aFirstAttemptSendsEverythingInOrderWithoutReadingBack() throws Exception {
        IGGY.send(stream, topic, 1, payloads("old", 100));
        IggyCommittable committable = committable(dir, stream, topic, 1, 5, 100, 25);
        RecordingMetricGroup metrics = new RecordingMetricGroup();
        try (IggyCommitter committer =
                new IggyCommitter(
                        config,
                        OptionalLong.empty(),
                        metrics,
                        IggyCommitter.NOTHING,
                        KEEP_FILES,
                        epochs(dir))) {
            RecordingCommitRequest request = new RecordingCommitRequest(committable, 0);
            committer.commit(List.of(request));
            assertThat(request.outcome).isEqualTo("committed");
        }
        assertThat(((Counter) metrics.registered("messagesCommitted")).getCount()).isEqualTo(25);
        assertThat(((Counter) metrics.registered("messagesReadBack")).getCount()).isZero();
        assertThat(((Counter) metrics.registered("messagesResent")).getCount()).isZero();
        assertThat(((Gauge<?>) metrics.registered("iggyPendingCommittables")).getValue())
                .isEqualTo(0);
        assertThat(((Gauge<?>) metrics.registered("readBackTimeMs")).getValue()).isEqualTo(0L);
        assertThat(metrics.registered("reconnects")).isInstanceOf(Counter.class);
        List<Message> stored = IGGY.readAll(stream, topic, 1);
        assertThat(texts(stored.subList(100, stored.size())))
                .containsExactlyElementsOf(WriteAheadTesting.texts(committable));
        assertThat(WireFormat.wireId(stored.get(100).header().id().toBigInteger()))
                .as("the id as sent")
                .isEqualTo(
                        ExactlyOnceWriterTest.wireId(
                                WriteAheadTesting.messages(committable).get(0)));
    }

    @Test
    void afterAFailureBetweenTwoSendsOnlyTheRestIsSentAndOnlyTheCommittablesRangeIsRead()
            throws Exception {
        // a long partition before the committable: reading it all would be the wrong answer
        for (int i = 0; i < 5; i++) {
            IGGY.send(stream, topic, 0, payloads("old" + i + "-", 1000));
        }
        IggyCommittable committable = committable(dir, stream, topic, 0, 7, 5000, 25);
        commitKilledAfterTheFirstBatch(committable);
        assertThat(IGGY.messagesCount(stream, topic, 0)).isEqualTo(5010);

        // restored from checkpoint 7: the committable may have been sent in part
        try (IggyCommitter committer =
                committer(dir, config, OptionalLong.of(7), IggyCommitter.NOTHING)) {
            RecordingCommitRequest request = new RecordingCommitRequest(committable, 0);
            committer.commit(List.of(request));
            assertThat(request.outcome).isEqualTo("committed");
            assertThat(committer.messagesReadBack())
                    .as("read back: the 10 messages after the recorded end offset, no more")
                    .isEqualTo(10)
                    .isLessThanOrEqualTo(WriteAheadTesting.messages(committable).size());
        }
        List<Message> stored = IGGY.readAll(stream, topic, 0);
        assertThat(stored).hasSize(5025);
        assertThat(texts(stored.subList(5000, 5025)))
                .containsExactlyElementsOf(WriteAheadTesting.texts(committable));

        // committed again, e.g. by a retry: nothing is there to send
        try (IggyCommitter committer =
                committer(dir, config, OptionalLong.empty(), IggyCommitter.NOTHING)) {
            RecordingCommitRequest retry = new RecordingCommitRequest(committable, 1);
            committer.commit(List.of(retry));
            assertThat(retry.outcome).isEqualTo("already committed");
            assertThat(committer.messagesReadBack()).isEqualTo(25);
        }
        assertThat(IGGY.messagesCount(stream, topic, 0)).isEqualTo(5025);
    }

    /**
     * The topic is deleted and created again between the checkpoint and the commit, and the first
     * commit fails after 10 sends: the partition's end (10) is below the offset recorded when the
     * committable was made (100), so the retry reads back from the start and sends only the rest.
     */
    @Test
    void aPartitionRecreatedBetweenCheckpointAndCommitIsReadBackFromItsStart() throws Exception {
        IGGY.send(stream, topic, 1, payloads("old", 100));
        IggyCommittable committable = committable(dir, stream, topic, 1, 4, 100, 25);
        IGGY.client().topics().deleteTopic(StreamId.of(stream), TopicId.of(topic));
        IGGY.createTopic(stream, topic, 2);
        commitKilledAfterTheFirstBatch(committable);
        assertThat(IGGY.messagesCount(stream, topic, 1)).isEqualTo(10);

        try (IggyCommitter committer =
                committer(dir, config, OptionalLong.empty(), IggyCommitter.NOTHING)) {
            RecordingCommitRequest retry = new RecordingCommitRequest(committable, 1);
            committer.commit(List.of(retry));
            assertThat(retry.outcome).isEqualTo("committed");
            assertThat(committer.messagesReadBack()).isEqualTo(10);
            assertThat(committer.messagesResent()).isEqualTo(15);
        }
        assertThat(texts(IGGY.readAll(stream, topic, 1)))
                .containsExactlyElementsOf(WriteAheadTesting.texts(committable));
    }

    /**
     * The second batch of a commit reaches the server 2.5 s late, after the committer's 1 s request
     * timeout: the server appends it all the same. The retries wait until the server no longer
     * lists the connection that sent it, so the read-back finds it and only the last batch is sent:
     * each message once, in order.
     */
    @Test
    void aSendAppliedAfterItTimedOutIsFoundByTheReadBackNotSentAgain() throws Exception {
        IggyCommittable committable = committable(dir, stream, topic, 0, 9, 0, 25);
        try (TcpProxy proxy = TcpProxy.start(IGGY.host(), IGGY.port())) {
            IggyWriterConfig slow = writerConfig(viaProxy(proxy, Duration.ofSeconds(1)));
            IggyCommitter.BetweenSends holdTheSecondBatch =
                    onceAfter(0, () -> proxy.holdNextRequest(Duration.ofMillis(2500)));
            try (IggyCommitter committer =
                    committer(dir, slow, OptionalLong.empty(), holdTheSecondBatch)) {
                RecordingCommitRequest request = commitUntilCommitted(committer, committable, 0);
                assertThat(request.retries).as("the held send timed out").isPositive();
                assertThat(request.outcome).isEqualTo("committed");
                assertThat(committer.messagesResent()).as("only the last batch").isEqualTo(5);
            }
        }
        assertThat(texts(IGGY.readAll(stream, topic, 0)))
                .containsExactlyElementsOf(WriteAheadTesting.texts(committable));
    }

    /**
     * The connection is cut while several batches of one commit are unanswered: the retry waits for
     * the server to forget the connection, reads back and sends the rest, each message once and in
     * order.
     */
    @Test
    void aConnectionLostWithSeveralBatchesUnansweredLosesNothingAndRepeatsNothing()
            throws Exception {
        IggyCommittable committable = committable(dir, stream, topic, 0, 11, 0, 60);
        try (TcpProxy proxy = TcpProxy.start(IGGY.host(), IGGY.port())) {
            IggyCommitter.BetweenSends cutTheConnection =
                    onceAfter(2 * BATCH, () -> proxy.closeOnNextRequest());
            IggyWriterConfig pipelined = writerConfig(viaProxy(proxy, Duration.ofSeconds(5)), 4);
            try (IggyCommitter committer =
                    committer(dir, pipelined, OptionalLong.empty(), cutTheConnection)) {
                RecordingCommitRequest request = commitUntilCommitted(committer, committable, 0);
                assertThat(request.outcome).isIn("committed", "already committed");
                assertThat(proxy.connectionsClosedWithARequest()).isEqualTo(1);
            }
        }
        assertThat(texts(IGGY.readAll(stream, topic, 0)))
                .containsExactlyElementsOf(WriteAheadTesting.texts(committable));
    }

    /**
     * A batch reaches the server 2.5 s late, after the 1 s request timeout, with the batches after
     * it queued behind it on the same connection: the server appends them all, later. The retry
     * waits until the server no longer lists that connection, so its read-back finds them: each
     * message once, in order.
     */
    @Test
    void aLateBatchWithOthersQueuedBehindItIsFoundByTheReadBack() throws Exception {
        IggyCommittable committable = committable(dir, stream, topic, 1, 12, 0, 60);
        try (TcpProxy proxy = TcpProxy.start(IGGY.host(), IGGY.port())) {
            IggyCommitter.BetweenSends holdOne =
                    onceAfter(2 * BATCH, () -> proxy.holdNextRequest(Duration.ofMillis(2500)));
            IggyWriterConfig pipelined = writerConfig(viaProxy(proxy, Duration.ofSeconds(1)), 4);
            try (IggyCommitter committer =
                    committer(dir, pipelined, OptionalLong.empty(), holdOne)) {
                RecordingCommitRequest request = commitUntilCommitted(committer, committable, 0);
                assertThat(request.outcome).isIn("committed", "already committed");
            }
        }
        assertThat(texts(IGGY.readAll(stream, topic, 1)))
                .containsExactlyElementsOf(WriteAheadTesting.texts(committable));
    }

    /**
     * 100,000 messages of other producers follow the offset recorded in a restored committable:
     * each poll of the read-back has its own request timeout, so the commit completes.
     */
    @Test
    void aCommitReadsBackPastALargeForeignBacklog() throws Exception {
        IggyCommittable committable = committable(dir, stream, topic, 0, 13, 0, 25);
        for (int i = 0; i < 10; i++) {
            IGGY.send(stream, topic, 0, payloads("other" + i + "-", 10_000));
        }
        IggyWriterConfig polls =
                CommitterTesting.writerConfig(
                        IggySinkExternalContext.connection(IGGY), stream, topic, 1000, 1);
        try (IggyCommitter committer =
                committer(dir, polls, OptionalLong.of(13), IggyCommitter.NOTHING)) {
            RecordingCommitRequest request = commitUntilCommitted(committer, committable, 0);
            assertThat(request.outcome).isEqualTo("committed");
            assertThat(committer.messagesReadBack()).isEqualTo(100_000);
            assertThat(committer.messagesResent()).isEqualTo(25);
        }
        List<Message> stored = IGGY.readAll(stream, topic, 0);
        assertThat(texts(stored.subList(100_000, stored.size())))
                .containsExactlyElementsOf(WriteAheadTesting.texts(committable));
    }

    private IggyConnectionConfig viaProxy(TcpProxy proxy, Duration requestTimeout) {
        return IggyConnectionConfig.builder()
                .setAddress(proxy.address())
                .setCredentials(IGGY.username(), IGGY.password())
                .setRequestTimeout(requestTimeout)
                .build();
    }

    @Test
    void aCommittableWhoseTopicIsGoneFailsNamingIt() throws Exception {
        IggyCommittable committable = committable(dir, stream, topic, 0, 3, 0, 5);
        IGGY.deleteStream(stream);
        try (IggyCommitter committer =
                committer(dir, config, OptionalLong.empty(), IggyCommitter.NOTHING)) {
            RecordingCommitRequest request = new RecordingCommitRequest(committable, 0);
            assertThatThrownBy(() -> committer.commit(List.of(request)))
                    .isInstanceOf(IllegalStateException.class)
                    .rootCause()
                    .hasMessageContaining("Cannot commit the 5 messages of checkpoint 3")
                    .hasMessageContaining(stream)
                    .hasMessageContaining("does not exist")
                    .hasMessageContaining("never skips the output of a completed checkpoint");
            assertThat(request.outcome).isEqualTo("failed");
        } finally {
            IGGY.createStream(stream);
        }
    }

    /** A first commit of {@code committable} that fails after its first batch was sent. */
    private void commitKilledAfterTheFirstBatch(IggyCommittable committable) throws Exception {
        IggyCommitter.BetweenSends kill =
                (c, sent) -> {
                    throw new IllegalStateException("killed after " + sent);
                };
        try (IggyCommitter committer = committer(dir, config, OptionalLong.empty(), kill)) {
            assertThatThrownBy(
                            () ->
                                    committer.commit(
                                            List.of(new RecordingCommitRequest(committable, 0))))
                    .isInstanceOf(IOException.class)
                    .hasRootCauseMessage("killed after " + BATCH);
        }
    }

    /**
     * An exactly-once sink's configuration for the test topic, in batches of {@link #BATCH}, one
     * unanswered at a time: the hook between two sends then runs once the batch before it was
     * acknowledged.
     */
    private IggyWriterConfig writerConfig(IggyConnectionConfig connection) {
        return writerConfig(connection, 1);
    }

    private IggyWriterConfig writerConfig(IggyConnectionConfig connection, int inFlight) {
        return CommitterTesting.writerConfig(connection, stream, topic, BATCH, inFlight);
    }

    private static List<byte[]> payloads(String prefix, int n) {
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            payloads.add((prefix + i).getBytes(StandardCharsets.UTF_8));
        }
        return payloads;
    }
}

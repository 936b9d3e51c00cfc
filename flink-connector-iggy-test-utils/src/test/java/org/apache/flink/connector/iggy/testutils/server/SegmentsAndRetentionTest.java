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

import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.RawFrames;
import org.apache.flink.connector.iggy.testutils.TestMessages;

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.exception.IggyServerException;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.message.PollingStrategy;
import org.apache.iggy.partition.Partition;
import org.apache.iggy.topic.CompressionAlgorithm;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.math.BigInteger;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;

import static org.apache.flink.connector.iggy.testutils.IggyErrors.assertServerError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Segments, DELETE_SEGMENTS (503) and size-based retention with {@code deleteOldestSegments}
 * (docs/development/iggy-protocol.md §6.6, §7.4 and §9), on a server with 4 KiB segments. Every
 * message here is {@link #MESSAGE_SIZE} bytes, so four fill a segment. Skipped against a real
 * server, whose segment size this test cannot choose.
 */
class SegmentsAndRetentionTest {
    private static final int SEGMENT_SIZE = 4096;
    private static final int PAYLOAD_SIZE = 1000;
    private static final int MESSAGE_SIZE = MessageLayout.HEADER_SIZE + PAYLOAD_SIZE;

    /** Four segments. */
    private static final long MAX_TOPIC_SIZE = 4L * SEGMENT_SIZE;

    @RegisterExtension
    static final IggyServerExtension IGGY =
            new IggyServerExtension(
                    EmbeddedIggyServer.Config.builder()
                            .segmentSize(SEGMENT_SIZE)
                            .deleteOldestSegments(true)
                            .build());

    private String stream;

    @BeforeEach
    void setUp() {
        assumeTrue(IGGY.embeddedServer().isPresent(), "needs the embedded server's config");
        stream = IGGY.uniqueName("segments");
        IGGY.createStream(stream);
    }

    @Test
    void segmentsAreSealedAtTheSegmentSizeAndCountedInTopicDetails() {
        IGGY.createTopic(stream, "t", 2);
        assertThat(partition("t", 0).segmentsCount()).as("the empty active segment").isEqualTo(1L);

        sendOneByOne("t", 3);
        assertThat(partition("t", 0).segmentsCount()).as("3 of 4 messages").isEqualTo(1L);

        sendOneByOne("t", 1);
        assertThat(partition("t", 0).segmentsCount()).as("sealed, new active").isEqualTo(2L);

        sendOneByOne("t", 9);
        assertThat(partition("t", 0).segmentsCount()).isEqualTo(4L);
        assertThat(partition("t", 1).segmentsCount()).isEqualTo(1L);
        assertThat(IGGY.messagesCount(stream, "t", 0))
                .as("no max size: nothing is deleted")
                .isEqualTo(13);
    }

    @Test
    void deleteSegmentsDeletesOnlySealedSegments() throws IOException {
        IGGY.createTopic(stream, "t", 1);
        sendOneByOne("t", 13); // offsets 0..11 in three sealed segments, 12 in the active one

        try (Socket socket = connect()) {
            assertThat(deleteSegments(socket, "t", 1)).isZero();

            Partition details = partition("t", 0);
            assertThat(details.segmentsCount()).isEqualTo(3L);
            assertThat(details.messagesCount()).isEqualTo(BigInteger.valueOf(9));
            assertThat(details.size()).isEqualTo(String.valueOf(9L * MESSAGE_SIZE));
            assertThat(details.currentOffset()).isEqualTo(BigInteger.valueOf(12));
            assertThat(offsets(IGGY.readAll(stream, "t", 0)).get(0)).isEqualTo(4L);

            assertThat(deleteSegments(socket, "t", 10)).as("more than are sealed").isZero();

            details = partition("t", 0);
            assertThat(details.segmentsCount()).as("the active one stays").isEqualTo(1L);
            assertThat(details.messagesCount()).isEqualTo(BigInteger.ONE);
            assertThat(details.currentOffset()).isEqualTo(BigInteger.valueOf(12));
            assertThat(offsets(IGGY.readAll(stream, "t", 0))).containsExactly(12L);

            assertThat(deleteSegments(socket, "t", 1)).as("none sealed: still success").isZero();
            assertThat(IGGY.messagesCount(stream, "t", 0)).isEqualTo(1);
        }
    }

    @Test
    void retentionKeepsATopicWithAMaxSizeBoundedWhileOffsetsGoOn() {
        IGGY.createTopic(stream, "t", 1, MAX_TOPIC_SIZE);
        int sends = 200;

        for (int i = 0; i < sends; i++) {
            sendOneByOne("t", 1);
            assertThat(Long.parseLong(partition("t", 0).size()))
                    .as("topic size after send %d", i)
                    .isLessThan(MAX_TOPIC_SIZE + MESSAGE_SIZE);
        }

        assertThat(IGGY.currentOffset(stream, "t", 0)).isEqualTo(sends - 1L);
        long retained = IGGY.messagesCount(stream, "t", 0);
        assertThat(retained).isBetween(1L, MAX_TOPIC_SIZE / MESSAGE_SIZE + 1);
        List<Long> offsets = offsets(IGGY.readAll(stream, "t", 0));
        assertThat(offsets).hasSize((int) retained);
        assertThat(offsets.get(0)).isEqualTo(sends - retained);
        assertThat(offsets.get(offsets.size() - 1)).isEqualTo(sends - 1L);
    }

    @Test
    void retentionTakesTheWholeTopicsSizeIntoAccount() {
        IGGY.createTopic(stream, "t", 2, MAX_TOPIC_SIZE);
        sendOneByOne("t", 0, 12); // three sealed segments in partition 0: 12 of 16 KiB
        sendOneByOne("t", 1, 12); // each segment sealed in partition 1 fills the topic

        assertThat(IGGY.messagesCount(stream, "t", 0))
                .as("only the partition appended to loses segments")
                .isEqualTo(12);
        assertThat(IGGY.messagesCount(stream, "t", 1)).isZero();
        assertThat(IGGY.currentOffset(stream, "t", 1)).isEqualTo(11);
        assertThat(partition("t", 1).segmentsCount()).as("the empty active one").isEqualTo(1L);
    }

    @Test
    void pollsBelowTheFirstRetainedOffsetStartAtIt() {
        IGGY.createTopic(stream, "t", 1, MAX_TOPIC_SIZE);
        sendOneByOne("t", 40);
        long first = 40 - IGGY.messagesCount(stream, "t", 0);
        assertThat(first).as("segments were deleted").isPositive();

        assertThat(offsets(IGGY.poll(stream, "t", 0, 0, 2))).containsExactly(first, first + 1);
        assertThat(offsets(poll(PollingStrategy.first(), 2))).containsExactly(first, first + 1);
        assertThat(offsets(poll(PollingStrategy.timestamp(BigInteger.ZERO), 1)))
                .containsExactly(first);
        assertThat(offsets(poll(PollingStrategy.next(), 1)))
                .as("a consumer without a stored offset")
                .containsExactly(first);
        assertThat(offsets(poll(PollingStrategy.last(), 2))).containsExactly(38L, 39L);
        assertThat(poll(PollingStrategy.offset(BigInteger.valueOf(40)), 1)).isEmpty();
    }

    @Test
    void aMaxTopicSizeBelowTheSegmentSizeIsInvalidTopicSize() {
        assertServerError(
                () -> IGGY.createTopic(stream, "small", 1, SEGMENT_SIZE - 1),
                IggyServerException.class,
                ErrorCodes.INVALID_TOPIC_SIZE);

        IGGY.createTopic(stream, "one-segment", 1, SEGMENT_SIZE);
        assertThat(
                        IGGY.client()
                                .topics()
                                .getTopic(StreamId.of(stream), TopicId.of("one-segment"))
                                .orElseThrow()
                                .maxTopicSize())
                .isEqualTo(BigInteger.valueOf(SEGMENT_SIZE));
    }

    @Test
    void withoutDeleteOldestSegmentsAFullTopicKeepsEverything() {
        EmbeddedIggyServer.Config config =
                EmbeddedIggyServer.Config.builder().segmentSize(SEGMENT_SIZE).build();
        try (EmbeddedIggyServer server = EmbeddedIggyServer.start(config);
                IggyTcpClient client =
                        IggyTcpClient.builder()
                                .host(server.host())
                                .port(server.port())
                                .credentials("iggy", "iggy")
                                .buildAndLogin()) {
            client.streams().createStream("s");
            client.topics()
                    .createTopic(
                            StreamId.of("s"),
                            2L,
                            CompressionAlgorithm.None,
                            BigInteger.ZERO,
                            BigInteger.valueOf(MAX_TOPIC_SIZE),
                            Optional.empty(),
                            "t");
            for (int i = 0; i < 30; i++) {
                client.messages()
                        .sendMessages(
                                StreamId.of("s"),
                                TopicId.of("t"),
                                Partitioning.partitionId(0L),
                                List.of(message()));
            }

            Partition details =
                    client.topics()
                            .getTopic(StreamId.of("s"), TopicId.of("t"))
                            .orElseThrow()
                            .partitions()
                            .get(0);
            assertThat(details.messagesCount()).isEqualTo(BigInteger.valueOf(30));
            assertThat(details.segmentsCount()).as("7 sealed, 1 active").isEqualTo(8L);
            assertThat(client.system().getStats().segmentsCount())
                    .as("over both partitions")
                    .isEqualTo(9L);
        }
    }

    private Partition partition(String topic, long partition) {
        return IGGY.client()
                .topics()
                .getTopic(StreamId.of(stream), TopicId.of(topic))
                .orElseThrow()
                .partitions()
                .get((int) partition);
    }

    private void sendOneByOne(String topic, int count) {
        sendOneByOne(topic, 0, count);
    }

    /** {@code count} sends of one {@link #MESSAGE_SIZE}-byte message each. */
    private void sendOneByOne(String topic, long partition, int count) {
        for (int i = 0; i < count; i++) {
            IGGY.client()
                    .messages()
                    .sendMessages(
                            StreamId.of(stream),
                            TopicId.of(topic),
                            Partitioning.partitionId(partition),
                            List.of(message()));
        }
    }

    private static Message message() {
        return TestMessages.of("x".repeat(PAYLOAD_SIZE));
    }

    private List<Message> poll(PollingStrategy strategy, long count) {
        PolledMessages polled =
                IGGY.client()
                        .messages()
                        .pollMessages(
                                StreamId.of(stream),
                                TopicId.of("t"),
                                Optional.of(0L),
                                Consumer.of(0L),
                                strategy,
                                count,
                                false);
        return polled.messages();
    }

    private static List<Long> offsets(List<Message> messages) {
        return TestMessages.offsets(messages);
    }

    private int deleteSegments(Socket socket, String topic, int segments) throws IOException {
        byte[] s = RawFrames.name(stream);
        byte[] t = RawFrames.name(topic);
        ByteBuffer payload =
                ByteBuffer.allocate(s.length + t.length + 8).order(ByteOrder.LITTLE_ENDIAN);
        payload.put(s).put(t).putInt(0).putInt(segments);
        return RawFrames.request(socket, CommandCodes.DELETE_SEGMENTS, payload.array()).status();
    }

    private static Socket connect() throws IOException {
        assumeFalse(IGGY.isTls(), "raw frames are plain TCP");
        Socket socket = new Socket(IGGY.host(), IGGY.port());
        socket.setSoTimeout(10_000);
        assertThat(RawFrames.login(socket, IGGY.username(), IGGY.password())).isZero();
        return socket;
    }
}

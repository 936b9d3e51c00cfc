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

import com.dynatrace.hash4j.hashing.Hashing;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.exception.IggyResourceNotFoundException;
import org.apache.iggy.exception.IggyServerException;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderValue;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.MessageHeader;
import org.apache.iggy.message.MessageId;
import org.apache.iggy.message.Partitioning;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.message.PollingStrategy;
import org.apache.iggy.partition.Partition;
import org.apache.iggy.serde.BytesSerializer;
import org.apache.iggy.topic.TopicDetails;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.apache.flink.connector.iggy.testutils.IggyErrors.assertServerError;
import static org.apache.flink.connector.iggy.testutils.TestMessages.offsets;
import static org.apache.flink.connector.iggy.testutils.TestMessages.texts;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * SEND_MESSAGES and POLL_MESSAGES (docs/development/iggy-protocol.md §7), through the blocking SDK
 * client.
 */
class SendAndPollTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private IggyTcpClient client;
    private String stream;
    private StreamId streamId;
    private TopicId topicId;

    @BeforeEach
    void createTopic() {
        client = IGGY.client();
        stream = IGGY.uniqueName("send-poll");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 3);
        streamId = StreamId.of(stream);
        topicId = TopicId.of("t");
    }

    @Test
    void offsetsStartAtZeroAndAreConsecutiveAcrossBatches() {
        send(Partitioning.partitionId(1L), TestMessages.numbered("a", 3));
        send(Partitioning.partitionId(1L), TestMessages.numbered("b", 2));

        List<Message> all = IGGY.readAll(stream, "t", 1);

        assertThat(offsets(all)).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(texts(all)).containsExactly("a-0", "a-1", "a-2", "b-0", "b-1");
        assertThat(IGGY.readAll(stream, "t", 0)).isEmpty();
    }

    @Test
    void topicDetailsShowPerPartitionCountsAndCurrentOffset() {
        send(Partitioning.partitionId(0L), TestMessages.numbered("x", 4));
        send(Partitioning.partitionId(2L), TestMessages.numbered("y", 1));

        TopicDetails details = client.topics().getTopic(streamId, topicId).orElseThrow();

        assertThat(details.messagesCount()).isEqualTo(BigInteger.valueOf(5));
        Partition p0 = details.partitions().get(0);
        Partition p1 = details.partitions().get(1);
        Partition p2 = details.partitions().get(2);
        assertThat(p0.messagesCount()).isEqualTo(BigInteger.valueOf(4));
        assertThat(p0.currentOffset()).isEqualTo(BigInteger.valueOf(3));
        // 64-byte header + "x-0" (3 bytes) per message
        assertThat(p0.size()).isEqualTo(String.valueOf(4 * (64 + 3)));
        assertThat(p0.segmentsCount()).isEqualTo(1L);
        assertThat(p1.messagesCount()).isEqualTo(BigInteger.ZERO);
        assertThat(p1.currentOffset()).isEqualTo(BigInteger.ZERO);
        // current offset is 0 both for an empty partition and for one with a single message
        assertThat(p2.messagesCount()).isEqualTo(BigInteger.ONE);
        assertThat(p2.currentOffset()).isEqualTo(BigInteger.ZERO);
    }

    @Test
    void balancedPartitioningIsRoundRobinPerTopicAndPerSend() {
        for (int i = 0; i < 4; i++) {
            send(Partitioning.balanced(), TestMessages.numbered("send" + i, 2));
        }

        assertThat(texts(IGGY.readAll(stream, "t", 0)))
                .containsExactly("send0-0", "send0-1", "send3-0", "send3-1");
        assertThat(texts(IGGY.readAll(stream, "t", 1))).containsExactly("send1-0", "send1-1");
        assertThat(texts(IGGY.readAll(stream, "t", 2))).containsExactly("send2-0", "send2-1");
    }

    @Test
    void messagesKeyPartitioningUsesXxh32ModuloPartitionCount() {
        // Vectors of docs/development/iggy-protocol.md §7.1: "test-key" % 3 = 0, "key-1" % 3 = 1,
        // "user-123" %
        // 3 =
        // 1.
        send(Partitioning.messagesKey("test-key"), List.of(Message.of("k0")));
        send(Partitioning.messagesKey("key-1"), List.of(Message.of("k1")));
        send(Partitioning.messagesKey("user-123"), List.of(Message.of("u123")));

        assertThat(texts(IGGY.readAll(stream, "t", 0))).containsExactly("k0");
        assertThat(texts(IGGY.readAll(stream, "t", 1))).containsExactly("k1", "u123");
        assertThat(IGGY.readAll(stream, "t", 2)).isEmpty();
    }

    @Test
    void serverAssignsUuidV4IdsAndKeepsClientIds() {
        BigInteger clientId = new BigInteger("1234567890123456789012345");
        send(
                Partitioning.partitionId(0L),
                List.of(
                        Message.of("server-id"),
                        TestMessages.withId(MessageId.from(clientId), "mine")));

        List<Message> polled = IGGY.readAll(stream, "t", 0);

        BigInteger generated = polled.get(0).header().id().toBigInteger();
        assertThat(generated).isNotEqualTo(BigInteger.ZERO);
        UUID uuid = uuidOfWireBytes(generated);
        assertThat(uuid.version()).isEqualTo(4);
        assertThat(uuid.variant()).isEqualTo(2);
        assertThat(polled.get(1).header().id().toBigInteger()).isEqualTo(clientId);
    }

    @Test
    void oneServerTimestampPerSendAndOriginTimestampKept() {
        long before = nowMicros();
        send(
                Partitioning.partitionId(0L),
                List.of(
                        TestMessages.withOriginTimestamp("a", 42L),
                        TestMessages.withOriginTimestamp("b", 43L)));
        long after = nowMicros();

        List<Message> polled = IGGY.readAll(stream, "t", 0);

        BigInteger timestamp = polled.get(0).header().timestamp();
        assertThat(polled.get(1).header().timestamp()).isEqualTo(timestamp);
        // A real server may run on another clock; only the embedded one is bounded by ours.
        if (!IGGY.isExternal()) {
            assertThat(timestamp.longValueExact()).isBetween(before, after);
        }
        assertThat(polled.get(0).header().originTimestamp()).isEqualTo(BigInteger.valueOf(42));
        assertThat(polled.get(1).header().originTimestamp()).isEqualTo(BigInteger.valueOf(43));
    }

    @Test
    void userHeadersAndPayloadRoundTrip() {
        Map<HeaderKey, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(HeaderKey.fromString("key"), HeaderValue.fromInt8((byte) 7));
        headers.put(HeaderKey.fromString("name"), HeaderValue.fromString("value"));
        headers.put(HeaderKey.fromString("raw"), HeaderValue.fromRaw(new byte[] {0, 1, 2}));
        send(
                Partitioning.partitionId(0L),
                List.of(TestMessages.withHeaders("with headers", headers), Message.of("")));

        List<Message> polled = IGGY.readAll(stream, "t", 0);

        assertThat(TestMessages.text(polled.get(0))).isEqualTo("with headers");
        assertThat(polled.get(0).userHeaders()).isEqualTo(headers);
        assertThat(polled.get(1).payload()).isEmpty();
        assertThat(polled.get(1).userHeaders()).isEmpty();
    }

    @Test
    void checksumIsXxh3OfEachMessageAfterItsChecksumField() {
        MessageId id = MessageId.from(BigInteger.valueOf(5));
        send(
                Partitioning.partitionId(0L),
                List.of(
                        Message.of("plain"),
                        TestMessages.withHeaders(
                                "with a header",
                                Map.of(HeaderKey.fromString("k"), HeaderValue.fromString("v"))),
                        Message.of("")));
        send(Partitioning.partitionId(0L), List.of(TestMessages.withId(id, "same")));
        send(Partitioning.partitionId(0L), List.of(TestMessages.withId(id, "same")));

        List<Message> polled = IGGY.readAll(stream, "t", 0);

        assertThat(polled).hasSize(5);
        for (Message message : polled) {
            assertThat(message.header().checksum())
                    .as("checksum of the message at offset %s", message.header().offset())
                    .isEqualTo(xxh3AfterChecksumField(message));
        }
        // The offset is part of what is hashed: identical messages at two offsets differ.
        assertThat(polled.get(3).header().checksum())
                .isNotEqualTo(polled.get(4).header().checksum());
    }

    @Test
    void pollByOffsetReturnsUpToCountMessages() {
        send(Partitioning.partitionId(0L), TestMessages.numbered("m", 10));

        PolledMessages polled = poll(PollingStrategy.offset(BigInteger.valueOf(3)), 4);

        assertThat(polled.partitionId()).isEqualTo(0L);
        assertThat(polled.currentOffset()).isEqualTo(BigInteger.valueOf(9));
        assertThat(polled.count()).isEqualTo(4L);
        assertThat(offsets(polled.messages())).containsExactly(3L, 4L, 5L, 6L);
    }

    @Test
    void pollSpanningSeveralBatchesKeepsOrder() {
        for (int i = 0; i < 5; i++) {
            send(Partitioning.partitionId(0L), TestMessages.numbered("b" + i, 3));
        }

        PolledMessages polled = poll(PollingStrategy.offset(BigInteger.valueOf(2)), 10);

        assertThat(offsets(polled.messages()))
                .containsExactly(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L);
        assertThat(TestMessages.text(polled.messages().get(0))).isEqualTo("b0-2");
        assertThat(TestMessages.text(polled.messages().get(9))).isEqualTo("b3-2");
    }

    @Test
    void pollPastTheEndIsEmptyNotAnError() {
        send(Partitioning.partitionId(0L), TestMessages.numbered("m", 3));

        PolledMessages polled = poll(PollingStrategy.offset(BigInteger.valueOf(3)), 10);

        assertThat(polled.messages()).isEmpty();
        assertThat(polled.partitionId()).isEqualTo(0L);
        assertThat(polled.currentOffset()).isEqualTo(BigInteger.valueOf(2));
        assertThat(poll(PollingStrategy.offset(BigInteger.valueOf(1_000_000)), 10).messages())
                .isEmpty();
    }

    @Test
    void pollOfAnEmptyPartitionIsEmptyForEveryStrategy() {
        for (PollingStrategy strategy :
                List.of(
                        PollingStrategy.offset(BigInteger.ZERO),
                        PollingStrategy.timestamp(BigInteger.ZERO),
                        PollingStrategy.first(),
                        PollingStrategy.last(),
                        PollingStrategy.next())) {
            PolledMessages polled = poll(strategy, 10);
            assertThat(polled.messages()).as(strategy.toString()).isEmpty();
            assertThat(polled.currentOffset()).isEqualTo(BigInteger.ZERO);
        }
    }

    @Test
    void pollFirstAndLast() {
        send(Partitioning.partitionId(0L), TestMessages.numbered("m", 10));

        assertThat(offsets(poll(PollingStrategy.first(), 3).messages()))
                .containsExactly(0L, 1L, 2L);
        assertThat(offsets(poll(PollingStrategy.last(), 3).messages())).containsExactly(7L, 8L, 9L);
        assertThat(offsets(poll(PollingStrategy.last(), 50).messages())).hasSize(10);
    }

    @Test
    void pollByTimestampStartsAtTheFirstBatchAtOrAfterIt() throws InterruptedException {
        send(Partitioning.partitionId(0L), TestMessages.numbered("early", 2));
        BigInteger firstTimestamp = IGGY.readAll(stream, "t", 0).get(0).header().timestamp();
        awaitClockPast(firstTimestamp.longValueExact());
        send(Partitioning.partitionId(0L), TestMessages.numbered("late", 2));
        BigInteger lateTimestamp = IGGY.readAll(stream, "t", 0).get(2).header().timestamp();
        assertThat(lateTimestamp).isGreaterThan(firstTimestamp);

        assertThat(texts(poll(PollingStrategy.timestamp(lateTimestamp), 10).messages()))
                .containsExactly("late-0", "late-1");
        assertThat(texts(poll(PollingStrategy.timestamp(firstTimestamp), 10).messages()))
                .containsExactly("early-0", "early-1", "late-0", "late-1");
        assertThat(
                        texts(
                                poll(
                                                PollingStrategy.timestamp(
                                                        firstTimestamp.add(BigInteger.ONE)),
                                                1)
                                        .messages()))
                .containsExactly("late-0");
        assertThat(
                        poll(PollingStrategy.timestamp(lateTimestamp.add(BigInteger.ONE)), 10)
                                .messages())
                .isEmpty();
    }

    @Test
    void pollNextWithoutStoredOffsetStartsFromTheBeginningAndAutoCommitAdvances() {
        send(Partitioning.partitionId(0L), TestMessages.numbered("m", 5));
        Consumer consumer = Consumer.of(ConsumerId.of("auto-commit"));

        List<Message> first = pollAs(consumer, PollingStrategy.next(), 2, true).messages();
        List<Message> second = pollAs(consumer, PollingStrategy.next(), 2, true).messages();
        List<Message> third = pollAs(consumer, PollingStrategy.next(), 10, true).messages();
        List<Message> fourth = pollAs(consumer, PollingStrategy.next(), 10, true).messages();

        assertThat(offsets(first)).containsExactly(0L, 1L);
        assertThat(offsets(second)).containsExactly(2L, 3L);
        assertThat(offsets(third)).containsExactly(4L);
        assertThat(fourth).isEmpty();
        assertThat(IGGY.storedOffset(stream, "t", 0, "auto-commit")).contains(4L);
    }

    @Test
    void pollWithoutAutoCommitStoresNothing() {
        send(Partitioning.partitionId(0L), TestMessages.numbered("m", 3));
        Consumer consumer = Consumer.of(ConsumerId.of("no-commit"));

        pollAs(consumer, PollingStrategy.next(), 2, false);

        assertThat(IGGY.storedOffset(stream, "t", 0, "no-commit")).isEmpty();
        assertThat(offsets(pollAs(consumer, PollingStrategy.next(), 2, false).messages()))
                .containsExactly(0L, 1L);
    }

    @Test
    void pollWithoutPartitionIdReadsPartitionZero() {
        send(Partitioning.partitionId(0L), List.of(Message.of("zero")));
        send(Partitioning.partitionId(1L), List.of(Message.of("one")));

        PolledMessages polled =
                client.messages()
                        .pollMessages(
                                streamId,
                                topicId,
                                Optional.empty(),
                                Consumer.of(1L),
                                PollingStrategy.first(),
                                10L,
                                false);

        assertThat(polled.partitionId()).isEqualTo(0L);
        assertThat(texts(polled.messages())).containsExactly("zero");
    }

    @Test
    void countZeroIsAnEmptyResultWithTheRealCurrentOffset() {
        send(Partitioning.partitionId(0L), TestMessages.numbered("m", 3));

        PolledMessages polled = poll(PollingStrategy.first(), 0);

        assertThat(polled.messages()).isEmpty();
        assertThat(polled.currentOffset()).isEqualTo(BigInteger.valueOf(2));
    }

    @Test
    void sendToMissingStreamTopicOrPartitionFails() {
        List<Message> one = List.of(Message.of("x"));
        assertServerError(
                () ->
                        client.messages()
                                .sendMessages(
                                        StreamId.of(IGGY.uniqueName("missing")),
                                        topicId,
                                        Partitioning.partitionId(0L),
                                        one),
                IggyResourceNotFoundException.class,
                1009);
        assertServerError(
                () ->
                        client.messages()
                                .sendMessages(
                                        streamId,
                                        TopicId.of("missing"),
                                        Partitioning.partitionId(0L),
                                        one),
                IggyResourceNotFoundException.class,
                2010);
        assertServerError(
                () ->
                        client.messages()
                                .sendMessages(streamId, topicId, Partitioning.partitionId(3L), one),
                IggyResourceNotFoundException.class,
                3007);
        assertServerError(
                () ->
                        client.messages()
                                .sendMessages(
                                        StreamId.of(999_999L),
                                        topicId,
                                        Partitioning.partitionId(0L),
                                        one),
                IggyResourceNotFoundException.class,
                1009);
    }

    @Test
    void balancedSendToATopicWithoutPartitionsFailsWithTopicNotFound() {
        IGGY.createTopic(stream, "empty", 0);

        assertServerError(
                () ->
                        client.messages()
                                .sendMessages(
                                        streamId,
                                        TopicId.of("empty"),
                                        Partitioning.balanced(),
                                        List.of(Message.of("x"))),
                IggyResourceNotFoundException.class,
                2010);
    }

    @Test
    void pollFromMissingStreamTopicOrPartitionFails() {
        assertServerError(
                () ->
                        client.messages()
                                .pollMessages(
                                        StreamId.of(IGGY.uniqueName("missing")),
                                        topicId,
                                        Optional.of(0L),
                                        Consumer.of(1L),
                                        PollingStrategy.first(),
                                        1L,
                                        false),
                IggyResourceNotFoundException.class,
                1009);
        assertServerError(
                () ->
                        client.messages()
                                .pollMessages(
                                        streamId,
                                        TopicId.of(77L),
                                        Optional.of(0L),
                                        Consumer.of(1L),
                                        PollingStrategy.first(),
                                        1L,
                                        false),
                IggyResourceNotFoundException.class,
                2010);
        assertServerError(
                () ->
                        client.messages()
                                .pollMessages(
                                        streamId,
                                        topicId,
                                        Optional.of(3L),
                                        Consumer.of(1L),
                                        PollingStrategy.first(),
                                        1L,
                                        false),
                IggyResourceNotFoundException.class,
                3007);
    }

    @Test
    void sendWithoutMessagesIsInvalidMessagesCount() {
        assertServerError(
                () -> send(Partitioning.partitionId(0L), List.of()),
                IggyServerException.class,
                4009);
    }

    @Test
    void messagesKeyOnATopicWithOnePartitionAlwaysGoesToIt() {
        IGGY.createTopic(stream, "single", 1);

        for (String key : List.of("a", "b", "test-key")) {
            client.messages()
                    .sendMessages(
                            streamId,
                            TopicId.of("single"),
                            Partitioning.messagesKey(key),
                            List.of(Message.of(key)));
        }

        assertThat(texts(IGGY.readAll(stream, "single", 0))).containsExactly("a", "b", "test-key");
    }

    @Test
    void duplicateIdsAreStoredWhenDeduplicationIsOff() {
        IGGY.embeddedServer()
                .ifPresent(
                        server -> assertThat(server.config().deduplication().enabled()).isFalse());
        MessageId id = MessageId.from(BigInteger.valueOf(77));
        send(Partitioning.partitionId(0L), List.of(TestMessages.withId(id, "a")));
        send(Partitioning.partitionId(0L), List.of(TestMessages.withId(id, "b")));

        assertThat(texts(IGGY.readAll(stream, "t", 0))).containsExactly("a", "b");
    }

    @Test
    void largeBatchesKeepEveryMessage() {
        int count = 5_000;
        send(Partitioning.partitionId(2L), TestMessages.numbered("big", count));

        List<Message> all = IGGY.readAll(stream, "t", 2);

        assertThat(all).hasSize(count);
        Set<Long> distinct = new HashSet<>(offsets(all));
        assertThat(distinct).hasSize(count);
        assertThat(TestMessages.text(all.get(count - 1))).isEqualTo("big-" + (count - 1));
    }

    private void send(Partitioning partitioning, List<Message> messages) {
        client.messages().sendMessages(streamId, topicId, partitioning, messages);
    }

    private PolledMessages poll(PollingStrategy strategy, long count) {
        return pollAs(Consumer.of(1L), strategy, count, false);
    }

    private PolledMessages pollAs(
            Consumer consumer, PollingStrategy strategy, long count, boolean autoCommit) {
        return client.messages()
                .pollMessages(
                        streamId, topicId, Optional.of(0L), consumer, strategy, count, autoCommit);
    }

    /**
     * XXH3-64 (seed 0) of the message's wire bytes after the 8-byte checksum, as unsigned. The
     * message is re-encoded here because the SDK's own encoder does not round-trip a polled id (it
     * reverses the id bytes when reading, not when writing).
     */
    private static BigInteger xxh3AfterChecksumField(Message message) {
        MessageHeader header = message.header();
        ByteBuf userHeaders = BytesSerializer.toBytes(message.userHeaders());
        byte[] headerBytes = ByteBufUtil.getBytes(userHeaders);
        userHeaders.release();
        ByteBuffer wire =
                ByteBuffer.allocate(56 + message.payload().length + headerBytes.length)
                        .order(ByteOrder.LITTLE_ENDIAN);
        BigInteger id = header.id().toBigInteger();
        wire.putLong(id.longValue()).putLong(id.shiftRight(64).longValue());
        wire.putLong(header.offset().longValue());
        wire.putLong(header.timestamp().longValue());
        wire.putLong(header.originTimestamp().longValue());
        wire.putInt(header.userHeadersLength().intValue());
        wire.putInt(header.payloadLength().intValue());
        wire.putLong(header.reserved().longValue());
        wire.put(message.payload()).put(headerBytes);
        long hash = Hashing.xxh3_64().hashBytesToLong(wire.array());
        return new BigInteger(Long.toUnsignedString(hash));
    }

    /** The SDK reverses the wire bytes; the UUID is the wire bytes in order. */
    private static UUID uuidOfWireBytes(BigInteger leValue) {
        byte[] be = leValue.toByteArray();
        byte[] wire = new byte[16];
        for (int i = 0; i < 16 && i < be.length; i++) {
            wire[i] = be[be.length - 1 - i];
        }
        ByteBuffer buffer = ByteBuffer.wrap(wire).order(ByteOrder.BIG_ENDIAN);
        return new UUID(buffer.getLong(), buffer.getLong());
    }

    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** Waits until the local clock has moved a millisecond past {@code micros}. */
    private static void awaitClockPast(long micros) throws InterruptedException {
        waitUntil(
                "the clock passes " + micros + " µs + 1 ms",
                Duration.ofSeconds(5),
                () -> nowMicros() > micros + 1_000);
    }
}

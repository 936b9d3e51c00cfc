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
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.consumeroffset.ConsumerOffsetInfo;
import org.apache.iggy.exception.IggyResourceNotFoundException;
import org.apache.iggy.exception.IggyServerException;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.PollingStrategy;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

import static org.apache.flink.connector.iggy.testutils.IggyErrors.assertServerError;
import static org.apache.flink.connector.iggy.testutils.TestMessages.offsets;
import static org.assertj.core.api.Assertions.assertThat;

/** STORE_CONSUMER_OFFSET and GET_CONSUMER_OFFSET (docs/development/iggy-protocol.md §8.1, §8.2). */
class ConsumerOffsetsTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private IggyTcpClient client;
    private String stream;
    private StreamId streamId;
    private final TopicId topicId = TopicId.of("t");
    private final Consumer consumer = Consumer.of(ConsumerId.of("reader"));

    @BeforeEach
    void setUp() {
        client = IGGY.client();
        stream = IGGY.uniqueName("offsets");
        streamId = StreamId.of(stream);
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 2);
    }

    @Test
    void storedOffsetIsReturnedWithTheCurrentOffset() {
        IGGY.send(stream, "t", 1, List.of(new byte[1], new byte[1], new byte[1]));

        store(1L, 1);
        Optional<ConsumerOffsetInfo> info = get(1L, consumer);

        assertThat(info).isPresent();
        assertThat(info.get().partitionId()).isEqualTo(1L);
        assertThat(info.get().storedOffset()).isEqualTo(BigInteger.ONE);
        assertThat(info.get().currentOffset()).isEqualTo(BigInteger.TWO);
        assertThat(IGGY.storedOffset(stream, "t", 1, "reader")).contains(1L);
    }

    @Test
    void storeMayGoBackwards() {
        IGGY.send(stream, "t", 0, List.of(new byte[1], new byte[1], new byte[1]));

        store(0L, 2);
        store(0L, 0);

        assertThat(IGGY.storedOffset(stream, "t", 0, "reader")).contains(0L);
    }

    @Test
    void neverStoredOffsetIsEmpty() {
        IGGY.send(stream, "t", 0, List.of(new byte[1]));

        assertThat(get(0L, consumer)).isEmpty();
        assertThat(IGGY.storedOffset(stream, "t", 0, "nobody")).isEmpty();
    }

    @Test
    void getForMissingStreamTopicPartitionOrGroupIsEmpty() {
        assertThat(
                        client.consumerOffsets()
                                .getConsumerOffset(
                                        StreamId.of(IGGY.uniqueName("none")),
                                        topicId,
                                        Optional.of(0L),
                                        consumer))
                .isEmpty();
        assertThat(
                        client.consumerOffsets()
                                .getConsumerOffset(
                                        streamId, TopicId.of("none"), Optional.of(0L), consumer))
                .isEmpty();
        assertThat(get(9L, consumer)).isEmpty();
        assertThat(get(0L, Consumer.group(ConsumerId.of("no-such-group")))).isEmpty();
    }

    @Test
    void storeOnANeverWrittenPartitionIsInvalidOffset() {
        assertServerError(() -> store(0L, 0), IggyServerException.class, 4100);
    }

    @Test
    void storePastTheCurrentOffsetIsInvalidOffset() {
        IGGY.send(stream, "t", 0, List.of(new byte[1], new byte[1]));

        store(0L, 1);
        assertServerError(() -> store(0L, 2), IggyServerException.class, 4100);
        assertThat(IGGY.storedOffset(stream, "t", 0, "reader")).contains(1L);
    }

    @Test
    void storeToMissingStreamTopicOrPartitionFails() {
        IGGY.send(stream, "t", 0, List.of(new byte[1]));

        assertServerError(
                () ->
                        client.consumerOffsets()
                                .storeConsumerOffset(
                                        StreamId.of(IGGY.uniqueName("none")),
                                        topicId,
                                        Optional.of(0L),
                                        consumer,
                                        BigInteger.ZERO),
                IggyResourceNotFoundException.class,
                1009);
        assertServerError(
                () ->
                        client.consumerOffsets()
                                .storeConsumerOffset(
                                        streamId,
                                        TopicId.of("none"),
                                        Optional.of(0L),
                                        consumer,
                                        BigInteger.ZERO),
                IggyResourceNotFoundException.class,
                2010);
        assertServerError(() -> store(2L, 0), IggyResourceNotFoundException.class, 3007);
    }

    @Test
    void nextResumesAfterTheStoredOffset() {
        IGGY.send(stream, "t", 0, List.of(new byte[1], new byte[1], new byte[1], new byte[1]));

        store(0L, 1);

        assertThat(
                        offsets(
                                client.messages()
                                        .pollMessages(
                                                streamId,
                                                topicId,
                                                Optional.of(0L),
                                                consumer,
                                                PollingStrategy.next(),
                                                10L,
                                                false)
                                        .messages()))
                .containsExactly(2L, 3L);
    }

    @Test
    void offsetsAreKeptPerConsumerAndPerPartition() {
        IGGY.send(stream, "t", 0, List.of(new byte[1], new byte[1]));
        IGGY.send(stream, "t", 1, List.of(new byte[1], new byte[1]));

        store(0L, 1);
        client.consumerOffsets()
                .storeConsumerOffset(
                        streamId,
                        topicId,
                        Optional.of(1L),
                        Consumer.of(ConsumerId.of("other")),
                        BigInteger.ZERO);

        assertThat(IGGY.storedOffset(stream, "t", 0, "reader")).contains(1L);
        assertThat(IGGY.storedOffset(stream, "t", 1, "reader")).isEmpty();
        assertThat(IGGY.storedOffset(stream, "t", 1, "other")).contains(0L);
        assertThat(IGGY.storedOffset(stream, "t", 0, "other")).isEmpty();
    }

    @Test
    void numericConsumerIdsWork() {
        IGGY.send(stream, "t", 0, List.of(new byte[1], new byte[1]));

        client.consumerOffsets()
                .storeConsumerOffset(
                        streamId, topicId, Optional.of(0L), Consumer.of(5L), BigInteger.ONE);

        assertThat(get(0L, Consumer.of(5L)).orElseThrow().storedOffset()).isEqualTo(BigInteger.ONE);
        assertThat(get(0L, Consumer.of(6L))).isEmpty();
    }

    private void store(long partition, long offset) {
        client.consumerOffsets()
                .storeConsumerOffset(
                        streamId,
                        topicId,
                        Optional.of(partition),
                        consumer,
                        BigInteger.valueOf(offset));
    }

    private Optional<ConsumerOffsetInfo> get(long partition, Consumer who) {
        return client.consumerOffsets()
                .getConsumerOffset(streamId, topicId, Optional.of(partition), who);
    }
}

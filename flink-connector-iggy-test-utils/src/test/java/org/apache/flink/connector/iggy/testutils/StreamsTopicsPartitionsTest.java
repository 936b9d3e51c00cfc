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
import org.apache.iggy.exception.IggyServerException;
import org.apache.iggy.exception.IggyValidationException;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;
import org.apache.iggy.partition.Partition;
import org.apache.iggy.stream.StreamBase;
import org.apache.iggy.stream.StreamDetails;
import org.apache.iggy.topic.CompressionAlgorithm;
import org.apache.iggy.topic.Topic;
import org.apache.iggy.topic.TopicDetails;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

import static org.apache.flink.connector.iggy.testutils.IggyErrors.assertServerError;
import static org.assertj.core.api.Assertions.assertThat;

/** Streams, topics and partitions (docs/development/iggy-protocol.md §6.5–6.7). */
class StreamsTopicsPartitionsTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static final BigInteger U64_MAX = new BigInteger("18446744073709551615");

    private IggyTcpClient client;
    private String stream;

    @BeforeEach
    void setUp() {
        client = IGGY.client();
        stream = IGGY.uniqueName("catalog");
    }

    @Test
    void createdStreamIsEmptyAndCanBeFoundByNameAndId() {
        StreamDetails created = client.streams().createStream(stream);

        assertThat(created.name()).isEqualTo(stream);
        assertThat(created.topicsCount()).isZero();
        assertThat(created.messagesCount()).isEqualTo(BigInteger.ZERO);
        assertThat(client.streams().getStream(StreamId.of(stream)).orElseThrow().id())
                .isEqualTo(created.id());
        assertThat(client.streams().getStream(created.id()).orElseThrow().name()).isEqualTo(stream);
        assertThat(client.streams().getStreams()).extracting(StreamBase::name).contains(stream);
    }

    @Test
    void missingStreamOrTopicIsAnEmptyOptional() {
        assertThat(client.streams().getStream(StreamId.of(IGGY.uniqueName("none")))).isEmpty();
        IGGY.createStream(stream);
        assertThat(client.topics().getTopic(StreamId.of(stream), TopicId.of("none"))).isEmpty();
        assertThat(client.topics().getTopics(StreamId.of(IGGY.uniqueName("none")))).isEmpty();
    }

    @Test
    void duplicateStreamNameIsAConflict() {
        IGGY.createStream(stream);

        assertServerError(
                () -> client.streams().createStream(stream), IggyConflictException.class, 1012);
    }

    @Test
    void updateAndDeleteStream() {
        IGGY.createStream(stream);
        String renamed = stream + "-renamed";

        client.streams().updateStream(StreamId.of(stream), renamed);
        assertThat(client.streams().getStream(StreamId.of(stream))).isEmpty();
        client.streams().deleteStream(StreamId.of(renamed));

        assertThat(client.streams().getStream(StreamId.of(renamed))).isEmpty();
        assertServerError(
                () -> client.streams().deleteStream(StreamId.of(renamed)),
                IggyResourceNotFoundException.class,
                1009);
    }

    @Test
    void createTopicRepliesWithDefaultsAndPartitions() {
        IGGY.createStream(stream);

        TopicDetails topic =
                client.topics()
                        .createTopic(
                                StreamId.of(stream),
                                3L,
                                CompressionAlgorithm.None,
                                BigInteger.ZERO,
                                BigInteger.ZERO,
                                Optional.empty(),
                                "orders");

        assertThat(topic.name()).isEqualTo("orders");
        assertThat(topic.partitionsCount()).isEqualTo(3L);
        assertThat(topic.messageExpiry()).isEqualTo(U64_MAX);
        assertThat(topic.maxTopicSize()).isEqualTo(U64_MAX);
        assertThat(topic.replicationFactor()).isEqualTo((short) 1);
        assertThat(topic.compressionAlgorithm()).isEqualTo(CompressionAlgorithm.None);
        assertThat(topic.partitions()).extracting(Partition::id).containsExactly(0L, 1L, 2L);
        StreamDetails details = client.streams().getStream(StreamId.of(stream)).orElseThrow();
        assertThat(details.topicsCount()).isEqualTo(1L);
        assertThat(details.topics()).extracting(Topic::name).containsExactly("orders");
    }

    @Test
    void topicErrors() {
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);

        assertServerError(
                () -> IGGY.createTopic(stream, "t", 1), IggyConflictException.class, 2013);
        assertServerError(
                () -> IGGY.createTopic(IGGY.uniqueName("none"), "t", 1),
                IggyResourceNotFoundException.class,
                1009);
        assertServerError(
                () -> IGGY.createTopic(stream, "too-many", 1001),
                IggyValidationException.class,
                2015);
        assertServerError(
                () ->
                        client.topics()
                                .createTopic(
                                        StreamId.of(stream),
                                        1L,
                                        CompressionAlgorithm.None,
                                        BigInteger.ZERO,
                                        BigInteger.valueOf(1024),
                                        Optional.empty(),
                                        "small"),
                IggyServerException.class,
                1019);
        assertServerError(
                () -> client.topics().deleteTopic(StreamId.of(stream), TopicId.of("none")),
                IggyResourceNotFoundException.class,
                2010);
    }

    @Test
    void updateTopicStoresValuesAsSent() {
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);

        client.topics()
                .updateTopic(
                        StreamId.of(stream),
                        TopicId.of("t"),
                        CompressionAlgorithm.Gzip,
                        BigInteger.valueOf(5000),
                        BigInteger.ZERO,
                        Optional.empty(),
                        "t2");

        Topic topic = client.topics().getTopics(StreamId.of(stream)).get(0);
        assertThat(topic.name()).isEqualTo("t2");
        assertThat(topic.messageExpiry()).isEqualTo(BigInteger.valueOf(5000));
        assertThat(topic.maxTopicSize()).isEqualTo(BigInteger.ZERO);
        assertThat(topic.compressionAlgorithm()).isEqualTo(CompressionAlgorithm.Gzip);
    }

    @Test
    void deleteTopicRemovesItsMessages() {
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
        IGGY.send(stream, "t", 0, List.of(new byte[] {1}));

        client.topics().deleteTopic(StreamId.of(stream), TopicId.of("t"));
        IGGY.createTopic(stream, "t", 1);

        assertThat(IGGY.readAll(stream, "t", 0)).isEmpty();
    }

    @Test
    void createAndDeletePartitionsAtTheEnd() {
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 2);
        StreamId streamId = StreamId.of(stream);
        TopicId topicId = TopicId.of("t");

        client.partitions().createPartitions(streamId, topicId, 3L);
        assertThat(partitionIds(streamId, topicId)).containsExactly(0L, 1L, 2L, 3L, 4L);
        IGGY.send(stream, "t", 4, List.of(new byte[] {4}));

        client.partitions().deletePartitions(streamId, topicId, 2L);
        assertThat(partitionIds(streamId, topicId)).containsExactly(0L, 1L, 2L);
        assertServerError(
                () ->
                        client.messages()
                                .sendMessages(
                                        streamId,
                                        topicId,
                                        Partitioning.partitionId(4L),
                                        List.of(Message.of("x"))),
                IggyResourceNotFoundException.class,
                3007);
    }

    @Test
    void partitionCountErrors() {
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 2);
        StreamId streamId = StreamId.of(stream);
        TopicId topicId = TopicId.of("t");

        assertServerError(
                () -> client.partitions().createPartitions(streamId, topicId, 0L),
                IggyValidationException.class,
                2015);
        assertServerError(
                () -> client.partitions().deletePartitions(streamId, topicId, 3L),
                IggyServerException.class,
                2019);
        assertServerError(
                () -> client.partitions().createPartitions(streamId, TopicId.of("x"), 1L),
                IggyResourceNotFoundException.class,
                2010);
    }

    @Test
    void streamAndTopicTotalsSumTheirPartitions() {
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "a", 2);
        IGGY.createTopic(stream, "b", 1);
        IGGY.send(stream, "a", 0, List.of(new byte[10], new byte[10]));
        IGGY.send(stream, "a", 1, List.of(new byte[10]));
        IGGY.send(stream, "b", 0, List.of(new byte[20]));

        StreamDetails details = client.streams().getStream(StreamId.of(stream)).orElseThrow();

        assertThat(details.messagesCount()).isEqualTo(BigInteger.valueOf(4));
        assertThat(details.size()).isEqualTo(String.valueOf(3 * 74 + 84));
        assertThat(details.topics())
                .extracting(Topic::messagesCount)
                .containsExactly(BigInteger.valueOf(3), BigInteger.ONE);
    }

    @Test
    void freedStreamIdsAreReusedMostRecentlyFreedFirst() {
        // Ids depend on everything else on the server, so only a fresh embedded one is checked.
        org.junit.jupiter.api.Assumptions.assumeTrue(IGGY.embeddedServer().isPresent());
        long a = client.streams().createStream(stream + "-a").id();
        client.streams().createStream(stream + "-b");
        long c = client.streams().createStream(stream + "-c").id();

        client.streams().deleteStream(a);
        client.streams().deleteStream(c);

        assertThat(client.streams().createStream(stream + "-d").id()).isEqualTo(c);
        assertThat(client.streams().createStream(stream + "-e").id()).isEqualTo(a);
    }

    private List<Long> partitionIds(StreamId streamId, TopicId topicId) {
        return client.topics().getTopic(streamId, topicId).orElseThrow().partitions().stream()
                .map(Partition::id)
                .toList();
    }
}

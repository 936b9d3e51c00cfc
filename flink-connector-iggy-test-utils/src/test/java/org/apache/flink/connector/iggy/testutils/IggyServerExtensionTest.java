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

import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.topic.TopicDetails;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.apache.flink.connector.iggy.testutils.TestMessages.offsets;
import static org.apache.flink.connector.iggy.testutils.TestMessages.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The helper API that connector tests rely on. */
class IggyServerExtensionTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @Test
    void describesTheServerItPointsAt() {
        assertThat(IGGY.address()).isEqualTo(IGGY.host() + ":" + IGGY.port());
        assertThat(IGGY.port()).isPositive();
        assertThat(IGGY.isExternal()).isEqualTo(System.getenv("IGGY_TCP_ADDRESS") != null);
        assertThat(IGGY.embeddedServer().isPresent()).isEqualTo(!IGGY.isExternal());
        IGGY.embeddedServer().ifPresent(server -> assertThat(server.port()).isEqualTo(IGGY.port()));
        assertThat(IGGY.client().system().ping()).isEqualTo("pong");
    }

    @Test
    void uniqueNamesDoNotRepeat() {
        assertThat(IGGY.uniqueName("s")).isNotEqualTo(IGGY.uniqueName("s")).startsWith("s-");
    }

    @Test
    void createSendPollReadAllAndDelete() {
        String stream = IGGY.uniqueName("ext");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 2);
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            payloads.add(("m" + i).getBytes(StandardCharsets.UTF_8));
        }

        IGGY.send(stream, "t", 1, payloads);

        TopicDetails topic =
                IGGY.client().topics().getTopic(StreamId.of(stream), TopicId.of("t")).orElseThrow();
        assertThat(topic.compressionAlgorithm().name()).isEqualTo("None");
        assertThat(topic.partitions().get(1).messagesCount()).isEqualTo(BigInteger.valueOf(25));
        List<Message> page = IGGY.poll(stream, "t", 1, 10, 5);
        assertThat(offsets(page)).containsExactly(10L, 11L, 12L, 13L, 14L);
        List<Message> all = IGGY.readAll(stream, "t", 1);
        assertThat(texts(all)).hasSize(25).startsWith("m0", "m1").endsWith("m24");
        assertThat(IGGY.readAll(stream, "t", 0)).isEmpty();
        assertThat(IGGY.currentOffset(stream, "t", 1)).isEqualTo(24);
        assertThat(IGGY.currentOffset(stream, "t", 0)).as("empty").isZero();
        // poll() stores nothing on the server
        assertThat(IGGY.storedOffset(stream, "t", 1, "extension")).isEmpty();

        IGGY.deleteStream(stream);
        assertThat(IGGY.client().streams().getStream(StreamId.of(stream))).isEmpty();
    }

    @Test
    void createTopicWithAMaxSize() {
        String stream = IGGY.uniqueName("ext-size");
        IGGY.createStream(stream);
        long twoGibibytes = 2L << 30; // above the real server's default segment size too

        IGGY.createTopic(stream, "limited", 1, twoGibibytes);
        IGGY.createTopic(stream, "default", 1);

        assertThat(maxTopicSize(stream, "limited")).isEqualTo(BigInteger.valueOf(twoGibibytes));
        assertThat(maxTopicSize(stream, "default"))
                .as("0 asks for the server's default: unlimited, u64::MAX")
                .isEqualTo(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));
        assertThatThrownBy(() -> IGGY.createTopic(stream, "negative", 1, -1))
                .isInstanceOf(IllegalArgumentException.class);
        IGGY.deleteStream(stream);
    }

    private static BigInteger maxTopicSize(String stream, String topic) {
        return IGGY.client()
                .topics()
                .getTopic(StreamId.of(stream), TopicId.of(topic))
                .orElseThrow()
                .maxTopicSize();
    }

    @Test
    void awaitMessagesWaitsForAnAsynchronousWriter() throws Exception {
        String stream = IGGY.uniqueName("ext-await");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
        CompletableFuture<Void> writer =
                CompletableFuture.runAsync(
                        () -> {
                            for (int i = 0; i < 5; i++) {
                                IGGY.send(stream, "t", 0, List.of(new byte[] {(byte) i}));
                            }
                        });

        List<Message> messages = IGGY.awaitMessages(stream, "t", 0, 5, Duration.ofSeconds(30));

        writer.get(30, TimeUnit.SECONDS);
        assertThat(messages).hasSize(5);
        assertThat(IGGY.messagesCount(stream, "t", 0)).isEqualTo(5L);
        assertThatThrownBy(() -> IGGY.awaitMessages(stream, "t", 0, 6, Duration.ofMillis(50)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("found 5");
    }

    @Test
    void storedOffsetReadsANamedConsumersOffset() {
        String stream = IGGY.uniqueName("ext-offset");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
        IGGY.send(stream, "t", 0, List.of(new byte[1], new byte[1]));

        IGGY.client()
                .consumerOffsets()
                .storeConsumerOffset(
                        StreamId.of(stream),
                        TopicId.of("t"),
                        Optional.of(0L),
                        Consumer.of(ConsumerId.of("flink-source")),
                        BigInteger.ONE);

        assertThat(IGGY.storedOffset(stream, "t", 0, "flink-source")).contains(1L);
        assertThat(IGGY.storedOffset(stream, "t", 0, "someone-else")).isEmpty();
    }
}

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

import org.apache.flink.connector.iggy.testutils.server.EmbeddedIggyServer;

import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.MessageId;
import org.apache.iggy.message.Partitioning;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigInteger;
import java.util.List;

import static org.apache.flink.connector.iggy.testutils.TestMessages.offsets;
import static org.apache.flink.connector.iggy.testutils.TestMessages.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Message deduplication by id (docs/development/iggy-protocol.md §7.1), switched on through the
 * server config. Skipped against a real server, whose configuration this test cannot choose.
 */
class DeduplicationTest {

    @RegisterExtension
    static final IggyServerExtension IGGY =
            new IggyServerExtension(
                    EmbeddedIggyServer.Config.builder().deduplicationEnabled().build());

    private String stream;

    @BeforeEach
    void setUp() {
        assumeTrue(IGGY.embeddedServer().isPresent(), "needs the embedded server's config");
        stream = IGGY.uniqueName("dedup");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 2);
    }

    @Test
    void duplicateIdsAreDroppedSilentlyAcrossSends() {
        send(0, List.of(withId(1, "first"), withId(2, "second")));
        send(0, List.of(withId(1, "again"), withId(3, "third")));

        List<Message> all = IGGY.readAll(stream, "t", 0);

        assertThat(texts(all)).containsExactly("first", "second", "third");
        assertThat(offsets(all)).containsExactly(0L, 1L, 2L);
    }

    @Test
    void duplicatesInsideOneBatchAreDropped() {
        send(0, List.of(withId(5, "a"), withId(5, "b"), withId(6, "c")));

        assertThat(texts(IGGY.readAll(stream, "t", 0))).containsExactly("a", "c");
    }

    @Test
    void aBatchOfOnlyDuplicatesStillSucceeds() {
        send(0, List.of(withId(9, "once")));
        send(0, List.of(withId(9, "twice")));

        assertThat(texts(IGGY.readAll(stream, "t", 0))).containsExactly("once");
        assertThat(
                        IGGY.client()
                                .topics()
                                .getTopic(StreamId.of(stream), TopicId.of("t"))
                                .orElseThrow()
                                .messagesCount())
                .isEqualTo(BigInteger.ONE);
    }

    @Test
    void deduplicationIsPerPartition() {
        send(0, List.of(withId(7, "p0")));
        send(1, List.of(withId(7, "p1")));

        assertThat(texts(IGGY.readAll(stream, "t", 0))).containsExactly("p0");
        assertThat(texts(IGGY.readAll(stream, "t", 1))).containsExactly("p1");
    }

    @Test
    void serverGeneratedIdsNeverCollide() {
        send(0, List.of(Message.of("x"), Message.of("x")));
        send(0, List.of(Message.of("x")));

        assertThat(IGGY.readAll(stream, "t", 0)).hasSize(3);
    }

    private void send(long partition, List<Message> messages) {
        IGGY.client()
                .messages()
                .sendMessages(
                        StreamId.of(stream),
                        TopicId.of("t"),
                        Partitioning.partitionId(partition),
                        messages);
    }

    private static Message withId(long id, String payload) {
        return TestMessages.withId(MessageId.from(BigInteger.valueOf(id)), payload);
    }
}

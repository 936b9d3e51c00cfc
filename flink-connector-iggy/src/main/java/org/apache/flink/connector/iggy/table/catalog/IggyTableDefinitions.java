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
package org.apache.flink.connector.iggy.table.catalog;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyErrorCode;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions;
import org.apache.flink.table.catalog.exceptions.CatalogException;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
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
import org.apache.iggy.topic.CompressionAlgorithm;
import org.apache.iggy.topic.TopicDetails;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The table definitions of every stream, kept in a topic of that stream ({@value #TOPIC}, one
 * partition, messages never expire) as a keyed map: the user header {@code flink.key} holds the
 * table name and the payload the {@link IggyTableDefinition}; a deletion is a message with that
 * key, the user header {@code flink.op} = {@code d} and an empty payload (the {@code upsert-iggy}
 * connector's {@code 'header'} delete encoding, so the topic reads as an {@code upsert-iggy} table
 * too). The last message of a key wins.
 *
 * <p>Every read first catches up with the topic, so a definition another catalog wrote is seen at
 * the next lookup. The topic is created with the stream's first stored definition.
 */
@Internal
final class IggyTableDefinitions {

    private static final Logger LOG = LoggerFactory.getLogger(IggyTableDefinitions.class);

    /** The topic of a stream that holds the definitions of the stream's tables. */
    static final String TOPIC = "__flink_tables";

    static final String KEY_HEADER = IggyConnectorOptions.DEFAULT_KEY_HEADER;

    /** As {@code upsert-iggy} marks a deletion under {@code 'delete.encoding' = 'header'}. */
    static final String OP_HEADER = "flink.op";

    static final String OP_DELETE = "d";

    private static final long PARTITION = 0L;

    private static final int POLL_BATCH = 1000;

    private final AsyncIggyTcpClient client;
    private final IggyConnectionConfig connection;
    private final Map<String, StreamDefinitions> streams = new HashMap<>();

    IggyTableDefinitions(AsyncIggyTcpClient client, IggyConnectionConfig connection) {
        this.client = client;
        this.connection = connection;
    }

    /** The stored definition bytes of every table of {@code stream}, by table name. */
    synchronized Map<String, byte[]> read(String stream) {
        return Map.copyOf(catchUp(stream).byTable);
    }

    /** The stored definition of one table, if any. */
    synchronized Optional<byte[]> read(String stream, String table) {
        return Optional.ofNullable(catchUp(stream).byTable.get(table));
    }

    /** Stores {@code definition} as the table's, creating the definitions topic if needed. */
    synchronized void write(String stream, String table, byte[] definition) {
        ensureTopic(stream);
        send(stream, table, definition, Map.of());
        catchUp(stream);
    }

    /** Forgets the table's definition; does nothing when there is none. */
    synchronized boolean remove(String stream, String table) {
        if (!catchUp(stream).byTable.containsKey(table)) {
            return false;
        }
        send(
                stream,
                table,
                new byte[0],
                Map.of(HeaderKey.fromString(OP_HEADER), HeaderValue.fromString(OP_DELETE)));
        catchUp(stream);
        return true;
    }

    /** Drops what is known of a deleted stream. */
    synchronized void forget(String stream) {
        streams.remove(stream);
    }

    private StreamDefinitions catchUp(String stream) {
        Optional<TopicDetails> topic =
                await(
                        client.topics().getTopic(StreamId.of(stream), TopicId.of(TOPIC)),
                        "read the table definitions topic of stream '" + stream + "'");
        StreamDefinitions known = streams.get(stream);
        if (topic.isEmpty()) {
            streams.remove(stream);
            return new StreamDefinitions(-1);
        }
        if (known == null || known.topicId != topic.get().id()) {
            // First look, or the stream or topic was deleted and created again.
            known = new StreamDefinitions(topic.get().id());
            streams.put(stream, known);
        }
        long end =
                topic.get().partitions().stream()
                        .filter(p -> p.id() == PARTITION)
                        .findFirst()
                        .map(p -> p.messagesCount().longValueExact())
                        .orElse(0L);
        while (known.nextOffset < end) {
            PolledMessages polled =
                    await(
                            client.messages()
                                    .pollMessages(
                                            StreamId.of(stream),
                                            TopicId.of(TOPIC),
                                            Optional.of(PARTITION),
                                            Consumer.of(0L),
                                            PollingStrategy.offset(
                                                    BigInteger.valueOf(known.nextOffset)),
                                            (long) POLL_BATCH,
                                            false),
                            "read the table definitions of stream '" + stream + "'");
            if (polled.messages().isEmpty()) {
                break;
            }
            for (Message message : polled.messages()) {
                known.apply(stream, message);
            }
        }
        return known;
    }

    private void ensureTopic(String stream) {
        Optional<TopicDetails> topic =
                await(
                        client.topics().getTopic(StreamId.of(stream), TopicId.of(TOPIC)),
                        "read the table definitions topic of stream '" + stream + "'");
        if (topic.isPresent()) {
            return;
        }
        try {
            await(
                    client.topics()
                            .createTopic(
                                    StreamId.of(stream),
                                    1L,
                                    CompressionAlgorithm.None,
                                    IggyTopicSettings.NEVER_EXPIRE, // offsets stay 0..count
                                    BigInteger.ZERO,
                                    Optional.empty(),
                                    TOPIC),
                    "create the table definitions topic '"
                            + TOPIC
                            + "' of stream '"
                            + stream
                            + "'");
            LOG.info("Created the table definitions topic '{}' of stream '{}'", TOPIC, stream);
        } catch (CatalogException e) {
            if (!IggyErrorCode.TOPIC_NAME_ALREADY_EXISTS.isCauseOf(e)) {
                throw e; // another catalog created it meanwhile otherwise
            }
        }
    }

    private void send(
            String stream, String table, byte[] payload, Map<HeaderKey, HeaderValue> extra) {
        await(
                client.messages()
                        .sendMessages(
                                StreamId.of(stream),
                                TopicId.of(TOPIC),
                                Partitioning.partitionId(PARTITION),
                                List.of(message(table, payload, extra))),
                "store the definition of table '" + table + "' in stream '" + stream + "'");
    }

    /** A message of the definitions topic: {@code table} in the key header, then {@code extra}. */
    static Message message(String table, byte[] payload, Map<HeaderKey, HeaderValue> extra) {
        Map<HeaderKey, HeaderValue> headers = new HashMap<>(extra);
        headers.put(HeaderKey.fromString(KEY_HEADER), HeaderValue.fromString(table));
        MessageHeader header =
                new MessageHeader(
                        BigInteger.ZERO,
                        MessageId.serverGenerated(),
                        BigInteger.ZERO,
                        BigInteger.ZERO,
                        BigInteger.ZERO,
                        0L,
                        (long) payload.length,
                        BigInteger.ZERO);
        // withUserHeaders computes the headers' length in the message header.
        return new Message(header, payload, Map.of()).withUserHeaders(headers);
    }

    private <T> T await(CompletableFuture<T> request, String what) {
        return IggyTopicAdmin.await(request, connection, what);
    }

    /** What is known of one stream's definitions topic. */
    private static final class StreamDefinitions {
        final long topicId;
        final Map<String, byte[]> byTable = new HashMap<>();
        long nextOffset;

        StreamDefinitions(long topicId) {
            this.topicId = topicId;
        }

        void apply(String stream, Message message) {
            long offset = message.header().offset().longValueExact();
            nextOffset = offset + 1;
            @Nullable String table = text(message, KEY_HEADER);
            if (table == null) {
                LOG.warn(
                        "Ignoring message {} of the table definitions topic of stream '{}': it has"
                                + " no '{}' header naming a table, so another producer wrote it",
                        offset,
                        stream,
                        KEY_HEADER);
                return;
            }
            if (OP_DELETE.equals(text(message, OP_HEADER))) {
                byTable.remove(table);
            } else {
                byTable.put(table, message.payload());
            }
        }

        @Nullable
        private static String text(Message message, String header) {
            Map<HeaderKey, HeaderValue> headers = message.userHeaders();
            HeaderValue value = headers == null ? null : headers.get(HeaderKey.fromString(header));
            return value == null ? null : new String(value.value(), StandardCharsets.UTF_8);
        }
    }
}

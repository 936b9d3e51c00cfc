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
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.MessageBatch;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions;
import org.apache.flink.connector.iggy.table.IggyDynamicTableFactory;
import org.apache.flink.connector.iggy.table.shim.CatalogTables;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogPropertiesUtil;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.factories.FactoryUtil;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The table definitions of every stream, kept in a topic of that stream ({@value #TOPIC}, one
 * partition, messages never expire) as a keyed map: the user header {@code flink.key} holds the
 * table name, the payload the stored definition; a deletion has the header {@code flink.op} =
 * {@code d} and an empty payload (so the topic reads as an {@code upsert-iggy} table too). The last
 * message of a key wins; every read first catches up with the topic, so a definition another
 * catalog wrote is seen at the next lookup.
 *
 * <p>A stored definition (version 1) is {@code [int version][map schema][map options]}, a map
 * {@code [int count]} and that many {@code [string key][string value]}, a string {@code [int
 * length]} and its UTF-8 bytes. The schema map is Flink's property form of the schema ({@link
 * CatalogPropertiesUtil}), kept apart from the options so that neither is mistaken for the other.
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

    /** The consumer the catalog reads as; it stores no offset. */
    private static final String CONSUMER = "flink-catalog";

    private static final IggyId TOPIC_ID = IggyId.of(TOPIC);

    private final IggyServerClient server;
    private final Map<String, StreamDefinitions> streams = new HashMap<>();

    IggyTableDefinitions(IggyServerClient server) {
        this.server = server;
    }

    /** The stored definition of one table, if any. */
    synchronized Optional<byte[]> read(String stream, String table) {
        return Optional.ofNullable(catchUp(stream).byTable.get(table));
    }

    /** Stores {@code definition} as the table's, creating the definitions topic if needed. */
    synchronized void write(String stream, String table, byte[] definition) {
        ensureTopic(stream);
        send(stream, table, definition, IggyHeaders.empty());
        catchUp(stream);
    }

    /** Forgets the table's definition; does nothing when there is none. */
    synchronized void remove(String stream, String table) {
        if (catchUp(stream).byTable.containsKey(table)) {
            send(stream, table, new byte[0], IggyHeaders.of(OP_HEADER, OP_DELETE));
            catchUp(stream);
        }
    }

    /** Drops what is known of a deleted stream. */
    synchronized void forget(String stream) {
        streams.remove(stream);
    }

    private StreamDefinitions catchUp(String stream) {
        Optional<TopicDescription> topic = server.topic(IggyId.of(stream), TOPIC_ID);
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
        long end = topic.get().endOffsets().getOrDefault(PARTITION, 0L);
        while (known.nextOffset < end) {
            long from = known.nextOffset;
            MessageBatch polled =
                    server.await(
                            server.poll(
                                    IggyId.of(stream),
                                    TOPIC_ID,
                                    PARTITION,
                                    CONSUMER,
                                    from,
                                    POLL_BATCH),
                            "read the table definitions of stream " + stream);
            if (polled.isEmpty()) {
                break;
            }
            for (int i = 0; i < polled.size(); i++) {
                known.apply(stream, polled, i);
            }
        }
        return known;
    }

    private void ensureTopic(String stream) {
        // Not created when another catalog created it meanwhile.
        if (server.topic(IggyId.of(stream), TOPIC_ID).isEmpty()
                && server.createTopic(
                        IggyId.of(stream), TOPIC, 1, false, TopicDescription.NEVER_EXPIRE)) {
            // Messages never expire, so offsets stay 0..count.
            LOG.info("Created the table definitions topic '{}' of stream '{}'", TOPIC, stream);
        }
    }

    private void send(String stream, String table, byte[] payload, IggyHeaders extra) {
        server.await(
                server.send(
                        new IggyTopicPartition(IggyId.of(stream), TOPIC_ID, PARTITION),
                        List.of(message(table, payload, extra))),
                "send to topic " + TOPIC + " of " + stream);
    }

    /** A message of the definitions topic: {@code table} in the key header, then {@code extra}. */
    static OutgoingMessage message(String table, byte[] payload, IggyHeaders extra) {
        return new OutgoingMessage(
                payload, extra.with(KEY_HEADER, IggyHeaderValue.ofString(table)), null, 0L);
    }

    /** What is known of one stream's definitions topic. */
    private static final class StreamDefinitions {
        final long topicId;
        final Map<String, byte[]> byTable = new HashMap<>();
        long nextOffset;

        StreamDefinitions(long topicId) {
            this.topicId = topicId;
        }

        void apply(String stream, MessageBatch messages, int index) {
            long offset = messages.offset(index);
            nextOffset = offset + 1;
            IggyHeaders headers = messages.headers(index);
            @Nullable String table = text(headers, KEY_HEADER);
            if (table == null) {
                LOG.warn(
                        "Ignoring message {} of the table definitions topic of stream '{}': it has"
                                + " no '{}' header naming a table, so another producer wrote it",
                        offset,
                        stream,
                        KEY_HEADER);
                return;
            }
            if (OP_DELETE.equals(text(headers, OP_HEADER))) {
                byTable.remove(table);
            } else {
                byTable.put(table, messages.payload(index));
            }
        }

        @Nullable
        private static String text(IggyHeaders headers, String header) {
            return headers.get(header)
                    .map(IggyHeaderValue::bytes)
                    .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
                    .orElse(null);
        }
    }

    static final int CURRENT_VERSION = 1;

    /** The stored bytes of {@code table}, in the current version. */
    static byte[] serialize(ResolvedCatalogTable table, Map<String, String> options) {
        Map<String, String> schema = CatalogTables.toProperties(table.copy(Collections.emptyMap()));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(CURRENT_VERSION);
            writeMap(out, schema);
            writeMap(out, options);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: does not happen
        }
        return bytes.toByteArray();
    }

    /**
     * The table of a topic Flink did not define: its payload ({@code STRING} when {@code
     * defaultFormat} is {@code raw}, else {@code BYTES}) and metadata columns, read with the {@code
     * raw} format.
     */
    static CatalogTable ofUndefinedTopic(@Nullable String defaultFormat) {
        boolean text = "raw".equals(defaultFormat);
        Schema schema =
                Schema.newBuilder()
                        .column("payload", text ? DataTypes.STRING() : DataTypes.BYTES())
                        .columnByMetadata("partition", DataTypes.INT().notNull(), true)
                        .columnByMetadata("offset", DataTypes.BIGINT().notNull(), true)
                        .columnByMetadata(
                                "timestamp",
                                DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6).notNull(),
                                true)
                        .columnByMetadata(
                                "origin_timestamp",
                                DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6),
                                "origin-timestamp",
                                true)
                        .columnByMetadata(
                                "message_id", DataTypes.BINARY(16).notNull(), "message-id", true)
                        .columnByMetadata("checksum", DataTypes.BIGINT().notNull(), true)
                        .columnByMetadata(
                                "headers",
                                DataTypes.MAP(DataTypes.STRING(), DataTypes.BYTES()).notNull(),
                                true)
                        .build();
        Map<String, String> options = new HashMap<>();
        options.put(FactoryUtil.CONNECTOR.key(), IggyDynamicTableFactory.IDENTIFIER);
        options.put(FactoryUtil.FORMAT.key(), "raw");
        return CatalogTable.newBuilder()
                .schema(schema)
                .comment("An Iggy topic without a Flink definition: its payload and metadata.")
                .options(options)
                .build();
    }

    /**
     * The table stored in {@code bytes}, or an error naming {@code tableName} when the bytes are
     * not a definition this connector can read.
     */
    static CatalogTable deserialize(byte[] bytes, String tableName) {
        Map<String, String> schema;
        Map<String, String> options;
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int version = in.readInt();
            if (version > CURRENT_VERSION) {
                throw new CatalogException(
                        "The stored definition of table "
                                + tableName
                                + " has format version "
                                + version
                                + ", but this connector reads versions up to "
                                + CURRENT_VERSION
                                + ": it was written by a newer connector. Use that connector"
                                + " version (or newer) to read the table.");
            }
            if (version < 1) {
                throw new IOException("unknown format version " + version);
            }
            schema = readMap(in);
            options = readMap(in);
            if (in.read() != -1) {
                throw new IOException("unexpected bytes after the options");
            }
        } catch (IOException e) {
            throw corrupt(tableName, e);
        }
        try {
            return CatalogPropertiesUtil.deserializeCatalogTable(schema).copy(options);
        } catch (RuntimeException e) {
            throw corrupt(tableName, e);
        }
    }

    private static CatalogException corrupt(String tableName, Exception cause) {
        return new CatalogException(
                "The stored definition of table "
                        + tableName
                        + " cannot be read ("
                        + (cause instanceof EOFException ? "truncated" : cause.getMessage())
                        + "). DROP TABLE forgets it (and keeps the topic unless the catalog"
                        + " allows drops); CREATE TABLE then defines the table anew.",
                cause);
    }

    private static void writeMap(DataOutputStream out, Map<String, String> map) throws IOException {
        Map<String, String> sorted = new TreeMap<>(map);
        out.writeInt(sorted.size());
        for (Map.Entry<String, String> e : sorted.entrySet()) {
            writeString(out, e.getKey());
            writeString(out, e.getValue());
        }
    }

    private static Map<String, String> readMap(DataInputStream in) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > in.available()) {
            throw new IOException("invalid entry count " + count);
        }
        Map<String, String> map = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            map.put(readString(in), readString(in));
        }
        return map;
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String readString(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("invalid string length " + length);
        }
        byte[] utf8 = new byte[length];
        in.readFully(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }
}

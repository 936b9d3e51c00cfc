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
import org.apache.flink.connector.iggy.table.IggyDynamicTableFactory;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogPropertiesUtil;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.expressions.DefaultSqlFactory;
import org.apache.flink.table.factories.FactoryUtil;

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
import java.util.Map;
import java.util.TreeMap;

/**
 * The stored form of a table definition: what a later session needs to see the same table.
 *
 * <p>Version 1 is {@code [int version][map schema][map options]}, where a map is {@code [int
 * count]} and that many {@code [string key][string value]}, and a string is {@code [int length]}
 * and its UTF-8 bytes. The schema map is Flink's property form of the schema, comment, partition
 * keys and distribution ({@link CatalogPropertiesUtil}); the options are the table's options as
 * given. They are kept apart so that an option can never be mistaken for a schema property.
 */
@Internal
final class IggyTableDefinition {

    static final int CURRENT_VERSION = 1;

    private IggyTableDefinition() {}

    /** The stored bytes of {@code table}, in the current version. */
    static byte[] serialize(ResolvedCatalogTable table, Map<String, String> options) {
        Map<String, String> schema =
                CatalogPropertiesUtil.serializeCatalogTable(
                        table.copy(Collections.emptyMap()), DefaultSqlFactory.INSTANCE);
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

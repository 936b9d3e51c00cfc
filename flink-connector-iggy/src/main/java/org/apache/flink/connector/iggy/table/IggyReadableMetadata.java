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
package org.apache.flink.connector.iggy.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyHeadersInternals;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.util.function.SerializableFunction;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;

/** The metadata columns the {@code iggy} and {@code upsert-iggy} sources can read. */
@Internal
enum IggyReadableMetadata {
    STREAM(
            "stream",
            DataTypes.STRING().notNull(),
            message -> StringData.fromString(message.stream().asText())),
    TOPIC(
            "topic",
            DataTypes.STRING().notNull(),
            message -> StringData.fromString(message.topic().asText())),
    PARTITION("partition", DataTypes.INT().notNull(), message -> (int) message.partition()),
    OFFSET("offset", DataTypes.BIGINT().notNull(), message -> message.offset()),
    TIMESTAMP(
            "timestamp",
            DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6).notNull(),
            message -> micros(message.timestampMicros())),
    /** The producer's timestamp; NULL when the producer left it 0 (unset). */
    ORIGIN_TIMESTAMP(
            "origin-timestamp",
            DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6).nullable(),
            message ->
                    message.originTimestampMicros() == 0
                            ? null
                            : micros(message.originTimestampMicros())),
    /** The unsigned 128-bit id, big-endian. */
    MESSAGE_ID(
            "message-id",
            DataTypes.BINARY(16).notNull(),
            message -> messageIdBytes(message.messageId())),
    CHECKSUM("checksum", DataTypes.BIGINT().notNull(), message -> message.checksum()),
    /** User headers: key as UTF-8 text, value as its raw bytes whatever its Iggy kind. */
    HEADERS(
            "headers",
            DataTypes.MAP(DataTypes.STRING().nullable(), DataTypes.BYTES().nullable()).notNull(),
            message -> headers(message.headers()));

    final String key;
    final DataType dataType;
    final SerializableFunction<IggyMessage, Object> reader;

    IggyReadableMetadata(
            String key, DataType dataType, SerializableFunction<IggyMessage, Object> reader) {
        this.key = key;
        this.dataType = dataType;
        this.reader = reader;
    }

    static IggyReadableMetadata of(String key) {
        for (IggyReadableMetadata m : values()) {
            if (m.key.equals(key)) {
                return m;
            }
        }
        throw new IllegalArgumentException("Unknown metadata key: " + key);
    }

    private static TimestampData micros(long micros) {
        return TimestampData.fromEpochMillis(
                Math.floorDiv(micros, 1000), (int) Math.floorMod(micros, 1000) * 1000);
    }

    static byte[] messageIdBytes(BigInteger id) {
        byte[] raw = id.toByteArray();
        byte[] out = new byte[16];
        int n = Math.min(raw.length, 16);
        System.arraycopy(raw, raw.length - n, out, 16 - n, n);
        return out;
    }

    private static GenericMapData headers(IggyHeaders headers) {
        Map<StringData, byte[]> map = new HashMap<>();
        IggyHeadersInternals.view(headers)
                .forEach(
                        (k, v) ->
                                map.put(StringData.fromString(k), IggyHeadersInternals.encoded(v)));
        return new GenericMapData(map);
    }
}

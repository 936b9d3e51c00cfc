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
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyHeadersInternals;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;

import javax.annotation.Nullable;

import java.util.Arrays;
import java.util.List;

/**
 * The metadata columns the {@code iggy} sink can write ({@code upsert-iggy}: headers and origin
 * timestamp), and their conversion to message fields, shared by both sinks.
 */
@Internal
enum IggyWritableMetadata {
    /** User headers, each value written as raw bytes. */
    HEADERS(
            "headers",
            DataTypes.MAP(DataTypes.STRING().nullable(), DataTypes.BYTES().nullable()).nullable()),
    /** The unsigned 128-bit id, big-endian; NULL or all zero lets the server choose one. */
    MESSAGE_ID("message-id", DataTypes.BINARY(16).nullable()),
    /** Default: the row's Flink timestamp, or the time of writing. */
    ORIGIN_TIMESTAMP("origin-timestamp", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6).nullable()),
    /** The target partition; NULL leaves the choice to 'sink.partitioner'. */
    PARTITION("partition", DataTypes.INT().nullable()),
    /**
     * The row's topic (of the table's stream), for a table that names no single topic; see {@link
     * IggyRowRouting}.
     */
    TOPIC("topic", DataTypes.STRING().nullable());

    final String key;
    final DataType dataType;

    IggyWritableMetadata(String key, DataType dataType) {
        this.key = key;
        this.dataType = dataType;
    }

    /** Whether {@code upsert-iggy} can write it: message ids and partitions are the sink's. */
    boolean writableByUpsert() {
        return this == HEADERS || this == ORIGIN_TIMESTAMP || this == TOPIC;
    }

    /**
     * Position of each metadata column in the consumed row (indexed by ordinal), or -1.
     *
     * @param metadataKeys the written metadata columns, in the order they follow the physical ones
     */
    static int[] positions(List<String> metadataKeys, int physicalArity) {
        int[] positions = new int[values().length];
        Arrays.fill(positions, -1);
        for (int i = 0; i < metadataKeys.size(); i++) {
            positions[of(metadataKeys.get(i)).ordinal()] = physicalArity + i;
        }
        return positions;
    }

    /** The 'headers' column, each value as raw bytes. */
    static IggyHeaders headers(RowData row, int[] positions) {
        int pos = positions[HEADERS.ordinal()];
        if (pos < 0 || row.isNullAt(pos)) {
            return IggyHeaders.empty();
        }
        MapData map = row.getMap(pos);
        ArrayData keys = map.keyArray();
        ArrayData values = map.valueArray();
        IggyHeaders.Builder headers = IggyHeaders.builder();
        for (int i = 0; i < map.size(); i++) {
            if (keys.isNullAt(i)) {
                continue;
            }
            byte[] name = keys.getString(i).toBytes();
            if (name.length == 0 || name.length > 255) {
                throw new IggyConnectorException(
                        "A key of the 'headers' metadata column has "
                                + name.length
                                + " bytes: Iggy header keys have 1 to 255 bytes.");
            }
            byte[] value = values.isNullAt(i) ? new byte[0] : values.getBinary(i);
            headers.put(
                    keys.getString(i).toString(),
                    IggyHeadersInternals.value(IggyHeaderValue.Kind.RAW, value));
        }
        return headers.build();
    }

    /** The 'origin-timestamp' column in microseconds, or {@code null} when absent or NULL. */
    @Nullable
    static Long originTimestampMicros(RowData row, int[] positions) {
        int pos = positions[ORIGIN_TIMESTAMP.ordinal()];
        if (pos < 0 || row.isNullAt(pos)) {
            return null;
        }
        TimestampData ts = row.getTimestamp(pos, 6);
        return ts.getMillisecond() * 1000 + ts.getNanoOfMillisecond() / 1000;
    }

    static IggyWritableMetadata of(String key) {
        for (IggyWritableMetadata m : values()) {
            if (m.key.equals(key)) {
                return m;
            }
        }
        throw new IllegalArgumentException("Unknown metadata key: " + key);
    }
}

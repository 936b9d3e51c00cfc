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

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.DeleteEncoding;
import org.apache.flink.connector.iggy.table.IggyRowDataDeserializationSchema.IggyReadableMetadata;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.deserializerContext;
import static org.assertj.core.api.Assertions.assertThat;

/** How messages become rows in the append and upsert table sources, without a cluster. */
class IggyRowDataDeserializationSchemaTest {

    /** Table (id, name): key column 0 in the key header, value column 1 in the payload. */
    private static IggyRowDataDeserializationSchema.RowAssembler assembler(
            List<IggyReadableMetadata> metadata) {
        return new IggyRowDataDeserializationSchema.RowAssembler(
                List.of(new VarCharType(), new VarCharType()),
                new int[] {0},
                new int[] {1},
                metadata);
    }

    @Test
    void appendRowHasKeyValueAndMetadata() throws Exception {
        IggyRowDataDeserializationSchema schema =
                new IggyRowDataDeserializationSchema(
                        new Utf8Column(),
                        new Utf8Column(),
                        "flink.key",
                        assembler(
                                List.of(
                                        IggyReadableMetadata.STREAM,
                                        IggyReadableMetadata.PARTITION,
                                        IggyReadableMetadata.OFFSET,
                                        IggyReadableMetadata.TIMESTAMP,
                                        IggyReadableMetadata.ORIGIN_TIMESTAMP,
                                        IggyReadableMetadata.MESSAGE_ID,
                                        IggyReadableMetadata.CHECKSUM,
                                        IggyReadableMetadata.HEADERS)),
                        null);
        schema.open(deserializerContext(new SimpleCounter()));
        List<RowData> rows = new ArrayList<>();
        schema.deserialize(
                message(7, "apple", Map.of("flink.key", "k1", "trace", "x"), 0),
                new ListCollector<>(rows));

        assertThat(rows).hasSize(1);
        RowData row = rows.get(0);
        assertThat(row.getRowKind()).isEqualTo(RowKind.INSERT);
        assertThat(row.getString(0).toString()).isEqualTo("k1");
        assertThat(row.getString(1).toString()).isEqualTo("apple");
        assertThat(row.getString(2).toString()).isEqualTo("s");
        assertThat(row.getInt(3)).isEqualTo(3);
        assertThat(row.getLong(4)).isEqualTo(7);
        assertThat(row.getTimestamp(5, 6))
                .isEqualTo(TimestampData.fromEpochMillis(1_700_000_000_123L, 456_000));
        assertThat(row.isNullAt(6)).as("origin timestamp 0 means unset").isTrue();
        byte[] id = row.getBinary(7);
        assertThat(id).hasSize(16);
        assertThat(new BigInteger(1, id)).isEqualTo(BigInteger.valueOf(0x0102));
        assertThat(row.getLong(8)).isEqualTo(99);
        MapData headers = row.getMap(9);
        Map<String, String> decoded = new HashMap<>();
        for (int i = 0; i < headers.size(); i++) {
            decoded.put(
                    headers.keyArray().getString(i).toString(),
                    new String(headers.valueArray().getBinary(i), StandardCharsets.UTF_8));
        }
        assertThat(decoded).isEqualTo(Map.of("flink.key", "k1", "trace", "x"));
    }

    @Test
    void appendRowWithoutKeyHeaderHasNullKeyColumns() throws Exception {
        IggyRowDataDeserializationSchema schema =
                new IggyRowDataDeserializationSchema(
                        new Utf8Column(),
                        new Utf8Column(),
                        "flink.key",
                        assembler(List.of()),
                        null);
        schema.open(deserializerContext(new SimpleCounter()));
        List<RowData> rows = new ArrayList<>();
        schema.deserialize(message(0, "pear", Map.of(), 5), new ListCollector<>(rows));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).isNullAt(0)).isTrue();
        assertThat(rows.get(0).getString(1).toString()).isEqualTo("pear");
    }

    @Test
    void upsertDecodesDeletesByPayloadAndSkipsMessagesWithoutKey() throws Exception {
        IggyRowDataDeserializationSchema.Upsert schema =
                upsertSchema(DeleteEncoding.EMPTY_PAYLOAD, List.of(IggyReadableMetadata.OFFSET));
        SimpleCounter skipped = new SimpleCounter();
        schema.open(deserializerContext(skipped));
        List<RowData> rows = new ArrayList<>();
        ListCollector<RowData> out = new ListCollector<>(rows);
        schema.deserialize(message(0, "v1", Map.of("flink.key", "k1"), 0), out);
        schema.deserialize(message(1, "", Map.of("flink.key", "k1"), 0), out);
        schema.deserialize(message(2, "orphan", Map.of(), 0), out);
        schema.deserialize(message(3, "", Map.of("flink.key", ""), 0), out);

        assertThat(rows).hasSize(3);
        assertThat(rows.get(0).getRowKind()).isEqualTo(RowKind.INSERT);
        assertThat(rows.get(0).getString(0).toString()).isEqualTo("k1");
        assertThat(rows.get(0).getString(1).toString()).isEqualTo("v1");
        assertThat(rows.get(1).getRowKind()).isEqualTo(RowKind.DELETE);
        assertThat(rows.get(1).getString(0).toString()).isEqualTo("k1");
        assertThat(rows.get(1).isNullAt(1)).as("a deletion carries the key only").isTrue();
        assertThat(rows.get(1).getLong(2)).isEqualTo(1);
        // An empty key is a real key; the message without key header is skipped and counted.
        assertThat(rows.get(2).getRowKind()).isEqualTo(RowKind.DELETE);
        assertThat(rows.get(2).getString(0).toString()).isEmpty();
        assertThat(skipped.getCount()).isEqualTo(1);
    }

    @Test
    void upsertWithHeaderEncodingDeletesOnlyOnTheOpHeaderAndKeepsEmptyValues() throws Exception {
        IggyRowDataDeserializationSchema.Upsert schema =
                upsertSchema(DeleteEncoding.HEADER, List.of());
        schema.open(deserializerContext(new SimpleCounter()));
        List<RowData> rows = new ArrayList<>();
        ListCollector<RowData> out = new ListCollector<>(rows);
        schema.deserialize(message(0, "", Map.of("flink.key", "k1"), 0), out);
        schema.deserialize(message(1, "", Map.of("flink.key", "k1", "flink.op", "d"), 0), out);
        schema.deserialize(message(2, "", Map.of("flink.key", "k1", "flink.op", "x"), 0), out);

        assertThat(rows)
                .extracting(RowData::getRowKind)
                .containsExactly(RowKind.INSERT, RowKind.DELETE, RowKind.INSERT);
        assertThat(rows.get(0).getString(1).toString()).as("an empty value is a value").isEmpty();
    }

    @Test
    void upsertWithoutDeleteEncodingReadsEveryMessageAsUpsert() throws Exception {
        IggyRowDataDeserializationSchema.Upsert schema =
                upsertSchema(DeleteEncoding.NONE, List.of());
        schema.open(deserializerContext(new SimpleCounter()));
        List<RowData> rows = new ArrayList<>();
        schema.deserialize(message(0, "", Map.of("flink.key", "k1"), 0), new ListCollector<>(rows));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).getRowKind()).isEqualTo(RowKind.INSERT);
        assertThat(rows.get(0).getString(1).toString()).isEmpty();
    }

    private static IggyRowDataDeserializationSchema.Upsert upsertSchema(
            DeleteEncoding deletes, List<IggyReadableMetadata> metadata) {
        return new IggyRowDataDeserializationSchema.Upsert(
                new Utf8Column(),
                new Utf8Column(),
                "flink.key",
                IggyDeletionMessage.of(deletes, null),
                assembler(metadata),
                null);
    }

    private static IggyMessage message(
            long offset, String payload, Map<String, String> headers, long originMicros) {
        IggyHeaders.Builder userHeaders = IggyHeaders.builder();
        headers.forEach(
                (k, v) ->
                        userHeaders.put(
                                k, IggyHeaderValue.ofRaw(v.getBytes(StandardCharsets.UTF_8))));
        return IggyMessage.builder()
                .setStream(IggyId.of("s"))
                .setTopic(IggyId.of("t"))
                .setPartition(3)
                .setOffset(offset)
                .setPayload(payload.getBytes(StandardCharsets.UTF_8))
                .setHeaders(userHeaders.build())
                .setMessageId(BigInteger.valueOf(0x0102))
                .setTimestampMicros(1_700_000_000_123_456L)
                .setOriginTimestampMicros(originMicros)
                .setChecksum(99)
                .build();
    }

    /** A one-column row format: the UTF-8 text of the bytes. */
    private static final class Utf8Column implements DeserializationSchema<RowData> {
        @Override
        public RowData deserialize(byte[] message) {
            return GenericRowData.of(
                    StringData.fromString(new String(message, StandardCharsets.UTF_8)));
        }

        @Override
        public boolean isEndOfStream(RowData nextElement) {
            return false;
        }

        @Override
        public TypeInformation<RowData> getProducedType() {
            return null;
        }
    }

    private static final class ListCollector<T> implements org.apache.flink.util.Collector<T> {
        private final List<T> list;

        ListCollector(List<T> list) {
            this.list = list;
        }

        @Override
        public void collect(T record) {
            list.add(record);
        }

        @Override
        public void close() {}
    }
}

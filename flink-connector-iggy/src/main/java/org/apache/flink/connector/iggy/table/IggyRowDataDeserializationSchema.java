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
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyHeadersInternals;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.apache.flink.util.function.SerializableFunction;

import javax.annotation.Nullable;

import java.io.IOException;
import java.io.Serializable;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The append ({@code iggy}) source's decoding: the value format decodes the payload (0..n rows),
 * the key format the key header if there is one, and metadata comes from the message. {@link
 * Upsert} is {@code upsert-iggy}'s; both build rows with a {@link RowAssembler}.
 */
@Internal
final class IggyRowDataDeserializationSchema implements IggyRecordDeserializationSchema<RowData> {

    private static final long serialVersionUID = 1L;

    @Nullable private final DeserializationSchema<RowData> keyFormat;
    private final DeserializationSchema<RowData> valueFormat;
    private final String keyHeader;
    private final RowAssembler assembler;
    private final TypeInformation<RowData> producedType;

    private transient RowCollector rows;

    IggyRowDataDeserializationSchema(
            @Nullable DeserializationSchema<RowData> keyFormat,
            DeserializationSchema<RowData> valueFormat,
            String keyHeader,
            RowAssembler assembler,
            TypeInformation<RowData> producedType) {
        this.keyFormat = keyFormat;
        this.valueFormat = valueFormat;
        this.keyHeader = keyHeader;
        this.assembler = assembler;
        this.producedType = producedType;
    }

    @Override
    public void open(Context context) throws Exception {
        if (keyFormat != null) {
            keyFormat.open(context);
        }
        valueFormat.open(context);
    }

    @Override
    public void deserialize(IggyMessage message, Collector<RowData> out) throws IOException {
        RowData key = null;
        if (keyFormat != null) {
            Optional<IggyHeaderValue> keyBytes = message.header(keyHeader);
            if (keyBytes.isPresent()) {
                key = keyFormat.deserialize(keyBytes.get().bytes());
            }
        }
        if (rows == null) {
            rows = new RowCollector();
        }
        rows.key = key;
        rows.message = message;
        rows.out = out;
        valueFormat.deserialize(message.payload(), rows);
    }

    /** Completes each value row with key and metadata; reused for every message. */
    private final class RowCollector implements Collector<RowData> {
        @Nullable private RowData key;
        private IggyMessage message;
        private Collector<RowData> out;

        @Override
        public void collect(RowData value) {
            out.collect(assembler.assemble(key, value, value.getRowKind(), message));
        }

        @Override
        public void close() {}
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return producedType;
    }

    /**
     * The {@code upsert-iggy} source's decoding: the source's keyed-map mode finds each change (key
     * from the key header, deletion by the delete encoding), which becomes an INSERT or DELETE row.
     */
    static final class Upsert implements IggyRecordDeserializationSchema<RowData> {

        private static final long serialVersionUID = 1L;

        private final IggyRecordDeserializationSchema<IggyMapChange<byte[], RowData>> keyedMap;
        private final DeserializationSchema<RowData> keyFormat;
        private final RowAssembler assembler;
        private final TypeInformation<RowData> producedType;

        private transient ChangeCollector rows;

        Upsert(
                DeserializationSchema<RowData> keyFormat,
                DeserializationSchema<RowData> valueFormat,
                String keyHeader,
                IggyDeletionMessage deletion,
                RowAssembler assembler,
                TypeInformation<RowData> producedType) {
            KeyHeader key = new KeyHeader(keyHeader);
            this.keyedMap =
                    deletion.isEncoded()
                            ? IggyRecordDeserializationSchema.keyedMap(key, deletion, valueFormat)
                            : IggyRecordDeserializationSchema.keyedMap(key, valueFormat);
            this.keyFormat = keyFormat;
            this.assembler = assembler;
            this.producedType = producedType;
        }

        @Override
        public void open(Context context) throws Exception {
            keyFormat.open(context);
            keyedMap.open(context);
        }

        @Override
        public void deserialize(IggyMessage message, Collector<RowData> out) throws IOException {
            if (rows == null) {
                rows = new ChangeCollector();
            }
            rows.message = message;
            rows.out = out;
            keyedMap.deserialize(message, rows);
        }

        /** Turns each keyed-map change into a row; reused for every message. */
        private final class ChangeCollector implements Collector<IggyMapChange<byte[], RowData>> {
            private IggyMessage message;
            private Collector<RowData> out;

            @Override
            public void collect(IggyMapChange<byte[], RowData> change) {
                RowData key;
                try {
                    key = keyFormat.deserialize(change.key());
                } catch (IOException e) {
                    throw new IllegalStateException(
                            "Cannot decode the key header of the message at offset "
                                    + message.offset()
                                    + " of partition "
                                    + message.partition(),
                            e);
                }
                out.collect(
                        change.isDelete()
                                ? assembler.assemble(key, null, RowKind.DELETE, message)
                                : assembler.assemble(key, change.value(), RowKind.INSERT, message));
            }

            @Override
            public void close() {}
        }

        @Override
        public TypeInformation<RowData> getProducedType() {
            return producedType;
        }

        /** The key header's bytes; {@code null} (skip the message) when it is missing. */
        private static final class KeyHeader implements KeySelector<IggyMessage, byte[]> {
            private static final long serialVersionUID = 1L;
            private final String header;

            private KeyHeader(String header) {
                this.header = header;
            }

            @Override
            public byte[] getKey(IggyMessage message) {
                return message.header(header).map(IggyHeaderValue::bytes).orElse(null);
            }
        }
    }

    /**
     * Builds a table row from the decoded key row (key header), the decoded value row (payload) and
     * the message's metadata: physical columns at their positions, then the requested metadata.
     */
    static final class RowAssembler implements Serializable {

        private static final long serialVersionUID = 1L;

        private final int physicalArity;
        private final int[] keyProjection;
        private final int[] valueProjection;
        private final RowData.FieldGetter[] keyGetters;
        private final RowData.FieldGetter[] valueGetters;
        private final IggyReadableMetadata[] metadata;

        /**
         * @param physicalTypes the types of the table's physical columns
         */
        RowAssembler(
                List<LogicalType> physicalTypes,
                int[] keyProjection,
                int[] valueProjection,
                List<IggyReadableMetadata> metadata) {
            this.physicalArity = physicalTypes.size();
            this.keyProjection = keyProjection;
            this.valueProjection = valueProjection;
            this.keyGetters = getters(physicalTypes, keyProjection);
            this.valueGetters = getters(physicalTypes, valueProjection);
            this.metadata = metadata.toArray(new IggyReadableMetadata[0]);
        }

        /** Getters of the fields of a format's row, which has the columns at {@code projection}. */
        private static RowData.FieldGetter[] getters(List<LogicalType> types, int[] projection) {
            RowData.FieldGetter[] getters = new RowData.FieldGetter[projection.length];
            for (int i = 0; i < getters.length; i++) {
                getters[i] = RowData.createFieldGetter(types.get(projection[i]), i);
            }
            return getters;
        }

        /**
         * @param key the key row, or {@code null} when the message has no key header (key columns
         *     then come from the value, if it holds them, or are NULL)
         * @param value the value row, or {@code null} for a deletion (only key columns are set)
         */
        RowData assemble(
                @Nullable RowData key, @Nullable RowData value, RowKind kind, IggyMessage message) {
            GenericRowData row = new GenericRowData(kind, physicalArity + metadata.length);
            if (value != null) {
                for (int i = 0; i < valueProjection.length; i++) {
                    row.setField(valueProjection[i], valueGetters[i].getFieldOrNull(value));
                }
            }
            if (key != null) {
                for (int i = 0; i < keyProjection.length; i++) {
                    row.setField(keyProjection[i], keyGetters[i].getFieldOrNull(key));
                }
            }
            for (int i = 0; i < metadata.length; i++) {
                row.setField(physicalArity + i, metadata[i].reader.apply(message));
            }
            return row;
        }
    }

    /** The metadata columns the {@code iggy} and {@code upsert-iggy} sources can read. */
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
                DataTypes.MAP(DataTypes.STRING().nullable(), DataTypes.BYTES().nullable())
                        .notNull(),
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
            return Arrays.stream(values())
                    .filter(m -> m.key.equals(key))
                    .findFirst()
                    .orElseThrow(
                            () -> new IllegalArgumentException("Unknown metadata key: " + key));
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
                                    map.put(
                                            StringData.fromString(k),
                                            IggyHeadersInternals.encoded(v)));
            return new GenericMapData(map);
        }
    }
}

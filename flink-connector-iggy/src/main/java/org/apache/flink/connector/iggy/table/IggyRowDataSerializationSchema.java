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
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyHeadersInternals;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.IggyRecordSerializationSchema;
import org.apache.flink.connector.iggy.sink.IggySinkContext;
import org.apache.flink.connector.iggy.sink.IggySinkRecord;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.sink.IggyTopicSelector;
import org.apache.flink.connector.iggy.sink.KeyedMapSinks;
import org.apache.flink.connector.iggy.sink.internal.writer.RoutedSinkContext;
import org.apache.flink.connector.iggy.sink.reconcile.ChangeEncoder;
import org.apache.flink.connector.iggy.sink.reconcile.KeyedMessage;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.RowKind;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The append ({@code iggy}) sink's encoding: the value format writes the payload, the key format
 * the key header (also the partitioning key), and metadata columns set headers, message id, origin
 * timestamp and partition. {@link MapChangeEncoder} is {@code upsert-iggy}'s.
 *
 * <p>{@code metadataPositions}: where each {@link IggyWritableMetadata} is in the row, or -1.
 */
@Internal
record IggyRowDataSerializationSchema(
        @Nullable SerializationSchema<RowData> keyFormat,
        @Nullable Columns keyColumns,
        SerializationSchema<RowData> valueFormat,
        Columns valueColumns,
        String keyHeader,
        IggyPartitioner<RowData> partitioner,
        IggyRowRouting routing,
        int[] metadataPositions)
        implements IggyRecordSerializationSchema<RowData> {

    private static final long serialVersionUID = 1L;

    @Override
    public void open(
            SerializationSchema.InitializationContext initContext, IggySinkContext sinkContext)
            throws Exception {
        if (keyFormat != null) {
            keyFormat.open(initContext);
        }
        valueFormat.open(initContext);
        partitioner.open(sinkContext);
    }

    @Override
    public IggySinkRecord serialize(RowData row, IggySinkContext context) {
        byte[] key =
                keyFormat != null
                        ? keyFormat.serialize(keyColumns.project(row, row.getRowKind()))
                        : null;
        byte[] payload = valueFormat.serialize(valueColumns.project(row, row.getRowKind()));
        IggyHeaders headers = IggyWritableMetadata.headers(row, metadataPositions);
        if (key != null) {
            headers =
                    headers.with(
                            keyHeader, IggyHeadersInternals.value(IggyHeaderValue.Kind.RAW, key));
        }
        IggySinkTarget target = routing.targetOf(row);
        int partitionPos = metadataPositions[IggyWritableMetadata.PARTITION.ordinal()];
        long partition =
                partitionPos >= 0 && !row.isNullAt(partitionPos)
                        ? row.getInt(partitionPos)
                        : partitioner.partition(
                                row, key, payload, RoutedSinkContext.of(context, target));
        IggySinkRecord record =
                new IggySinkRecord(
                        partition,
                        payload,
                        headers,
                        messageId(row),
                        originTimestampMicros(row, context.timestamp()));
        return target != null ? record.withTarget(target) : record;
    }

    @Nullable
    private BigInteger messageId(RowData row) {
        int pos = metadataPositions[IggyWritableMetadata.MESSAGE_ID.ordinal()];
        if (pos < 0 || row.isNullAt(pos)) {
            return null;
        }
        BigInteger id = new BigInteger(1, row.getBinary(pos));
        return id.signum() == 0 ? null : id;
    }

    private long originTimestampMicros(RowData row, @Nullable Long timestamp) {
        Long written = IggyWritableMetadata.originTimestampMicros(row, metadataPositions);
        // Otherwise as the DataStream sink: the record's Flink timestamp, or now.
        return written != null
                ? written
                : (timestamp != null ? timestamp : System.currentTimeMillis()) * 1000;
    }

    /**
     * How the {@code upsert-iggy} sink turns a changelog row into a keyed-map message: INSERT and
     * UPDATE_AFTER upsert, DELETE deletes (the delete encoding's headers win over the 'headers'
     * column), UPDATE_BEFORE is ignored.
     */
    record MapChangeEncoder(
            SerializationSchema<RowData> keyFormat,
            Columns keyColumns,
            SerializationSchema<RowData> valueFormat,
            Columns valueColumns,
            IggyDeletionMessage deletion,
            IggyRowRouting routing,
            int[] metadataPositions)
            implements ChangeEncoder<RowData> {

        private static final long serialVersionUID = 1L;

        /** What makes deletes writable, as the error for an unwritable delete names it. */
        static final String DELETION_VALUE_OPTION =
                "'"
                        + IggyConnectorOptions.DELETE_ENCODING.key()
                        + "' = 'header', 'empty-payload' or 'custom-payload'";

        @Override
        public void open(
                SerializationSchema.InitializationContext context,
                IggyTopicSelector.Context routing)
                throws Exception {
            keyFormat.open(context);
            valueFormat.open(context);
        }

        @Nullable
        @Override
        public KeyedMessage encode(RowData row) {
            if (row.getRowKind() == RowKind.UPDATE_BEFORE) {
                return null;
            }
            KeyedMessage message = message(row);
            IggySinkTarget target = routing.targetOf(row);
            return target != null ? message.withTarget(target) : message;
        }

        private KeyedMessage message(RowData row) {
            RowKind kind = row.getRowKind();
            byte[] key = bytes(keyFormat, keyColumns, row, "key");
            IggyHeaders headers = IggyWritableMetadata.headers(row, metadataPositions);
            Long micros = IggyWritableMetadata.originTimestampMicros(row, metadataPositions);
            long timestamp = micros != null ? micros : 0;
            if (kind != RowKind.DELETE) {
                return KeyedMessage.upsert(
                        key, bytes(valueFormat, valueColumns, row, "value"), headers, timestamp);
            }
            if (!deletion.isEncoded()) {
                return KeyedMessage.delete(key, null, headers, timestamp);
            }
            return KeyedMessage.delete(key, deletion.payload(), deletion.addTo(headers), timestamp);
        }

        private static byte[] bytes(
                SerializationSchema<RowData> format, Columns columns, RowData row, String what) {
            byte[] bytes = format.serialize(columns.project(row, RowKind.INSERT));
            if (bytes == null) {
                throw new IggyConnectorException(
                        "The upsert-iggy sink's "
                                + what
                                + " format "
                                + format.getClass().getName()
                                + " returned null for the row "
                                + KeyedMapSinks.describe(row)
                                + ": every row needs "
                                + what
                                + " bytes.");
            }
            return bytes;
        }
    }

    /** Copies some columns of a table row into a new row, e.g. the key or the value columns. */
    static final class Columns implements Serializable {

        private static final long serialVersionUID = 1L;

        private final RowData.FieldGetter[] getters;

        /** The columns at {@code positions} of rows of {@code rowType}. */
        Columns(int[] positions, DataType rowType) {
            List<DataType> types = DataType.getFieldDataTypes(rowType);
            getters = new RowData.FieldGetter[positions.length];
            for (int i = 0; i < positions.length; i++) {
                LogicalType type = types.get(positions[i]).getLogicalType();
                getters[i] = RowData.createFieldGetter(type, positions[i]);
            }
        }

        RowData project(RowData row, RowKind kind) {
            GenericRowData projected = new GenericRowData(kind, getters.length);
            for (int i = 0; i < getters.length; i++) {
                projected.setField(i, getters[i].getFieldOrNull(row));
            }
            return projected;
        }
    }

    /**
     * The topic a sink table writes a row to: its own ({@link #unrouted()}), or the one the row
     * names in a writable 'topic' metadata column, if the table allows it.
     */
    sealed interface IggyRowRouting extends Serializable
            permits IggyRowRouting.Unrouted, IggyRowRouting.ByTopicColumn {

        /** The row's topic, or {@code null} for the table's own. */
        @Nullable
        IggySinkTarget targetOf(RowData row);

        /** Every row goes to the table's own topic. */
        static IggyRowRouting unrouted() {
            return Unrouted.INSTANCE;
        }

        /**
         * Each row to the topic in column {@code position}, as the table's options allow (validated
         * by {@link IggySinkOptions#validateSinkTopics}).
         */
        static IggyRowRouting byTopicColumn(ReadableConfig options, int position, String table) {
            Optional<String> pattern = options.getOptional(IggyConnectorOptions.TOPIC_PATTERN);
            Optional<String> topic = options.getOptional(IggyConnectorOptions.TOPIC);
            String allowed =
                    pattern.orElseGet(
                            () ->
                                    topic.isEmpty()
                                            ? "(?s).*"
                                            : IggyConnectorOptionsUtil.topics(options).stream()
                                                    .map(Pattern::quote)
                                                    .collect(Collectors.joining("|")));
            String described =
                    pattern.map(p -> "'topic-pattern' = '" + p + "'")
                            .or(() -> topic.map(t -> "'topic' = '" + t + "'"))
                            .orElse("any topic of the stream");
            return new ByTopicColumn(
                    IggyId.of(options.get(IggyConnectorOptions.STREAM)),
                    position,
                    Pattern.compile(allowed),
                    described,
                    table);
        }

        /** See {@link #unrouted()}. */
        enum Unrouted implements IggyRowRouting {
            INSTANCE;

            @Override
            @Nullable
            public IggySinkTarget targetOf(RowData row) {
                return null;
            }
        }

        /**
         * See {@link #byTopicColumn}: {@code allowed} matches the whole name of every topic the
         * table allows, as {@code described} in its options. Each allowed topic is checked once:
         * its target is kept in {@link #targets}, which only the writer's task thread uses.
         */
        final class ByTopicColumn implements IggyRowRouting {
            private static final long serialVersionUID = 1L;

            /** Rows name few topics; a table whose rows name more starts its list over. */
            private static final int MAX_TARGETS = 1024;

            private final IggyId stream;
            private final int position;
            private final Pattern allowed;
            private final String described;
            private final String table;
            @Nullable private transient Map<String, IggySinkTarget> targets;

            ByTopicColumn(
                    IggyId stream, int position, Pattern allowed, String described, String table) {
                this.stream = stream;
                this.position = position;
                this.allowed = allowed;
                this.described = described;
                this.table = table;
            }

            @Override
            public IggySinkTarget targetOf(RowData row) {
                if (row.isNullAt(position)) {
                    throw new IggyConfigurationException(
                            "A row for table "
                                    + table
                                    + " has a NULL 'topic' metadata column, but every row must name"
                                    + " its topic ("
                                    + described
                                    + "). Filter such rows out or give them a topic.");
                }
                String topic = row.getString(position).toString();
                if (targets == null || targets.size() >= MAX_TARGETS) {
                    targets = new HashMap<>();
                }
                // a refused topic throws and is not kept: it is refused again
                return targets.computeIfAbsent(topic, this::allowedTarget);
            }

            private IggySinkTarget allowedTarget(String topic) {
                IggyId id = null;
                if (allowed.matcher(topic).matches()) {
                    try {
                        id = IggyId.of(topic);
                    } catch (IllegalArgumentException e) {
                        // not an Iggy name: refused below like a topic the table does not allow
                    }
                }
                if (id == null) {
                    throw new IggyConfigurationException(
                            "A row for table "
                                    + table
                                    + " names topic '"
                                    + topic
                                    + "' in its 'topic' metadata column, which the table does not"
                                    + " allow: it allows "
                                    + described
                                    + ". Add the topic to the table's options or fix the row.");
                }
                return new IggySinkTarget(stream, id);
            }
        }
    }

    /**
     * The metadata columns the {@code iggy} sink can write ({@code upsert-iggy}: headers and origin
     * timestamp), and their conversion to message fields, shared by both sinks.
     */
    enum IggyWritableMetadata {
        /** User headers, each value written as raw bytes. */
        HEADERS(
                "headers",
                DataTypes.MAP(DataTypes.STRING().nullable(), DataTypes.BYTES().nullable())
                        .nullable()),
        /** The unsigned 128-bit id, big-endian; NULL or all zero lets the server choose one. */
        MESSAGE_ID("message-id", DataTypes.BINARY(16).nullable()),
        /** Default: the row's Flink timestamp, or the time of writing. */
        ORIGIN_TIMESTAMP(
                "origin-timestamp", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6).nullable()),
        /** The target partition; NULL leaves the choice to 'sink.partitioner'. */
        PARTITION("partition", DataTypes.INT().nullable()),
        /**
         * The row's topic (of the table's stream), for a table that names no single topic; see
         * {@link IggyRowRouting}.
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

        /** Position (or -1) by ordinal of each of {@code metadataKeys}, after the physical ones. */
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
                StringData key = keys.getString(i);
                byte[] name = key.toBytes();
                if (name.length == 0 || name.length > 255) {
                    throw new IggyConnectorException(
                            "A key of the 'headers' metadata column has "
                                    + name.length
                                    + " bytes: Iggy header keys have 1 to 255 bytes.");
                }
                byte[] value = values.isNullAt(i) ? new byte[0] : values.getBinary(i);
                headers.put(
                        key.toString(),
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
            return Arrays.stream(values())
                    .filter(m -> m.key.equals(key))
                    .findFirst()
                    .orElseThrow(
                            () -> new IllegalArgumentException("Unknown metadata key: " + key));
        }
    }
}

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
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.sink.IggyKeyedMapSink;
import org.apache.flink.connector.iggy.sink.IggyKeyedMapSinkBuilder;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.IggySinkBuilder;
import org.apache.flink.connector.iggy.sink.KeyedMapSinks;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.SinkPartitioner;
import org.apache.flink.connector.iggy.table.IggyRowDataSerializationSchema.Columns;
import org.apache.flink.connector.iggy.table.IggyRowDataSerializationSchema.IggyRowRouting;
import org.apache.flink.connector.iggy.table.IggyRowDataSerializationSchema.IggyWritableMetadata;
import org.apache.flink.connector.iggy.table.IggyRowDataSerializationSchema.MapChangeEncoder;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsWritingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.RowKind;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The table sink of {@code iggy} (append, on {@link IggySink}) and {@code upsert-iggy} (keyed map
 * with reconciliation, on {@link IggyKeyedMapSink}): the formats and metadata live here, writing
 * lives in the sink.
 */
@Internal
public class IggyDynamicSink implements DynamicTableSink, SupportsWritingMetadata {

    /** The table; the sink builders take the sink.* options from its options. */
    private final IggyTableShape table;

    @Nullable private final EncodingFormat<SerializationSchema<RowData>> keyEncodingFormat;
    private final EncodingFormat<SerializationSchema<RowData>> valueEncodingFormat;

    /** The instance of the class 'sink.partitioner' names, if it names one. */
    @Nullable private final IggyPartitioner<RowData> customPartitioner;

    /** The default uid is this and the table's identifier. */
    static final String DEFAULT_UID_PREFIX = "iggy-sink: ";

    private List<String> metadataKeys = Collections.emptyList();
    private DataType consumedDataType;

    IggyDynamicSink(
            IggyTableShape table,
            @Nullable EncodingFormat<SerializationSchema<RowData>> keyEncodingFormat,
            EncodingFormat<SerializationSchema<RowData>> valueEncodingFormat,
            @Nullable IggyPartitioner<RowData> customPartitioner) {
        this.table = table;
        this.keyEncodingFormat = keyEncodingFormat;
        this.valueEncodingFormat = valueEncodingFormat;
        this.customPartitioner = customPartitioner;
        this.consumedDataType = table.physicalDataType();
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        if (!table.upsert()) {
            return valueEncodingFormat.getChangelogMode();
        }
        if (!table.deletion().isEncoded() && requestedMode.contains(RowKind.DELETE)) {
            throw new ValidationException(
                    KeyedMapSinks.tombstoneError(MapChangeEncoder.DELETION_VALUE_OPTION)
                            + " The query produces deletions, but upsert-iggy table's '"
                            + IggyConnectorOptions.DELETE_ENCODING.key()
                            + "' is 'none'.");
        }
        return ChangelogMode.upsert();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        SerializationSchema<RowData> keyFormat =
                keyEncodingFormat == null
                        ? null
                        : keyEncodingFormat.createRuntimeEncoder(context, table.keyFormatType());
        SerializationSchema<RowData> valueFormat =
                valueEncodingFormat.createRuntimeEncoder(context, table.valueFormatType());
        Columns keyColumns = new Columns(table.keyProjection(), consumedDataType);
        Columns valueColumns = new Columns(table.valueProjection(), consumedDataType);
        Sink<RowData> sink =
                table.upsert()
                        ? upsertSink(keyFormat, keyColumns, valueFormat, valueColumns)
                        : appendSink(keyFormat, keyColumns, valueFormat, valueColumns);

        Integer parallelism =
                table.options().getOptional(IggyConnectorOptions.SINK_PARALLELISM).orElse(null);
        return new UidSinkProvider(sink, parallelism, uid());
    }

    /** The sink's operator uid, see {@link IggyTableShape#uid}. */
    String uid() {
        return table.uid(IggyConnectorOptions.SINK_UID, DEFAULT_UID_PREFIX);
    }

    private Sink<RowData> appendSink(
            @Nullable SerializationSchema<RowData> keyFormat,
            Columns keyColumns,
            SerializationSchema<RowData> valueFormat,
            Columns valueColumns) {
        if (table.options().get(IggyConnectorOptions.SINK_DELIVERY_GUARANTEE)
                        == DeliveryGuarantee.EXACTLY_ONCE
                && metadataKeys.contains(IggyWritableMetadata.MESSAGE_ID.key)) {
            throw new ValidationException(
                    "An 'exactly-once' Iggy sink chooses every message id itself: drop the"
                            + " writable 'message-id' metadata column or use 'at-least-once'.");
        }
        IggySinkBuilder<RowData> builder = IggySink.<RowData>builder();
        IggySinkOptions.configure(builder, table.options(), routed());
        return builder.setConnection(table.connection())
                .setRecordSerializer(
                        new IggyRowDataSerializationSchema(
                                keyFormat,
                                keyFormat != null ? keyColumns : null,
                                valueFormat,
                                valueColumns,
                                table.keyHeader(),
                                partitioner(),
                                routing(),
                                metadataPositions()))
                .build();
    }

    /** Whether each row names its topic in the writable 'topic' metadata column. */
    private boolean routed() {
        return metadataKeys.contains(IggyWritableMetadata.TOPIC.key);
    }

    private IggyRowRouting routing() {
        return routed()
                ? IggyRowRouting.byTopicColumn(
                        table.options(),
                        metadataPositions()[IggyWritableMetadata.TOPIC.ordinal()],
                        table.tableIdentifier())
                : IggyRowRouting.unrouted();
    }

    private int[] metadataPositions() {
        return IggyWritableMetadata.positions(
                metadataKeys, DataType.getFieldCount(table.physicalDataType()));
    }

    private IggyPartitioner<RowData> partitioner() {
        long partition = table.options().get(IggyConnectorOptions.SINK_PARTITION);
        return switch (table.options().get(IggyConnectorOptions.SINK_PARTITIONER)) {
            case SinkPartitioner.FIXED -> (row, key, payload, context) -> partition;
            case SinkPartitioner.ROUND_ROBIN -> IggyPartitioner.roundRobin();
            // the factory made sure the table has key columns, whose format writes bytes
            case SinkPartitioner.KEY ->
                    (row, key, payload, context) ->
                            IggyPartitioner.partitionForKey(key, context.partitionCount());
            default -> customPartitioner;
        };
    }

    private Sink<RowData> upsertSink(
            SerializationSchema<RowData> keyFormat,
            Columns keyColumns,
            SerializationSchema<RowData> valueFormat,
            Columns valueColumns) {
        IggyKeyedMapSinkBuilder<?, ?> builder =
                IggySink.keyedMap()
                        .setConnection(table.connection())
                        .setKeyHeader(table.keyHeader())
                        // Flink prefixes it with the sink's uid: '<uid>: Iggy Reconcile'
                        .setReconcileUid(UidSinkProvider.RECONCILE_UID);
        IggySinkOptions.configure(builder, table.options(), routed());
        return KeyedMapSinks.of(
                builder,
                new MapChangeEncoder(
                        keyFormat,
                        keyColumns,
                        valueFormat,
                        valueColumns,
                        table.deletion(),
                        routing(),
                        metadataPositions()),
                MapChangeEncoder.DELETION_VALUE_OPTION,
                routed());
    }

    @Override
    public Map<String, DataType> listWritableMetadata() {
        Map<String, DataType> metadata = new LinkedHashMap<>();
        for (IggyWritableMetadata m : IggyWritableMetadata.values()) {
            if (!table.upsert() || m.writableByUpsert()) {
                metadata.put(m.key, m.dataType);
            }
        }
        return metadata;
    }

    @Override
    public void applyWritableMetadata(List<String> metadataKeys, DataType consumedDataType) {
        this.metadataKeys = new ArrayList<>(metadataKeys);
        this.consumedDataType = consumedDataType;
    }

    @Override
    public DynamicTableSink copy() {
        IggyDynamicSink copy =
                new IggyDynamicSink(
                        table, keyEncodingFormat, valueEncodingFormat, customPartitioner);
        copy.metadataKeys = metadataKeys;
        copy.consumedDataType = consumedDataType;
        return copy;
    }

    /** Never shows credentials. */
    @Override
    public String asSummaryString() {
        return (table.upsert() ? "upsert-iggy" : "iggy")
                + " table sink ("
                + table.connection().address()
                + ", stream '"
                + table.options().get(IggyConnectorOptions.STREAM)
                + "', "
                + (routed()
                        ? "the topic each row names"
                        : "topic '" + table.options().get(IggyConnectorOptions.TOPIC) + "'")
                + ")";
    }

    @Override
    public String toString() {
        return asSummaryString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IggyDynamicSink that
                && table.equals(that.table)
                && Objects.equals(keyEncodingFormat, that.keyEncodingFormat)
                && valueEncodingFormat.equals(that.valueEncodingFormat)
                && Objects.equals(customPartitioner, that.customPartitioner)
                && metadataKeys.equals(that.metadataKeys)
                && consumedDataType.equals(that.consumedDataType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, valueEncodingFormat);
    }

    /**
     * Adds the sink with its uid: Flink's table planner sets no uid on a sink it adds itself
     * (unless it compiled the plan), so the sink's state would be matched by ids derived from the
     * plan and lost when the plan changes. From the sink's uid Flink derives the committer's
     * ({@code Sink Committer: <uid>}) and that of every operator the sink adds before its writer
     * ({@code <uid>: <operator uid>}, here {@value #RECONCILE_UID}).
     */
    record UidSinkProvider(Sink<RowData> sink, @Nullable Integer parallelism, String uid)
            implements DataStreamSinkProvider {

        /** The uid the keyed-map sink's reconcile step gets under the sink's uid. */
        static final String RECONCILE_UID = "Iggy Reconcile";

        @Override
        public DataStreamSink<?> consumeDataStream(
                ProviderContext providerContext, DataStream<RowData> input) {
            DataStreamSink<RowData> added = input.sinkTo(sink).uid(uid).name("Iggy Sink " + uid);
            added.setParallelism(parallelism != null ? parallelism : input.getParallelism());
            return added;
        }

        @Override
        public Optional<Integer> getParallelism() {
            return Optional.ofNullable(parallelism);
        }
    }
}

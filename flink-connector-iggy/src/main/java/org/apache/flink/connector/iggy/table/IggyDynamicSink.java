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
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.sink.IggyKeyedMapSink;
import org.apache.flink.connector.iggy.sink.IggyKeyedMapSinkBuilder;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.IggySinkBuilder;
import org.apache.flink.connector.iggy.sink.KeyedMapSinks;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.SinkPartitioner;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsWritingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.RowKind;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The table sink of {@code iggy} (append, on {@link IggySink}) and {@code upsert-iggy} (keyed map
 * with reconciliation, on {@link IggyKeyedMapSink}): the formats and metadata live here, writing
 * lives in the sink.
 */
@Internal
public class IggyDynamicSink implements DynamicTableSink, SupportsWritingMetadata {

    private final DataType physicalDataType;
    @Nullable private final EncodingFormat<SerializationSchema<RowData>> keyEncodingFormat;
    private final EncodingFormat<SerializationSchema<RowData>> valueEncodingFormat;
    private final int[] keyProjection;
    private final int[] valueProjection;
    @Nullable private final String keyPrefix;
    private final String keyHeader;

    /** The table's options, validated; the sink builders take the sink.* ones from here. */
    private final Configuration options;

    /**
     * The connection the options name, with credentials the options leave out taken from the
     * session's Flink configuration or the environment (resolved by the factory).
     */
    private final IggyConnectionConfig connection;

    /** The instance of the class 'sink.partitioner' names, if it names one. */
    @Nullable private final IggyPartitioner<RowData> customPartitioner;

    private final boolean upsert;

    /** upsert-iggy: how a deletion is written; {@code null} for iggy. */
    @Nullable private final IggyDeletionMessage deletion;

    /** The default uid is this and the table's identifier. */
    static final String DEFAULT_UID_PREFIX = "iggy-sink: ";

    /** The table's identifier, from which the sink's uid is derived. */
    private final String tableIdentifier;

    private List<String> metadataKeys = Collections.emptyList();
    private DataType consumedDataType;

    IggyDynamicSink(
            DataType physicalDataType,
            @Nullable EncodingFormat<SerializationSchema<RowData>> keyEncodingFormat,
            EncodingFormat<SerializationSchema<RowData>> valueEncodingFormat,
            int[] keyProjection,
            int[] valueProjection,
            @Nullable String keyPrefix,
            String keyHeader,
            Configuration options,
            IggyConnectionConfig connection,
            @Nullable IggyPartitioner<RowData> customPartitioner,
            boolean upsert,
            @Nullable IggyDeletionMessage deletion,
            String tableIdentifier) {
        this.physicalDataType = physicalDataType;
        this.keyEncodingFormat = keyEncodingFormat;
        this.valueEncodingFormat = valueEncodingFormat;
        this.keyProjection = keyProjection;
        this.valueProjection = valueProjection;
        this.keyPrefix = keyPrefix;
        this.keyHeader = keyHeader;
        this.options = options;
        this.connection = connection;
        this.customPartitioner = customPartitioner;
        this.upsert = upsert;
        this.deletion = deletion;
        this.tableIdentifier = tableIdentifier;
        this.consumedDataType = physicalDataType;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        if (!upsert) {
            return valueEncodingFormat.getChangelogMode();
        }
        if (!deletion.isEncoded() && requestedMode.contains(RowKind.DELETE)) {
            throw new ValidationException(
                    KeyedMapSinks.tombstoneError(IggyRowDataMapChangeEncoder.DELETION_VALUE_OPTION)
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
                        : keyEncodingFormat.createRuntimeEncoder(
                                context,
                                IggyFormatProjections.formatDataType(
                                        physicalDataType, keyProjection, keyPrefix));
        SerializationSchema<RowData> valueFormat =
                valueEncodingFormat.createRuntimeEncoder(
                        context,
                        IggyFormatProjections.formatDataType(
                                physicalDataType, valueProjection, null));
        List<LogicalType> consumedTypes =
                DataType.getFieldDataTypes(consumedDataType).stream()
                        .map(DataType::getLogicalType)
                        .collect(Collectors.toList());
        IggyRowProjection keyColumns = new IggyRowProjection(keyProjection, consumedTypes);
        IggyRowProjection valueColumns = new IggyRowProjection(valueProjection, consumedTypes);
        Sink<RowData> sink =
                upsert
                        ? upsertSink(keyFormat, keyColumns, valueFormat, valueColumns)
                        : appendSink(keyFormat, keyColumns, valueFormat, valueColumns);

        Integer parallelism =
                options.getOptional(IggyConnectorOptions.SINK_PARALLELISM).orElse(null);
        return new UidSinkProvider(sink, parallelism, uid());
    }

    /**
     * The sink's operator uid: {@code sink.uid}, or one derived from the table's identifier, so
     * that a changed query (a new plan, other operator ids) still finds the sink's state in a
     * savepoint.
     */
    String uid() {
        return options.getOptional(IggyConnectorOptions.SINK_UID)
                .orElse(DEFAULT_UID_PREFIX + tableIdentifier);
    }

    private Sink<RowData> appendSink(
            @Nullable SerializationSchema<RowData> keyFormat,
            IggyRowProjection keyColumns,
            SerializationSchema<RowData> valueFormat,
            IggyRowProjection valueColumns) {
        if (IggySinkOptions.deliveryGuarantee(options) == DeliveryGuarantee.EXACTLY_ONCE
                && metadataKeys.contains(IggyWritableMetadata.MESSAGE_ID.key)) {
            throw new ValidationException(
                    "An 'exactly-once' Iggy sink chooses every message id itself: drop the"
                            + " writable 'message-id' metadata column or use 'at-least-once'.");
        }
        IggySinkBuilder<RowData> builder = IggySink.<RowData>builder();
        if (!routed()) {
            builder.setTopic(IggyConnectorOptionsUtil.topic(options));
        }
        return builder.setConnection(connection)
                .setStream(IggyConnectorOptionsUtil.stream(options))
                .setDeliveryGuarantee(IggySinkOptions.deliveryGuarantee(options))
                .setExactlyOnceWriteAheadDir(
                        options.get(IggyConnectorOptions.SINK_EXACTLY_ONCE_WRITE_AHEAD_DIR))
                .setMaxBatchMessages(IggySinkOptions.maxBatchMessages(options))
                .setMaxBatchBytes(options.get(IggyConnectorOptions.SINK_MAX_BATCH_BYTES))
                .setLinger(options.get(IggyConnectorOptions.SINK_LINGER))
                .setMaxInFlightRequests(
                        options.get(IggyConnectorOptions.SINK_MAX_IN_FLIGHT_REQUESTS))
                .setRecordSerializer(
                        new IggyRowDataSerializationSchema(
                                keyFormat,
                                keyFormat != null ? keyColumns : null,
                                valueFormat,
                                valueColumns,
                                keyHeader,
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
                        options,
                        metadataPositions()[IggyWritableMetadata.TOPIC.ordinal()],
                        tableIdentifier)
                : IggyRowRouting.unrouted();
    }

    private int[] metadataPositions() {
        return IggyWritableMetadata.positions(
                metadataKeys, DataType.getFieldCount(physicalDataType));
    }

    private IggyPartitioner<RowData> partitioner() {
        switch (options.get(IggyConnectorOptions.SINK_PARTITIONER)) {
            case SinkPartitioner.FIXED:
                long partition = options.get(IggyConnectorOptions.SINK_PARTITION);
                return (row, key, payload, context) -> partition;
            case SinkPartitioner.ROUND_ROBIN:
                return IggyPartitioner.roundRobin();
            case SinkPartitioner.KEY:
                // the factory made sure the table has key columns, whose format writes bytes
                return (row, key, payload, context) ->
                        IggyPartitioner.partitionForKey(key, context.partitionCount());
            default:
                return customPartitioner;
        }
    }

    private Sink<RowData> upsertSink(
            SerializationSchema<RowData> keyFormat,
            IggyRowProjection keyColumns,
            SerializationSchema<RowData> valueFormat,
            IggyRowProjection valueColumns) {
        IggyKeyedMapSinkBuilder<?, ?> builder =
                IggySink.keyedMap()
                        .setConnection(connection)
                        .setStream(IggyConnectorOptionsUtil.stream(options))
                        .setDeliveryGuarantee(IggySinkOptions.deliveryGuarantee(options))
                        .setExactlyOnceWriteAheadDir(
                                options.get(IggyConnectorOptions.SINK_EXACTLY_ONCE_WRITE_AHEAD_DIR))
                        .setMaxBatchMessages(IggySinkOptions.maxBatchMessages(options))
                        .setMaxBatchBytes(options.get(IggyConnectorOptions.SINK_MAX_BATCH_BYTES))
                        .setLinger(options.get(IggyConnectorOptions.SINK_LINGER))
                        .setMaxInFlightRequests(
                                options.get(IggyConnectorOptions.SINK_MAX_IN_FLIGHT_REQUESTS))
                        .setKeyHeader(keyHeader)
                        .setIdempotentWrites(
                                options.get(IggyConnectorOptions.SINK_IDEMPOTENT_WRITES));
        if (!routed()) {
            builder.setTopic(IggyConnectorOptionsUtil.topic(options));
        }
        options.getOptional(IggyConnectorOptions.SINK_STATE_TTL).ifPresent(builder::setStateTtl);
        // Flink prefixes it with the sink's uid: '<uid>: Iggy Reconcile'
        builder.setReconcileUid(UidSinkProvider.RECONCILE_UID);
        if (SinkPartitioner.KEY.equals(options.get(IggyConnectorOptions.SINK_PARTITIONER))) {
            builder.setPartitionByKey();
        } else {
            builder.setPartition(options.get(IggyConnectorOptions.SINK_PARTITION));
        }
        return KeyedMapSinks.of(
                builder,
                new IggyRowDataMapChangeEncoder(
                        keyFormat,
                        keyColumns,
                        valueFormat,
                        valueColumns,
                        deletion,
                        routing(),
                        metadataPositions()),
                IggyRowDataMapChangeEncoder.DELETION_VALUE_OPTION,
                routed());
    }

    @Override
    public Map<String, DataType> listWritableMetadata() {
        Map<String, DataType> metadata = new LinkedHashMap<>();
        for (IggyWritableMetadata m : IggyWritableMetadata.values()) {
            if (!upsert || m.writableByUpsert()) {
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
                        physicalDataType,
                        keyEncodingFormat,
                        valueEncodingFormat,
                        keyProjection,
                        valueProjection,
                        keyPrefix,
                        keyHeader,
                        options,
                        connection,
                        customPartitioner,
                        upsert,
                        deletion,
                        tableIdentifier);
        copy.metadataKeys = metadataKeys;
        copy.consumedDataType = consumedDataType;
        return copy;
    }

    /** Never shows credentials. */
    @Override
    public String asSummaryString() {
        return (upsert ? "upsert-iggy" : "iggy")
                + " table sink ("
                + connection.address()
                + ", stream '"
                + IggyConnectorOptionsUtil.stream(options)
                + "', "
                + (routed()
                        ? "the topic each row names"
                        : "topic '" + IggyConnectorOptionsUtil.topic(options) + "'")
                + ")";
    }

    @Override
    public String toString() {
        return asSummaryString();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof IggyDynamicSink)) {
            return false;
        }
        IggyDynamicSink that = (IggyDynamicSink) o;
        return physicalDataType.equals(that.physicalDataType)
                && Objects.equals(keyEncodingFormat, that.keyEncodingFormat)
                && valueEncodingFormat.equals(that.valueEncodingFormat)
                && Arrays.equals(keyProjection, that.keyProjection)
                && Arrays.equals(valueProjection, that.valueProjection)
                && Objects.equals(keyPrefix, that.keyPrefix)
                && keyHeader.equals(that.keyHeader)
                && options.equals(that.options)
                && connection.equals(that.connection)
                && Objects.equals(customPartitioner, that.customPartitioner)
                && upsert == that.upsert
                && Objects.equals(deletion, that.deletion)
                && tableIdentifier.equals(that.tableIdentifier)
                && metadataKeys.equals(that.metadataKeys)
                && consumedDataType.equals(that.consumedDataType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(physicalDataType, valueEncodingFormat, options, upsert);
    }
}

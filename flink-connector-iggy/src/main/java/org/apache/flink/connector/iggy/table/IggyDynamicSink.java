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
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.sink.IggyKeyedMapSink;
import org.apache.flink.connector.iggy.sink.IggyKeyedMapSinkBuilder;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.IggyPartitioners;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.IggySinkBuilderBase;
import org.apache.flink.connector.iggy.sink.reconcile.IggyReconcileFunction;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.SinkPartitioner;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.connector.sink.abilities.SupportsWritingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.RowKind;

import javax.annotation.Nullable;

import java.time.Duration;
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

    /** Where and how the sink writes: everything the sink builders need except the encoding. */
    static final class WriteSettings implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        final IggyConnectionConfig connection;
        final String stream;
        final String topic;
        final DeliveryGuarantee deliveryGuarantee;

        /** 'fixed', 'round-robin', 'key' or a class name. */
        final String partitioner;

        /** The instance of the class {@link #partitioner} names, if it names one. */
        @Nullable final IggyPartitioner<RowData> customPartitioner;

        final long partition;
        final int batchSize;
        final Duration linger;

        /** upsert-iggy: deterministic message ids for the server's deduplication. */
        final boolean idempotentWrites;

        /** upsert-iggy: how long an unwritten key's fingerprint is kept; null: forever. */
        @Nullable final Duration stateTtl;

        @Nullable final Integer parallelism;

        WriteSettings(
                IggyConnectionConfig connection,
                String stream,
                String topic,
                DeliveryGuarantee deliveryGuarantee,
                String partitioner,
                @Nullable IggyPartitioner<RowData> customPartitioner,
                long partition,
                int batchSize,
                Duration linger,
                boolean idempotentWrites,
                @Nullable Duration stateTtl,
                @Nullable Integer parallelism) {
            this.connection = connection;
            this.stream = stream;
            this.topic = topic;
            this.deliveryGuarantee = deliveryGuarantee;
            this.partitioner = partitioner;
            this.customPartitioner = customPartitioner;
            this.partition = partition;
            this.batchSize = batchSize;
            this.linger = linger;
            this.idempotentWrites = idempotentWrites;
            this.stateTtl = stateTtl;
            this.parallelism = parallelism;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof WriteSettings)) {
                return false;
            }
            WriteSettings that = (WriteSettings) o;
            return connection.equals(that.connection)
                    && stream.equals(that.stream)
                    && topic.equals(that.topic)
                    && deliveryGuarantee == that.deliveryGuarantee
                    && partitioner.equals(that.partitioner)
                    && partition == that.partition
                    && batchSize == that.batchSize
                    && linger.equals(that.linger)
                    && idempotentWrites == that.idempotentWrites
                    && Objects.equals(stateTtl, that.stateTtl)
                    && Objects.equals(parallelism, that.parallelism);
        }

        @Override
        public int hashCode() {
            return Objects.hash(stream, topic, partitioner, partition);
        }
    }

    private final DataType physicalDataType;
    @Nullable private final EncodingFormat<SerializationSchema<RowData>> keyEncodingFormat;
    private final EncodingFormat<SerializationSchema<RowData>> valueEncodingFormat;
    private final int[] keyProjection;
    private final int[] valueProjection;
    @Nullable private final String keyPrefix;
    private final String keyHeader;
    private final WriteSettings settings;
    private final boolean upsert;

    /** upsert-iggy: how a deletion is written; {@code null} for iggy. */
    @Nullable private final IggyDeletionMessage deletion;

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
            WriteSettings settings,
            boolean upsert,
            @Nullable IggyDeletionMessage deletion) {
        this.physicalDataType = physicalDataType;
        this.keyEncodingFormat = keyEncodingFormat;
        this.valueEncodingFormat = valueEncodingFormat;
        this.keyProjection = keyProjection;
        this.valueProjection = valueProjection;
        this.keyPrefix = keyPrefix;
        this.keyHeader = keyHeader;
        this.settings = settings;
        this.upsert = upsert;
        this.deletion = deletion;
        this.consumedDataType = physicalDataType;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        if (!upsert) {
            return valueEncodingFormat.getChangelogMode();
        }
        if (!deletion.isEncoded() && requestedMode.contains(RowKind.DELETE)) {
            throw new ValidationException(
                    IggyReconcileFunction.tombstoneError(
                                    IggyRowDataMapChangeEncoder.DELETION_VALUE_OPTION)
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
                                IggyConnectorOptionsUtil.formatDataType(
                                        physicalDataType, keyProjection, keyPrefix));
        SerializationSchema<RowData> valueFormat =
                valueEncodingFormat.createRuntimeEncoder(
                        context,
                        IggyConnectorOptionsUtil.formatDataType(
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

        return SinkV2Provider.of(sink, settings.parallelism);
    }

    private Sink<RowData> appendSink(
            @Nullable SerializationSchema<RowData> keyFormat,
            IggyRowProjection keyColumns,
            SerializationSchema<RowData> valueFormat,
            IggyRowProjection valueColumns) {
        return withWriterOptions(IggySink.<RowData>builder())
                .setRecordSerializer(
                        new IggyRowDataSerializationSchema(
                                keyFormat,
                                keyFormat != null ? keyColumns : null,
                                valueFormat,
                                valueColumns,
                                keyHeader,
                                partitioner(),
                                metadataPositions()))
                .build();
    }

    /** The options both kinds of sink share. */
    private <B extends IggySinkBuilderBase<B>> B withWriterOptions(B builder) {
        return builder.setConnection(settings.connection)
                .setStream(settings.stream)
                .setTopic(settings.topic)
                .setDeliveryGuarantee(settings.deliveryGuarantee)
                .setBatchSize(settings.batchSize)
                .setLinger(settings.linger);
    }

    private int[] metadataPositions() {
        return IggyWritableMetadata.positions(
                metadataKeys, DataType.getFieldCount(physicalDataType));
    }

    private IggyPartitioner<RowData> partitioner() {
        switch (settings.partitioner) {
            case SinkPartitioner.FIXED:
                return IggyPartitioners.fixed(settings.partition);
            case SinkPartitioner.ROUND_ROBIN:
                return IggyPartitioners.balanced();
            case SinkPartitioner.KEY:
                return IggyPartitioners.byKey();
            default:
                return settings.customPartitioner;
        }
    }

    private Sink<RowData> upsertSink(
            SerializationSchema<RowData> keyFormat,
            IggyRowProjection keyColumns,
            SerializationSchema<RowData> valueFormat,
            IggyRowProjection valueColumns) {
        IggyKeyedMapSinkBuilder<RowData> builder =
                withWriterOptions(
                                IggyKeyedMapSink.builder(
                                        new IggyRowDataMapChangeEncoder(
                                                keyFormat,
                                                keyColumns,
                                                valueFormat,
                                                valueColumns,
                                                deletion,
                                                metadataPositions())))
                        .setKeyHeader(keyHeader)
                        .setIdempotentWrites(settings.idempotentWrites);
        if (settings.stateTtl != null) {
            builder.setStateTtl(settings.stateTtl);
        }
        if (SinkPartitioner.KEY.equals(settings.partitioner)) {
            builder.setPartitionByKey();
        } else {
            builder.setPartition(settings.partition);
        }
        return builder.build();
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
                        settings,
                        upsert,
                        deletion);
        copy.metadataKeys = metadataKeys;
        copy.consumedDataType = consumedDataType;
        return copy;
    }

    /** Never shows credentials. */
    @Override
    public String asSummaryString() {
        return (upsert ? "upsert-iggy" : "iggy")
                + " table sink ("
                + settings.connection.address()
                + ", stream '"
                + settings.stream
                + "', topic '"
                + settings.topic
                + "')";
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
                && settings.equals(that.settings)
                && upsert == that.upsert
                && Objects.equals(deletion, that.deletion)
                && metadataKeys.equals(that.metadataKeys)
                && consumedDataType.equals(that.consumedDataType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(physicalDataType, valueEncodingFormat, settings, upsert);
    }

    @VisibleForTesting
    WriteSettings settings() {
        return settings;
    }
}

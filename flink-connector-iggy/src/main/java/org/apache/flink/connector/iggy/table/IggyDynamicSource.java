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
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.connector.source.abilities.SupportsWatermarkPushDown;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;

import javax.annotation.Nullable;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The table source of {@code iggy} (append) and {@code upsert-iggy} (keyed map, changelog upsert),
 * built on {@link IggySource}: the formats and metadata live here, reading lives in the source.
 */
@Internal
public class IggyDynamicSource
        implements ScanTableSource, SupportsReadingMetadata, SupportsWatermarkPushDown {

    /** The default uid is this and the table's identifier. */
    static final String DEFAULT_UID_PREFIX = "iggy-source: ";

    // ----- fixed at planning --------------------------------------------------------------------

    private final DataType physicalDataType;
    @Nullable private final DecodingFormat<DeserializationSchema<RowData>> keyDecodingFormat;
    private final DecodingFormat<DeserializationSchema<RowData>> valueDecodingFormat;
    private final int[] keyProjection;
    private final int[] valueProjection;
    @Nullable private final String keyPrefix;
    private final String keyHeader;

    /**
     * The table's options: what and how to read, turned into an {@link IggySource} by the public
     * source builder once {@link #getScanRuntimeProvider} has the deserializer.
     */
    private final ReadableConfig options;

    /**
     * The connection the options name, with credentials the options leave out taken from the
     * session's Flink configuration or the environment (resolved by the factory).
     */
    private final IggyConnectionConfig connection;

    @Nullable private final Integer parallelism;

    /** upsert-iggy: how a deletion is recognized; {@code null} for iggy. */
    @Nullable private final IggyDeletionMessage deletion;

    private final String tableIdentifier;

    // ----- set by the planner's abilities ---------------------------------------------------

    private List<String> metadataKeys = Collections.emptyList();
    private DataType producedDataType;
    @Nullable private WatermarkStrategy<RowData> watermarkStrategy;

    IggyDynamicSource(
            DataType physicalDataType,
            @Nullable DecodingFormat<DeserializationSchema<RowData>> keyDecodingFormat,
            DecodingFormat<DeserializationSchema<RowData>> valueDecodingFormat,
            int[] keyProjection,
            int[] valueProjection,
            @Nullable String keyPrefix,
            String keyHeader,
            ReadableConfig options,
            IggyConnectionConfig connection,
            @Nullable Integer parallelism,
            @Nullable IggyDeletionMessage deletion,
            String tableIdentifier) {
        this.physicalDataType = physicalDataType;
        this.keyDecodingFormat = keyDecodingFormat;
        this.valueDecodingFormat = valueDecodingFormat;
        this.keyProjection = keyProjection;
        this.valueProjection = valueProjection;
        this.keyPrefix = keyPrefix;
        this.keyHeader = keyHeader;
        this.options = options;
        this.connection = connection;
        this.parallelism = parallelism;
        this.deletion = deletion;
        this.tableIdentifier = tableIdentifier;
        this.producedDataType = physicalDataType;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return deletion != null ? ChangelogMode.upsert() : valueDecodingFormat.getChangelogMode();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        DeserializationSchema<RowData> keyFormat =
                keyDecodingFormat == null
                        ? null
                        : keyDecodingFormat.createRuntimeDecoder(
                                context,
                                IggyFormatProjections.formatDataType(
                                        physicalDataType, keyProjection, keyPrefix));
        DeserializationSchema<RowData> valueFormat =
                valueDecodingFormat.createRuntimeDecoder(
                        context,
                        IggyFormatProjections.formatDataType(
                                physicalDataType, valueProjection, null));
        TypeInformation<RowData> producedType = context.createTypeInformation(producedDataType);
        IggyRowAssembler assembler =
                new IggyRowAssembler(
                        DataType.getFieldCount(physicalDataType),
                        keyProjection,
                        fieldTypes(keyProjection),
                        valueProjection,
                        fieldTypes(valueProjection),
                        metadataKeys.stream()
                                .map(IggyReadableMetadata::of)
                                .collect(Collectors.toList()));
        IggyRecordDeserializationSchema<RowData> deserializer =
                deletion != null
                        ? new IggyUpsertRowDataDeserializationSchema(
                                keyFormat,
                                valueFormat,
                                keyHeader,
                                deletion,
                                assembler,
                                producedType)
                        : new IggyRowDataDeserializationSchema(
                                keyFormat, valueFormat, keyHeader, assembler, producedType);
        IggySource<RowData> source = createSource(deserializer);
        boolean bounded = source.getBoundedness() == Boundedness.BOUNDED;
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(
                    ProviderContext providerContext, StreamExecutionEnvironment env) {
                WatermarkStrategy<RowData> watermarks =
                        watermarkStrategy != null
                                ? watermarkStrategy
                                : WatermarkStrategy.noWatermarks();
                DataStreamSource<RowData> stream =
                        env.fromSource(source, watermarks, "IggySource-" + tableIdentifier);
                stream.uid(uid());
                if (parallelism != null) {
                    stream.setParallelism(parallelism);
                }
                return stream;
            }

            @Override
            public boolean isBounded() {
                return bounded;
            }
        };
    }

    /**
     * The source's operator uid: {@code scan.uid}, or one derived from the table's identifier, so
     * that a changed query (a new plan, other operator ids) still finds the read positions in a
     * savepoint.
     */
    String uid() {
        return options.getOptional(IggyConnectorOptions.SCAN_UID)
                .orElse(DEFAULT_UID_PREFIX + tableIdentifier);
    }

    /** The runtime source: the table's options plus {@code deserializer}. */
    <T> IggySource<T> createSource(IggyRecordDeserializationSchema<T> deserializer) {
        return IggyScanOptions.<T>sourceBuilder(options, connection, tableIdentifier)
                .setDeserializer(deserializer)
                .build();
    }

    private List<LogicalType> fieldTypes(int[] projection) {
        List<DataType> fields = DataType.getFieldDataTypes(physicalDataType);
        return Arrays.stream(projection)
                .mapToObj(i -> fields.get(i).getLogicalType())
                .collect(Collectors.toList());
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        Map<String, DataType> metadata = new LinkedHashMap<>();
        for (IggyReadableMetadata m : IggyReadableMetadata.values()) {
            metadata.put(m.key, m.dataType);
        }
        return metadata;
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        this.metadataKeys = metadataKeys;
        this.producedDataType = producedDataType;
    }

    @Override
    public boolean supportsMetadataProjection() {
        return false;
    }

    @Override
    public void applyWatermark(WatermarkStrategy<RowData> watermarkStrategy) {
        this.watermarkStrategy = watermarkStrategy;
    }

    @Override
    public DynamicTableSource copy() {
        IggyDynamicSource copy =
                new IggyDynamicSource(
                        physicalDataType,
                        keyDecodingFormat,
                        valueDecodingFormat,
                        keyProjection,
                        valueProjection,
                        keyPrefix,
                        keyHeader,
                        options,
                        connection,
                        parallelism,
                        deletion,
                        tableIdentifier);
        copy.metadataKeys = metadataKeys;
        copy.producedDataType = producedDataType;
        copy.watermarkStrategy = watermarkStrategy;
        return copy;
    }

    /** Never shows credentials: the plan names the server, the topic and the consumer only. */
    @Override
    public String asSummaryString() {
        return (deletion != null ? "upsert-iggy" : "iggy")
                + " table source ("
                + connection.address()
                + ", "
                + IggyScanOptions.topicsDescription(options)
                + ")";
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof IggyDynamicSource)) {
            return false;
        }
        IggyDynamicSource that = (IggyDynamicSource) o;
        return physicalDataType.equals(that.physicalDataType)
                && Objects.equals(keyDecodingFormat, that.keyDecodingFormat)
                && valueDecodingFormat.equals(that.valueDecodingFormat)
                && Arrays.equals(keyProjection, that.keyProjection)
                && Arrays.equals(valueProjection, that.valueProjection)
                && Objects.equals(keyPrefix, that.keyPrefix)
                && keyHeader.equals(that.keyHeader)
                && options.equals(that.options)
                && connection.equals(that.connection)
                && Objects.equals(parallelism, that.parallelism)
                && Objects.equals(deletion, that.deletion)
                && tableIdentifier.equals(that.tableIdentifier)
                && metadataKeys.equals(that.metadataKeys)
                && producedDataType.equals(that.producedDataType)
                && Objects.equals(watermarkStrategy, that.watermarkStrategy);
    }

    @Override
    public int hashCode() {
        return Objects.hash(physicalDataType, valueDecodingFormat, options, tableIdentifier);
    }

    @Override
    public String toString() {
        return asSummaryString();
    }

    @VisibleForTesting
    @Nullable
    Integer parallelism() {
        return parallelism;
    }

    @VisibleForTesting
    @Nullable
    IggyDeletionMessage deletion() {
        return deletion;
    }
}

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
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.table.IggyRowDataDeserializationSchema.IggyReadableMetadata;
import org.apache.flink.connector.iggy.table.IggyRowDataDeserializationSchema.RowAssembler;
import org.apache.flink.connector.iggy.table.IggyRowDataDeserializationSchema.Upsert;
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
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

import javax.annotation.Nullable;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The table source of {@code iggy} (append) and {@code upsert-iggy} (keyed map, changelog upsert),
 * built on {@link IggySource}: the formats and metadata live here, reading lives in the source.
 */
@Internal
public class IggyDynamicSource
        implements ScanTableSource, SupportsReadingMetadata, SupportsWatermarkPushDown {

    /** The default uid is this and the table's identifier. */
    static final String DEFAULT_UID_PREFIX = "iggy-source: ";

    private final IggyTableShape table;

    @Nullable private final DecodingFormat<DeserializationSchema<RowData>> keyDecodingFormat;
    private final DecodingFormat<DeserializationSchema<RowData>> valueDecodingFormat;

    // set by the planner's abilities
    private List<String> metadataKeys = Collections.emptyList();
    private DataType producedDataType;
    @Nullable private WatermarkStrategy<RowData> watermarkStrategy;

    IggyDynamicSource(
            IggyTableShape table,
            @Nullable DecodingFormat<DeserializationSchema<RowData>> keyDecodingFormat,
            DecodingFormat<DeserializationSchema<RowData>> valueDecodingFormat) {
        this.table = table;
        this.keyDecodingFormat = keyDecodingFormat;
        this.valueDecodingFormat = valueDecodingFormat;
        this.producedDataType = table.physicalDataType();
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return table.upsert() ? ChangelogMode.upsert() : valueDecodingFormat.getChangelogMode();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        DeserializationSchema<RowData> keyFormat =
                keyDecodingFormat == null
                        ? null
                        : keyDecodingFormat.createRuntimeDecoder(context, table.keyFormatType());
        DeserializationSchema<RowData> valueFormat =
                valueDecodingFormat.createRuntimeDecoder(context, table.valueFormatType());
        TypeInformation<RowData> producedType = context.createTypeInformation(producedDataType);
        RowAssembler assembler =
                new RowAssembler(
                        LogicalTypeChecks.getFieldTypes(table.physicalDataType().getLogicalType()),
                        table.keyProjection(),
                        table.valueProjection(),
                        metadataKeys.stream().map(IggyReadableMetadata::of).toList());
        IggyRecordDeserializationSchema<RowData> deserializer =
                table.upsert()
                        ? new Upsert(
                                keyFormat,
                                valueFormat,
                                table.keyHeader(),
                                table.deletion(),
                                assembler,
                                producedType)
                        : new IggyRowDataDeserializationSchema(
                                keyFormat, valueFormat, table.keyHeader(), assembler, producedType);
        IggySource<RowData> source = createSource(deserializer);
        boolean bounded = source.getBoundedness() == Boundedness.BOUNDED;
        Integer parallelism = parallelism();
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(
                    ProviderContext providerContext, StreamExecutionEnvironment env) {
                WatermarkStrategy<RowData> watermarks =
                        watermarkStrategy != null
                                ? watermarkStrategy
                                : WatermarkStrategy.noWatermarks();
                DataStreamSource<RowData> stream =
                        env.fromSource(source, watermarks, "IggySource-" + table.tableIdentifier());
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

    /** The source's operator uid, see {@link IggyTableShape#uid}. */
    String uid() {
        return table.uid(IggyConnectorOptions.SCAN_UID, DEFAULT_UID_PREFIX);
    }

    /** The runtime source: the table's options plus {@code deserializer}. */
    <T> IggySource<T> createSource(IggyRecordDeserializationSchema<T> deserializer) {
        return IggyScanOptions.<T>sourceBuilder(
                        table.options(), table.connection(), table.tableIdentifier())
                .setDeserializer(deserializer)
                .build();
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
                new IggyDynamicSource(table, keyDecodingFormat, valueDecodingFormat);
        copy.metadataKeys = metadataKeys;
        copy.producedDataType = producedDataType;
        copy.watermarkStrategy = watermarkStrategy;
        return copy;
    }

    /** Never shows credentials: the plan names the server, the topic and the consumer only. */
    @Override
    public String asSummaryString() {
        return (table.upsert() ? "upsert-iggy" : "iggy")
                + " table source ("
                + table.connection().address()
                + ", "
                + IggyScanOptions.topicsDescription(table.options())
                + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IggyDynamicSource that
                && table.equals(that.table)
                && Objects.equals(keyDecodingFormat, that.keyDecodingFormat)
                && valueDecodingFormat.equals(that.valueDecodingFormat)
                && metadataKeys.equals(that.metadataKeys)
                && producedDataType.equals(that.producedDataType)
                && Objects.equals(watermarkStrategy, that.watermarkStrategy);
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, valueDecodingFormat);
    }

    @Override
    public String toString() {
        return asSummaryString();
    }

    /** {@code scan.parallelism}, if set. */
    @Nullable
    Integer parallelism() {
        return table.options().getOptional(IggyConnectorOptions.SCAN_PARALLELISM).orElse(null);
    }

    @VisibleForTesting
    @Nullable
    IggyDeletionMessage deletion() {
        return table.deletion();
    }
}

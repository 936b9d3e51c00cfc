package org.apache.flink.connector.iggy.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
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

import java.time.Duration;
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

    private static final String SOURCE_TRANSFORMATION = "iggy-source";

    /** What the source reads: everything {@link IggySourceBuilder} needs except the decoding. */
    static final class ReadSettings implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        final IggyConnectionConfig connection;
        final String stream;
        final String topic;
        final String consumerName;
        final IggyStartingOffsets startingOffsets;
        @Nullable final IggyStoppingOffsets stoppingOffsets;
        final int batchSize;
        final Duration pollInterval;
        @Nullable final Duration partitionDiscoveryInterval;
        final boolean skipUndecodableRecords;
        @Nullable final Integer parallelism;

        ReadSettings(
                IggyConnectionConfig connection,
                String stream,
                String topic,
                String consumerName,
                IggyStartingOffsets startingOffsets,
                @Nullable IggyStoppingOffsets stoppingOffsets,
                int batchSize,
                Duration pollInterval,
                @Nullable Duration partitionDiscoveryInterval,
                boolean skipUndecodableRecords,
                @Nullable Integer parallelism) {
            this.connection = connection;
            this.stream = stream;
            this.topic = topic;
            this.consumerName = consumerName;
            this.startingOffsets = startingOffsets;
            this.stoppingOffsets = stoppingOffsets;
            this.batchSize = batchSize;
            this.pollInterval = pollInterval;
            this.partitionDiscoveryInterval = partitionDiscoveryInterval;
            this.skipUndecodableRecords = skipUndecodableRecords;
            this.parallelism = parallelism;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof ReadSettings)) {
                return false;
            }
            ReadSettings that = (ReadSettings) o;
            return connection.equals(that.connection)
                    && stream.equals(that.stream)
                    && topic.equals(that.topic)
                    && consumerName.equals(that.consumerName)
                    && startingOffsets.equals(that.startingOffsets)
                    && Objects.equals(stoppingOffsets, that.stoppingOffsets)
                    && batchSize == that.batchSize
                    && pollInterval.equals(that.pollInterval)
                    && Objects.equals(partitionDiscoveryInterval, that.partitionDiscoveryInterval)
                    && skipUndecodableRecords == that.skipUndecodableRecords
                    && Objects.equals(parallelism, that.parallelism);
        }

        @Override
        public int hashCode() {
            return Objects.hash(stream, topic, consumerName, startingOffsets, stoppingOffsets);
        }
    }

    /** How deletions are recognized in upsert mode. */
    static final class UpsertSettings implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        final IggyDeletionMessage deletion;

        UpsertSettings(IggyDeletionMessage deletion) {
            this.deletion = deletion;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof UpsertSettings && deletion.equals(((UpsertSettings) o).deletion);
        }

        @Override
        public int hashCode() {
            return deletion.hashCode();
        }
    }

    // ----- fixed at planning --------------------------------------------------------------------

    private final DataType physicalDataType;
    @Nullable private final DecodingFormat<DeserializationSchema<RowData>> keyDecodingFormat;
    private final DecodingFormat<DeserializationSchema<RowData>> valueDecodingFormat;
    private final int[] keyProjection;
    private final int[] valueProjection;
    @Nullable private final String keyPrefix;
    private final String keyHeader;
    private final ReadSettings settings;

    /** {@code null} for the append connector. */
    @Nullable private final UpsertSettings upsert;

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
            ReadSettings settings,
            @Nullable UpsertSettings upsert,
            String tableIdentifier) {
        this.physicalDataType = physicalDataType;
        this.keyDecodingFormat = keyDecodingFormat;
        this.valueDecodingFormat = valueDecodingFormat;
        this.keyProjection = keyProjection;
        this.valueProjection = valueProjection;
        this.keyPrefix = keyPrefix;
        this.keyHeader = keyHeader;
        this.settings = settings;
        this.upsert = upsert;
        this.tableIdentifier = tableIdentifier;
        this.producedDataType = physicalDataType;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return upsert != null ? ChangelogMode.upsert() : valueDecodingFormat.getChangelogMode();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        DeserializationSchema<RowData> keyFormat =
                keyDecodingFormat == null
                        ? null
                        : keyDecodingFormat.createRuntimeDecoder(
                                context,
                                IggyConnectorOptionsUtil.formatDataType(
                                        physicalDataType, keyProjection, keyPrefix));
        DeserializationSchema<RowData> valueFormat =
                valueDecodingFormat.createRuntimeDecoder(
                        context,
                        IggyConnectorOptionsUtil.formatDataType(
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
                                .collect(Collectors.toList()),
                        new IggyReadableMetadata.TopicNames(settings.stream, settings.topic));
        IggyRecordDeserializationSchema<RowData> deserializer =
                upsert != null
                        ? new IggyUpsertRowDataDeserializationSchema(
                                keyFormat,
                                valueFormat,
                                keyHeader,
                                upsert.deletion,
                                assembler,
                                producedType)
                        : new IggyRowDataDeserializationSchema(
                                keyFormat, valueFormat, keyHeader, assembler, producedType);
        IggySource<RowData> source = createSource(deserializer);
        boolean bounded = settings.stoppingOffsets != null;
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
                providerContext.generateUid(SOURCE_TRANSFORMATION).ifPresent(stream::uid);
                if (settings.parallelism != null) {
                    stream.setParallelism(settings.parallelism);
                }
                return stream;
            }

            @Override
            public boolean isBounded() {
                return bounded;
            }
        };
    }

    IggySource<RowData> createSource(IggyRecordDeserializationSchema<RowData> deserializer) {
        IggySourceBuilder<RowData> builder =
                IggySource.<RowData>builder()
                        .setConnection(settings.connection)
                        .setStream(settings.stream)
                        .setTopic(settings.topic)
                        .setConsumerName(settings.consumerName)
                        .setStartingOffsets(settings.startingOffsets)
                        .setBatchSize(settings.batchSize)
                        .setPollInterval(settings.pollInterval)
                        .setPartitionDiscoveryInterval(settings.partitionDiscoveryInterval)
                        .setSkipUndecodableRecords(settings.skipUndecodableRecords)
                        .setDeserializer(deserializer);
        if (settings.stoppingOffsets != null) {
            builder.setBounded(settings.stoppingOffsets);
        }
        return builder.build();
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
                        settings,
                        upsert,
                        tableIdentifier);
        copy.metadataKeys = metadataKeys;
        copy.producedDataType = producedDataType;
        copy.watermarkStrategy = watermarkStrategy;
        return copy;
    }

    /** Never shows credentials: the plan names the server, the topic and the consumer only. */
    @Override
    public String asSummaryString() {
        return (upsert != null ? "upsert-iggy" : "iggy")
                + " table source ("
                + settings.connection.address()
                + ", stream '"
                + settings.stream
                + "', topic '"
                + settings.topic
                + "')";
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
                && settings.equals(that.settings)
                && Objects.equals(upsert, that.upsert)
                && tableIdentifier.equals(that.tableIdentifier)
                && metadataKeys.equals(that.metadataKeys)
                && producedDataType.equals(that.producedDataType)
                && Objects.equals(watermarkStrategy, that.watermarkStrategy);
    }

    @Override
    public int hashCode() {
        return Objects.hash(physicalDataType, valueDecodingFormat, settings, tableIdentifier);
    }

    @Override
    public String toString() {
        return asSummaryString();
    }

    @VisibleForTesting
    ReadSettings settings() {
        return settings;
    }

    @VisibleForTesting
    @Nullable
    UpsertSettings upsertSettings() {
        return upsert;
    }
}

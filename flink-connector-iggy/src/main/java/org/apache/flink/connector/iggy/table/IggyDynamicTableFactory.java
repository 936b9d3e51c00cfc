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
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.DeleteEncoding;
import org.apache.flink.connector.iggy.table.IggyRowDataSerializationSchema.IggyWritableMetadata;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.format.Format;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DeserializationFormatFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.factories.FactoryUtil.TableFactoryHelper;
import org.apache.flink.table.factories.SerializationFormatFactory;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.RowKind;

import javax.annotation.Nullable;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.DELETE_ENCODING;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.DELETE_PAYLOAD;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FIELDS_PREFIX;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FORMAT;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_PARALLELISM;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.TOPIC;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.VALUE_FORMAT;

/**
 * The {@code iggy} table connector: an append-only source and sink of Iggy topics, with any Flink
 * format for the payload and, optionally, a key carried in a user header. {@link
 * UpsertIggyDynamicTableFactory} is this factory in upsert mode.
 */
@Internal
public class IggyDynamicTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {

    public static final String IDENTIFIER = "iggy";

    private final String identifier;
    private final boolean upsert;

    public IggyDynamicTableFactory() {
        this(IDENTIFIER, false);
    }

    IggyDynamicTableFactory(String identifier, boolean upsert) {
        this.identifier = identifier;
        this.upsert = upsert;
    }

    @Override
    public String factoryIdentifier() {
        return identifier;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        Set<ConfigOption<?>> options = new LinkedHashSet<>();
        options.add(IggyConnectorOptions.ADDRESS);
        if (upsert) {
            options.add(KEY_FORMAT);
        }
        return options;
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options =
                new LinkedHashSet<>(IggyConnectorOptionsUtil.CONNECTION_OPTIONS);
        options.remove(IggyConnectorOptions.ADDRESS); // required
        Collections.addAll(
                options,
                IggyConnectorOptions.STREAM,
                IggyConnectorOptions.STREAM_PATTERN,
                TOPIC,
                IggyConnectorOptions.TOPIC_PATTERN,
                FactoryUtil.FORMAT,
                VALUE_FORMAT,
                IggyConnectorOptions.VALUE_FIELDS_INCLUDE,
                KEY_FIELDS_PREFIX,
                IggyConnectorOptions.KEY_HEADER,
                IggyConnectorOptions.SCAN_CONSUMER_NAME,
                IggyConnectorOptions.SCAN_STARTUP_MODE,
                IggyConnectorOptions.SCAN_STARTUP_COMMITTED_FALLBACK,
                IggyConnectorOptions.SCAN_STARTUP_TIMESTAMP_MILLIS,
                IggyConnectorOptions.SCAN_STARTUP_SPECIFIC_OFFSETS,
                IggyConnectorOptions.SCAN_BOUNDED_MODE,
                IggyConnectorOptions.SCAN_BOUNDED_TIMESTAMP_MILLIS,
                IggyConnectorOptions.SCAN_BOUNDED_SPECIFIC_OFFSETS,
                IggyConnectorOptions.SCAN_PARTITION_DISCOVERY_INTERVAL,
                IggyConnectorOptions.SCAN_POLL_BATCH_SIZE,
                IggyConnectorOptions.SCAN_POLL_INTERVAL,
                IggyConnectorOptions.SCAN_POLL_MIN_INTERVAL,
                IggyConnectorOptions.SCAN_POLL_BACK_OFF,
                IggyConnectorOptions.SCAN_SKIP_UNDECODABLE_RECORDS,
                IggyConnectorOptions.SCAN_RECREATED_TOPIC_READ_FROM_START,
                IggyConnectorOptions.SCAN_DELETED_TOPIC_SKIP,
                SCAN_PARALLELISM,
                IggyConnectorOptions.SCAN_UID,
                IggyConnectorOptions.SINK_PARTITIONER,
                IggyConnectorOptions.SINK_PARTITION,
                IggyConnectorOptions.SINK_DELIVERY_GUARANTEE,
                IggyConnectorOptions.SINK_EXACTLY_ONCE_WRITE_AHEAD_DIR,
                IggyConnectorOptions.SINK_EXACTLY_ONCE_FSYNC_BEFORE_DELETE,
                IggyConnectorOptions.SINK_BATCH_SIZE,
                IggyConnectorOptions.SINK_MAX_BATCH_BYTES,
                IggyConnectorOptions.SINK_LINGER,
                IggyConnectorOptions.SINK_MAX_IN_FLIGHT_REQUESTS,
                IggyConnectorOptions.SINK_PARALLELISM,
                IggyConnectorOptions.SINK_UID);
        if (upsert) {
            options.add(IggyConnectorOptions.SINK_IDEMPOTENT_WRITES);
            options.add(IggyConnectorOptions.SINK_STATE_TTL);
            options.add(DELETE_ENCODING);
            options.add(DELETE_PAYLOAD);
        } else {
            options.add(KEY_FORMAT);
            options.add(IggyConnectorOptions.KEY_FIELDS);
        }
        return options;
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        Class<DeserializationFormatFactory> factory = DeserializationFormatFactory.class;
        DecodingFormat<DeserializationSchema<RowData>> key =
                helper.discoverOptionalDecodingFormat(factory, KEY_FORMAT).orElse(null);
        DecodingFormat<DeserializationSchema<RowData>> value =
                helper.discoverOptionalDecodingFormat(factory, FactoryUtil.FORMAT)
                        .orElseGet(() -> helper.discoverDecodingFormat(factory, VALUE_FORMAT));
        IggyTableShape table = shape(context, helper, key, value, helper.getOptions());
        IggyScanOptions.validateTopics(helper.getOptions());
        IggyScanOptions.validateScanOptions(helper.getOptions());
        IggyDynamicSource source = new IggyDynamicSource(table, key, value);
        // Reading the connection, consumer, start and stop options checks them: build a source now
        // (the planner's deserializer comes later) so that a bad table fails when it is created.
        source.createSource(IggyRecordDeserializationSchema.payloads());
        return source;
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        Class<SerializationFormatFactory> factory = SerializationFormatFactory.class;
        EncodingFormat<SerializationSchema<RowData>> key =
                helper.discoverOptionalEncodingFormat(factory, KEY_FORMAT).orElse(null);
        EncodingFormat<SerializationSchema<RowData>> value =
                helper.discoverOptionalEncodingFormat(factory, FactoryUtil.FORMAT)
                        .orElseGet(() -> helper.discoverEncodingFormat(factory, VALUE_FORMAT));
        ReadableConfig options = Configuration.fromMap(context.getCatalogTable().getOptions());
        IggyTableShape table = shape(context, helper, key, value, options);
        IggySinkOptions.validateSinkTopics(helper.getOptions(), writesTopicColumn(context));
        IggyPartitioner<RowData> customPartitioner =
                IggySinkOptions.validateSinkOptions(
                        helper.getOptions(),
                        upsert,
                        table.keyProjection().length > 0,
                        context.getClassLoader());
        return new IggyDynamicSink(table, key, value, customPartitioner);
    }

    /**
     * Checks what source and sink tables share and fixes the table's columns and connection; the
     * table source or sink keeps the options {@code kept}.
     */
    private IggyTableShape shape(
            Context context,
            TableFactoryHelper helper,
            @Nullable Format key,
            Format value,
            ReadableConfig kept) {
        IggyConnectorOptionsUtil.validate(helper);
        ReadableConfig options = helper.getOptions();
        validateFormats(options, key, value);
        DataType physicalDataType = context.getPhysicalRowDataType();
        int[] keyProjection =
                upsert
                        ? IggyTableShape.primaryKeyColumns(
                                options, physicalDataType, context.getPrimaryKeyIndexes())
                        : IggyTableShape.keyColumns(options, physicalDataType);
        int[] valueProjection =
                IggyTableShape.valueColumns(options, physicalDataType, keyProjection);
        return new IggyTableShape(
                physicalDataType,
                keyProjection,
                valueProjection,
                options.getOptional(KEY_FIELDS_PREFIX).orElse(null),
                IggyTableShape.checkedKeyHeader(options),
                kept,
                IggyConnectorOptionsUtil.connectionConfig(options, context.getConfiguration()),
                upsert ? deletionMessage(options) : null,
                context.getObjectIdentifier().asSummaryString());
    }

    /** Whether the table has a writable (persisted) metadata column of key 'topic'. */
    private static boolean writesTopicColumn(Context context) {
        return context.getCatalogTable().getResolvedSchema().getColumns().stream()
                .anyMatch(
                        c ->
                                c instanceof Column.MetadataColumn m
                                        && !m.isVirtual()
                                        && m.getMetadataKey()
                                                .orElse(m.getName())
                                                .equals(IggyWritableMetadata.TOPIC.key));
    }

    private void validateFormats(ReadableConfig options, @Nullable Format key, Format value) {
        if (!upsert) {
            return;
        }
        String valueFormat =
                options.getOptional(FactoryUtil.FORMAT).orElseGet(() -> options.get(VALUE_FORMAT));
        if (!value.getChangelogMode().containsOnly(RowKind.INSERT)) {
            throw new ValidationException(
                    "upsert-iggy needs an insert-only value format, but '"
                            + valueFormat
                            + "' produces "
                            + value.getChangelogMode()
                            + ": the changelog comes from the key and the delete encoding.");
        }
        if (key != null && !key.getChangelogMode().containsOnly(RowKind.INSERT)) {
            throw new ValidationException(
                    "upsert-iggy needs an insert-only key format, but '"
                            + options.get(KEY_FORMAT)
                            + "' is not.");
        }
    }

    /** How a deletion looks under the configured delete encoding. */
    private static IggyDeletionMessage deletionMessage(ReadableConfig options) {
        DeleteEncoding encoding = options.get(DELETE_ENCODING);
        boolean custom = encoding == DeleteEncoding.CUSTOM_PAYLOAD;
        if (custom != options.getOptional(DELETE_PAYLOAD).isPresent()) {
            throw new ValidationException(
                    custom
                            ? "Option '"
                                    + DELETE_PAYLOAD.key()
                                    + "' is required when '"
                                    + DELETE_ENCODING.key()
                                    + "' is 'custom-payload'."
                            : "Option '"
                                    + DELETE_PAYLOAD.key()
                                    + "' applies only when '"
                                    + DELETE_ENCODING.key()
                                    + "' is 'custom-payload', but it is '"
                                    + encoding
                                    + "'.");
        }
        return IggyDeletionMessage.of(encoding, custom ? options.get(DELETE_PAYLOAD) : null);
    }
}

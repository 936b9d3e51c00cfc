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
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.ScanBoundedMode;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.ScanStartupMode;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.SinkPartitioner;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.ValueFieldsStrategy;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.Projection;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.util.InstantiationUtil;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.ADDRESS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.CONNECT_TIMEOUT;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FIELDS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FIELDS_PREFIX;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FORMAT;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_HEADER;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.PASSWORD;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.PERSONAL_ACCESS_TOKEN;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.REQUEST_TIMEOUT;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_BOUNDED_MODE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_BOUNDED_SPECIFIC_OFFSETS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_BOUNDED_TIMESTAMP_MILLIS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_CONSUMER_NAME;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_PARTITION_DISCOVERY_INTERVAL;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_POLL_BATCH_SIZE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_POLL_INTERVAL;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_RECREATED_TOPIC_READ_FROM_START;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_SKIP_UNDECODABLE_RECORDS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_STARTUP_COMMITTED_FALLBACK;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_STARTUP_MODE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_STARTUP_SPECIFIC_OFFSETS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_STARTUP_TIMESTAMP_MILLIS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_BATCH_SIZE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_DELIVERY_GUARANTEE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_LINGER;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_PARTITION;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_PARTITIONER;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.STREAM;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.TLS_CERTIFICATE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.TLS_ENABLED;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.TOPIC;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.USERNAME;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.VALUE_FIELDS_INCLUDE;

/**
 * Turns validated table options into the source's and sink's configuration. Every failure is a
 * {@link ValidationException} at planning time naming the option and its allowed values, and never
 * showing a secret.
 */
@Internal
public final class IggyConnectorOptionsUtil {

    private static final Pattern OFFSET_ENTRY =
            Pattern.compile("\\s*partition\\s*:\\s*(\\d+)\\s*,\\s*offset\\s*:\\s*(\\d+)\\s*");

    private static final PositionOptions<ScanStartupMode> START =
            new PositionOptions<>(
                    SCAN_STARTUP_MODE,
                    ScanStartupMode.TIMESTAMP,
                    SCAN_STARTUP_TIMESTAMP_MILLIS,
                    ScanStartupMode.SPECIFIC_OFFSETS,
                    SCAN_STARTUP_SPECIFIC_OFFSETS);

    private static final PositionOptions<ScanBoundedMode> STOP =
            new PositionOptions<>(
                    SCAN_BOUNDED_MODE,
                    ScanBoundedMode.TIMESTAMP,
                    SCAN_BOUNDED_TIMESTAMP_MILLIS,
                    ScanBoundedMode.SPECIFIC_OFFSETS,
                    SCAN_BOUNDED_SPECIFIC_OFFSETS);

    private IggyConnectorOptionsUtil() {}

    /**
     * The connection of a table. Credentials missing from the table's options come from {@code
     * flinkConfiguration} (the session's) or the environment, so they can stay out of DDL.
     */
    public static IggyConnectionConfig connectionConfig(
            ReadableConfig options, ReadableConfig flinkConfiguration) {
        IggyConnectionConfig.Builder builder =
                IggyConnectionConfig.builder()
                        .setAddress(options.getOptional(ADDRESS).orElse(null))
                        .setPersonalAccessToken(
                                options.getOptional(PERSONAL_ACCESS_TOKEN).orElse(null))
                        .setFlinkConfiguration(flinkConfiguration)
                        .setTlsEnabled(options.get(TLS_ENABLED))
                        .setConnectTimeout(options.get(CONNECT_TIMEOUT))
                        .setRequestTimeout(options.get(REQUEST_TIMEOUT));
        if (options.getOptional(USERNAME).isPresent()) {
            builder.setCredentials(
                    options.get(USERNAME), options.getOptional(PASSWORD).orElse(null));
        } else if (options.getOptional(PASSWORD).isPresent()) {
            throw new ValidationException(
                    "Option '"
                            + PASSWORD.key()
                            + "' is set but '"
                            + USERNAME.key()
                            + "' is not: set both, or neither and take the credentials from the"
                            + " Flink configuration or the environment.");
        }
        options.getOptional(TLS_CERTIFICATE).ifPresent(builder::setTlsCertificatePath);
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            // The builder's messages name the property and never contain a secret.
            throw new ValidationException(e.getMessage());
        }
    }

    /** The stream name, checked as Iggy checks names. */
    static String stream(ReadableConfig options) {
        return name(options, STREAM);
    }

    /** The topic name, checked as Iggy checks names. */
    static String topic(ReadableConfig options) {
        return name(options, TOPIC);
    }

    private static String name(ReadableConfig options, ConfigOption<String> option) {
        String name = options.get(option);
        try {
            IggyId.of(name);
            return name;
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    "Invalid option '" + option.key() + "': " + e.getMessage());
        }
    }

    static String consumerName(ReadableConfig options, String tableName) {
        String name = options.getOptional(SCAN_CONSUMER_NAME).orElse("flink-" + tableName);
        if (name.isBlank() || name.length() > 255) {
            throw new ValidationException(
                    "Invalid option '"
                            + SCAN_CONSUMER_NAME.key()
                            + "': a consumer name has 1 to 255 characters"
                            + (options.getOptional(SCAN_CONSUMER_NAME).isPresent()
                                    ? ""
                                    : " (the default 'flink-<table>' is too long: set it)"));
        }
        return name;
    }

    // ----- scan -------------------------------------------------------------------------------

    /**
     * A source builder with every scan option of the table and its resolved {@code connection} set;
     * the caller adds the deserializer, which exists only when the planner asks for the runtime
     * source.
     */
    static <T> IggySourceBuilder<T> sourceBuilder(
            ReadableConfig options, IggyConnectionConfig connection, String tableName) {
        IggySourceBuilder<T> builder =
                IggySource.<T>builder()
                        .setConnection(connection)
                        .setStream(stream(options))
                        .setTopic(topic(options))
                        .setConsumerName(consumerName(options, tableName))
                        .setStartingOffsets(startingOffsets(options))
                        .setBounded(stoppingOffsets(options))
                        .setPollInterval(options.get(SCAN_POLL_INTERVAL))
                        .setPartitionDiscoveryInterval(
                                options.getOptional(SCAN_PARTITION_DISCOVERY_INTERVAL).orElse(null))
                        .setSkipUndecodableRecords(options.get(SCAN_SKIP_UNDECODABLE_RECORDS))
                        .setReadRecreatedTopicFromStart(
                                options.get(SCAN_RECREATED_TOPIC_READ_FROM_START));
        options.getOptional(SCAN_POLL_BATCH_SIZE).ifPresent(builder::setBatchSize);
        return builder;
    }

    static IggyStartingOffsets startingOffsets(ReadableConfig options) {
        switch (START.mode(options)) {
            case EARLIEST_OFFSET:
                return IggyStartingOffsets.earliest();
            case LATEST_OFFSET:
                return IggyStartingOffsets.latest();
            case TIMESTAMP:
                return IggyStartingOffsets.timestamp(START.timestampMillis(options));
            case SPECIFIC_OFFSETS:
                return IggyStartingOffsets.specific(START.offsets(options));
            case COMMITTED_OFFSET:
            default:
                return IggyStartingOffsets.committed(options.get(SCAN_STARTUP_COMMITTED_FALLBACK));
        }
    }

    /** The stopping offsets of a bounded scan, or {@code null} when unbounded. */
    @Nullable
    static IggyStoppingOffsets stoppingOffsets(ReadableConfig options) {
        ScanBoundedMode mode = STOP.mode(options);
        if (mode != ScanBoundedMode.UNBOUNDED
                && options.getOptional(SCAN_PARTITION_DISCOVERY_INTERVAL).isPresent()) {
            throw new ValidationException(
                    "Option '"
                            + SCAN_PARTITION_DISCOVERY_INTERVAL.key()
                            + "' applies to unbounded scans only, but '"
                            + SCAN_BOUNDED_MODE.key()
                            + "' is '"
                            + mode
                            + "': remove one of them.");
        }
        switch (mode) {
            case LATEST_OFFSET:
                return IggyStoppingOffsets.latest();
            case TIMESTAMP:
                return IggyStoppingOffsets.timestamp(STOP.timestampMillis(options));
            case SPECIFIC_OFFSETS:
                return IggyStoppingOffsets.specific(STOP.offsets(options));
            case UNBOUNDED:
            default:
                return null;
        }
    }

    /** Checks the poll options; the start and stop options are checked when they are read. */
    static void validateScanOptions(ReadableConfig options) {
        Optional<Integer> batchSize = options.getOptional(SCAN_POLL_BATCH_SIZE);
        if (batchSize.isPresent() && batchSize.get() < 1) {
            throw new ValidationException(
                    "Option '"
                            + SCAN_POLL_BATCH_SIZE.key()
                            + "' must be at least 1, but is "
                            + batchSize.get());
        }
        requirePositive(SCAN_POLL_INTERVAL.key(), options.get(SCAN_POLL_INTERVAL));
        options.getOptional(SCAN_PARTITION_DISCOVERY_INTERVAL)
                .ifPresent(d -> requirePositive(SCAN_PARTITION_DISCOVERY_INTERVAL.key(), d));
    }

    /** Parses {@code partition:0,offset:42;partition:1,offset:300}. */
    static Map<Long, Long> parseSpecificOffsets(String value, ConfigOption<String> option) {
        Map<Long, Long> offsets = new LinkedHashMap<>();
        for (String entry : value.split(";")) {
            if (entry.isBlank()) {
                continue;
            }
            Matcher m = OFFSET_ENTRY.matcher(entry);
            if (!m.matches()) {
                throw new ValidationException(
                        "Invalid option '"
                                + option.key()
                                + "': '"
                                + entry.trim()
                                + "' is not 'partition:<id>,offset:<offset>'. Expected e.g."
                                + " 'partition:0,offset:42;partition:1,offset:300'.");
            }
            long partition = Long.parseLong(m.group(1));
            if (offsets.put(partition, Long.parseLong(m.group(2))) != null) {
                throw new ValidationException(
                        "Invalid option '"
                                + option.key()
                                + "': partition "
                                + partition
                                + " is listed twice.");
            }
        }
        if (offsets.isEmpty()) {
            throw new ValidationException(
                    "Option '"
                            + option.key()
                            + "' lists no offsets. Expected e.g."
                            + " 'partition:0,offset:42;partition:1,offset:300'.");
        }
        return offsets;
    }

    // ----- sink -------------------------------------------------------------------------------

    static DeliveryGuarantee deliveryGuarantee(ReadableConfig options) {
        DeliveryGuarantee guarantee = options.get(SINK_DELIVERY_GUARANTEE);
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE
                && options.getOptional(IggyConnectorOptions.SINK_IDEMPOTENT_WRITES).orElse(false)) {
            throw new ValidationException(
                    "Option '"
                            + SINK_DELIVERY_GUARANTEE.key()
                            + "' = 'exactly-once' chooses every message id itself and needs no"
                            + " deduplication: drop '"
                            + IggyConnectorOptions.SINK_IDEMPOTENT_WRITES.key()
                            + "' or use 'at-least-once'.");
        }
        return guarantee;
    }

    /**
     * Validates the sink options.
     *
     * @return the custom partitioner named by {@code sink.partitioner}, or {@code null} for a
     *     built-in one
     */
    @Nullable
    static IggyPartitioner<RowData> validateSinkOptions(
            ReadableConfig options, boolean upsert, boolean hasKey, ClassLoader classLoader) {
        deliveryGuarantee(options);
        String partitioner = options.get(SINK_PARTITIONER);
        boolean builtIn =
                partitioner.equals(SinkPartitioner.FIXED)
                        || partitioner.equals(SinkPartitioner.KEY)
                        || (!upsert && partitioner.equals(SinkPartitioner.ROUND_ROBIN));
        if (upsert && !builtIn) {
            throw new ValidationException(
                    "Invalid option '"
                            + SINK_PARTITIONER.key()
                            + "' = '"
                            + partitioner
                            + "' for upsert-iggy. Allowed values: 'fixed', 'key'.");
        }
        IggyPartitioner<RowData> custom =
                builtIn
                        ? null
                        : InstantiationUtil.instantiate(partitionerClass(partitioner, classLoader));
        if (partitioner.equals(SinkPartitioner.KEY) && !hasKey) {
            throw new ValidationException(
                    "Option '"
                            + SINK_PARTITIONER.key()
                            + "' = 'key' needs key bytes: set '"
                            + KEY_FIELDS.key()
                            + "' and '"
                            + KEY_FORMAT.key()
                            + "'.");
        }
        long partition = options.get(SINK_PARTITION);
        if (partition < 0 || partition > 0xFFFF_FFFFL) {
            throw new ValidationException(
                    "Option '"
                            + SINK_PARTITION.key()
                            + "' is a partition id (0 to 4294967295), but is "
                            + partition);
        }
        if (options.getOptional(SINK_PARTITION).isPresent()
                && !partitioner.equals(SinkPartitioner.FIXED)) {
            throw new ValidationException(
                    "Option '"
                            + SINK_PARTITION.key()
                            + "' applies to '"
                            + SINK_PARTITIONER.key()
                            + "' = 'fixed' only, but the partitioner is '"
                            + partitioner
                            + "'.");
        }
        if (options.get(SINK_BATCH_SIZE) < 1) {
            throw new ValidationException(
                    "Option '"
                            + SINK_BATCH_SIZE.key()
                            + "' must be at least 1, but is "
                            + options.get(SINK_BATCH_SIZE));
        }
        for (ConfigOption<? extends Number> atLeastOne :
                List.of(
                        IggyConnectorOptions.SINK_MAX_BATCH_BYTES,
                        IggyConnectorOptions.SINK_MAX_IN_FLIGHT_REQUESTS)) {
            if (options.get(atLeastOne).longValue() < 1) {
                throw new ValidationException(
                        "Option '"
                                + atLeastOne.key()
                                + "' must be at least 1, but is "
                                + options.get(atLeastOne));
            }
        }
        options.getOptional(IggyConnectorOptions.SINK_STATE_TTL)
                .ifPresent(ttl -> requirePositive(IggyConnectorOptions.SINK_STATE_TTL.key(), ttl));
        if (options.get(SINK_LINGER).isNegative()) {
            throw new ValidationException(
                    "Option '" + SINK_LINGER.key() + "' must not be negative.");
        }
        return custom;
    }

    @SuppressWarnings("unchecked")
    private static Class<? extends IggyPartitioner<RowData>> partitionerClass(
            String className, ClassLoader classLoader) {
        Class<?> clazz;
        try {
            clazz = Class.forName(className, false, classLoader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new ValidationException(
                    "Invalid option '"
                            + SINK_PARTITIONER.key()
                            + "' = '"
                            + className
                            + "'. Allowed values: 'fixed', 'round-robin', 'key', or the class name"
                            + " of an IggyPartitioner<RowData> with a public no-argument"
                            + " constructor (class not found).");
        }
        if (!IggyPartitioner.class.isAssignableFrom(clazz)) {
            throw new ValidationException(
                    "Invalid option '"
                            + SINK_PARTITIONER.key()
                            + "': class '"
                            + className
                            + "' does not implement "
                            + IggyPartitioner.class.getName()
                            + ".");
        }
        try {
            clazz.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new ValidationException(
                    "Invalid option '"
                            + SINK_PARTITIONER.key()
                            + "': class '"
                            + className
                            + "' has no public no-argument constructor.");
        }
        return (Class<? extends IggyPartitioner<RowData>>) clazz;
    }

    // ----- keys and values --------------------------------------------------------------------

    /**
     * Positions of the key columns in the physical row, from {@code key.fields}; checks the key
     * options belong together.
     */
    static int[] keyProjection(ReadableConfig options, DataType physicalDataType) {
        LogicalType physicalType = physicalDataType.getLogicalType();
        List<String> names = LogicalTypeChecks.getFieldNames(physicalType);
        List<String> keyFields = options.get(KEY_FIELDS);
        boolean hasKeyFormat = options.getOptional(KEY_FORMAT).isPresent();
        if (keyFields.isEmpty()) {
            if (hasKeyFormat) {
                throw new ValidationException(
                        "Option '"
                                + KEY_FORMAT.key()
                                + "' needs '"
                                + KEY_FIELDS.key()
                                + "': list the physical columns of the key, separated by ';'.");
            }
            return new int[0];
        }
        if (!hasKeyFormat) {
            throw new ValidationException(
                    "Option '"
                            + KEY_FIELDS.key()
                            + "' needs '"
                            + KEY_FORMAT.key()
                            + "', the format of the key bytes.");
        }
        String prefix = options.getOptional(KEY_FIELDS_PREFIX).orElse("");
        int[] projection = new int[keyFields.size()];
        for (int i = 0; i < projection.length; i++) {
            String field = keyFields.get(i);
            int pos = names.indexOf(field);
            if (pos < 0) {
                throw new ValidationException(
                        "Option '"
                                + KEY_FIELDS.key()
                                + "' names '"
                                + field
                                + "', which is not a physical column. Physical columns: "
                                + names
                                + ".");
            }
            if (!field.startsWith(prefix)) {
                throw new ValidationException(
                        "Column '"
                                + field
                                + "' of '"
                                + KEY_FIELDS.key()
                                + "' does not start with '"
                                + KEY_FIELDS_PREFIX.key()
                                + "' = '"
                                + prefix
                                + "'.");
            }
            projection[i] = pos;
        }
        return projection;
    }

    /** Key positions of a PRIMARY KEY table (upsert-iggy, which has no 'key.fields'). */
    static int[] primaryKeyProjection(
            ReadableConfig options, DataType physicalDataType, int[] primaryKeyIndexes) {
        if (primaryKeyIndexes.length == 0) {
            throw new ValidationException(
                    "upsert-iggy needs a PRIMARY KEY: declare 'PRIMARY KEY (...) NOT ENFORCED'.");
        }
        String prefix = options.getOptional(KEY_FIELDS_PREFIX).orElse("");
        List<String> names = LogicalTypeChecks.getFieldNames(physicalDataType.getLogicalType());
        for (int pos : primaryKeyIndexes) {
            if (!names.get(pos).startsWith(prefix)) {
                throw new ValidationException(
                        "Key column '"
                                + names.get(pos)
                                + "' does not start with '"
                                + KEY_FIELDS_PREFIX.key()
                                + "' = '"
                                + prefix
                                + "'.");
            }
        }
        return primaryKeyIndexes;
    }

    /** Positions of the value columns in the physical row. */
    static int[] valueProjection(
            ReadableConfig options, DataType physicalDataType, int[] keyProjection) {
        int arity = LogicalTypeChecks.getFieldCount(physicalDataType.getLogicalType());
        ValueFieldsStrategy strategy = options.get(VALUE_FIELDS_INCLUDE);
        boolean hasPrefix = options.getOptional(KEY_FIELDS_PREFIX).isPresent();
        if (hasPrefix && strategy != ValueFieldsStrategy.EXCEPT_KEY) {
            throw new ValidationException(
                    "Option '"
                            + KEY_FIELDS_PREFIX.key()
                            + "' requires '"
                            + VALUE_FIELDS_INCLUDE.key()
                            + "' = 'EXCEPT_KEY' (allowed values: 'ALL', 'EXCEPT_KEY').");
        }
        if (strategy == ValueFieldsStrategy.ALL) {
            return IntStream.range(0, arity).toArray();
        }
        int[] value =
                IntStream.range(0, arity)
                        .filter(pos -> Arrays.stream(keyProjection).noneMatch(k -> k == pos))
                        .toArray();
        if (value.length == 0) {
            throw new ValidationException(
                    "'"
                            + VALUE_FIELDS_INCLUDE.key()
                            + "' = 'EXCEPT_KEY' leaves no column for the payload: add a non-key"
                            + " column or use 'ALL'.");
        }
        return value;
    }

    static String keyHeader(ReadableConfig options) {
        String header = options.get(KEY_HEADER);
        if (header.isEmpty()
                || header.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 255) {
            throw new ValidationException(
                    "Option '" + KEY_HEADER.key() + "' must have 1 to 255 bytes.");
        }
        return header;
    }

    /**
     * The physical columns at {@code projection} as a row type for a format, with {@code prefix}
     * (from {@code key.fields-prefix}) removed from the column names.
     */
    static DataType formatDataType(
            DataType physicalDataType, int[] projection, @Nullable String prefix) {
        DataType projected = Projection.of(projection).project(physicalDataType);
        if (prefix == null) {
            return projected;
        }
        List<String> names = DataType.getFieldNames(projected);
        List<DataType> types = DataType.getFieldDataTypes(projected);
        return DataTypes.ROW(
                        IntStream.range(0, names.size())
                                .mapToObj(
                                        i ->
                                                DataTypes.FIELD(
                                                        names.get(i).substring(prefix.length()),
                                                        types.get(i)))
                                .toArray(DataTypes.Field[]::new))
                .notNull();
    }

    // ----- helpers ----------------------------------------------------------------------------

    private static void requirePositive(String key, Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw new ValidationException(
                    "Option '" + key + "' must be positive, but is " + duration);
        }
    }

    /**
     * Where a scan starts or stops: a mode option and the two options that only one mode each
     * reads, a timestamp and a list of offsets. Each of those two is rejected under any other mode
     * and required under its own.
     */
    private record PositionOptions<M>(
            ConfigOption<M> modeOption,
            M timestampMode,
            ConfigOption<Long> timestampOption,
            M offsetsMode,
            ConfigOption<String> offsetsOption) {

        /** The configured mode, once no option of another mode is set. */
        M mode(ReadableConfig options) {
            M mode = options.get(modeOption);
            rejectUnless(options, timestampOption, mode, timestampMode);
            rejectUnless(options, offsetsOption, mode, offsetsMode);
            return mode;
        }

        long timestampMillis(ReadableConfig options) {
            long millis = required(options, timestampOption, timestampMode);
            if (millis < 0) {
                throw new ValidationException(
                        "Option '"
                                + timestampOption.key()
                                + "' must be epoch milliseconds >= 0, but is "
                                + millis);
            }
            return millis;
        }

        Map<Long, Long> offsets(ReadableConfig options) {
            return parseSpecificOffsets(
                    required(options, offsetsOption, offsetsMode), offsetsOption);
        }

        private void rejectUnless(
                ReadableConfig options, ConfigOption<?> option, M mode, M optionMode) {
            if (mode != optionMode && options.getOptional(option).isPresent()) {
                throw new ValidationException(
                        "Option '"
                                + option.key()
                                + "' applies only when '"
                                + modeOption.key()
                                + "' is '"
                                + optionMode
                                + "', but it is '"
                                + mode
                                + "'.");
            }
        }

        private static <T> T required(ReadableConfig options, ConfigOption<T> option, Object mode) {
            return options.getOptional(option)
                    .orElseThrow(
                            () ->
                                    new ValidationException(
                                            "Option '"
                                                    + option.key()
                                                    + "' is required for mode '"
                                                    + mode
                                                    + "'."));
        }
    }
}

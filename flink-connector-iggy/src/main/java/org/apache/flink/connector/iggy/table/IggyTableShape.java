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
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.ValueFieldsStrategy;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.Projection;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

import javax.annotation.Nullable;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;

import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FIELDS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FIELDS_PREFIX;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FORMAT;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_HEADER;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.VALUE_FIELDS_INCLUDE;

/**
 * What the table source and sink of one table share, fixed at planning: its physical columns, those
 * the key (in key order) and value formats see, key prefix and header, validated options,
 * connection, an {@code upsert-iggy} deletion ({@code null} for {@code iggy}) and the identifier
 * the default uids derive from. Its static methods find the columns from the options, failing with
 * a {@link ValidationException} naming the option.
 */
@Internal
record IggyTableShape(
        DataType physicalDataType,
        int[] keyProjection,
        int[] valueProjection,
        @Nullable String keyPrefix,
        String keyHeader,
        ReadableConfig options,
        IggyConnectionConfig connection,
        @Nullable IggyDeletionMessage deletion,
        String tableIdentifier) {

    boolean upsert() {
        return deletion != null;
    }

    /** The row type the key format reads or writes. */
    DataType keyFormatType() {
        return formatDataType(physicalDataType, keyProjection, keyPrefix);
    }

    /** The row type the value format reads or writes. */
    DataType valueFormatType() {
        return formatDataType(physicalDataType, valueProjection, null);
    }

    /**
     * The operator uid: the option's, or {@code defaultPrefix} and the table's identifier, which
     * stays the same when the query changes, so that a savepoint still finds the operator's state.
     */
    String uid(ConfigOption<String> option, String defaultPrefix) {
        return options.getOptional(option).orElse(defaultPrefix + tableIdentifier);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IggyTableShape that
                && physicalDataType.equals(that.physicalDataType)
                && Arrays.equals(keyProjection, that.keyProjection)
                && Arrays.equals(valueProjection, that.valueProjection)
                && Objects.equals(keyPrefix, that.keyPrefix)
                && keyHeader.equals(that.keyHeader)
                && options.equals(that.options)
                && connection.equals(that.connection)
                && Objects.equals(deletion, that.deletion)
                && tableIdentifier.equals(that.tableIdentifier);
    }

    @Override
    public int hashCode() {
        return Objects.hash(physicalDataType, options, tableIdentifier);
    }

    /** Never shows credentials. */
    @Override
    public String toString() {
        return (upsert() ? "upsert-iggy" : "iggy") + " table " + tableIdentifier;
    }

    /**
     * Positions of the key columns in the physical row, from {@code key.fields}; checks the key
     * options belong together.
     */
    static int[] keyColumns(ReadableConfig options, DataType physicalDataType) {
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
            projection[i] = pos;
        }
        return withPrefix(options, names, projection);
    }

    /** Key positions of a PRIMARY KEY table (upsert-iggy, which has no 'key.fields'). */
    static int[] primaryKeyColumns(
            ReadableConfig options, DataType physicalDataType, int[] primaryKeyIndexes) {
        if (primaryKeyIndexes.length == 0) {
            throw new ValidationException(
                    "upsert-iggy needs a PRIMARY KEY: declare 'PRIMARY KEY (...) NOT ENFORCED'.");
        }
        return withPrefix(
                options,
                LogicalTypeChecks.getFieldNames(physicalDataType.getLogicalType()),
                primaryKeyIndexes);
    }

    /** {@code keyProjection}, once every key column starts with {@code key.fields-prefix}. */
    private static int[] withPrefix(
            ReadableConfig options, List<String> names, int[] keyProjection) {
        String prefix = options.getOptional(KEY_FIELDS_PREFIX).orElse("");
        for (int pos : keyProjection) {
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
        return keyProjection;
    }

    /** Positions of the value columns in the physical row. */
    static int[] valueColumns(
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

    static String checkedKeyHeader(ReadableConfig options) {
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
}

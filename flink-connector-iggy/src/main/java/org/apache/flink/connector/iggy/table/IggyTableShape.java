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
import org.apache.flink.table.types.DataType;

import javax.annotation.Nullable;

import java.util.Arrays;
import java.util.Objects;

/**
 * What the table source and the table sink of one table share, fixed at planning: its physical
 * columns, which of them the key (in key order) and value formats see, the key prefix and header,
 * its validated options, its connection (credentials the options leave out taken from the session's
 * Flink configuration or the environment), how an {@code upsert-iggy} deletion looks ({@code null}
 * for {@code iggy}) and the identifier the default uids derive from.
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
        return IggyFormatProjections.formatDataType(physicalDataType, keyProjection, keyPrefix);
    }

    /** The row type the value format reads or writes. */
    DataType valueFormatType() {
        return IggyFormatProjections.formatDataType(physicalDataType, valueProjection, null);
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
}

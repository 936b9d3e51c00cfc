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
package org.apache.flink.connector.iggy.table.catalog;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions;
import org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil;
import org.apache.flink.connector.iggy.table.IggyDynamicTableFactory;
import org.apache.flink.connector.iggy.table.UpsertIggyDynamicTableFactory;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.factories.FactoryUtil;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks the options of a table created or altered through an {@link IggyCatalog} and decides what
 * the catalog stores of them: no option the catalog decides (connection, stream, topic), no topic
 * setting (those go to the topic), the connector and format made explicit, and the result accepted
 * by the table's source and sink factories. Immutable.
 */
@Internal
final class IggyCatalogTableOptions {

    /** Table options a table of the catalog may not set: the catalog decides them. */
    private static final List<ConfigOption<?>> CATALOG_DECIDED = catalogDecided();

    private final String catalogName;
    @Nullable private final String defaultFormat;
    private final IggyCatalogTableFactory tableFactory;
    private final ClassLoader classLoader;

    IggyCatalogTableOptions(
            String catalogName,
            @Nullable String defaultFormat,
            IggyCatalogTableFactory tableFactory,
            ClassLoader classLoader) {
        this.catalogName = catalogName;
        this.defaultFormat = defaultFormat;
        this.tableFactory = tableFactory;
        this.classLoader = classLoader;
    }

    /** The table's name as SQL writes it, for messages. */
    static String quoted(String catalogName, ObjectPath path) {
        return ObjectIdentifier.of(catalogName, path.getDatabaseName(), path.getObjectName())
                .asSerializableString();
    }

    /** {@code table} as a resolved table, or an error: the catalog stores no views. */
    ResolvedCatalogTable resolved(ObjectPath path, CatalogBaseTable table) {
        if (!(table instanceof ResolvedCatalogTable)) {
            throw new UnsupportedOperationException(
                    "The Iggy catalog stores tables only, but "
                            + quoted(catalogName, path)
                            + " is a "
                            + table.getTableKind()
                            + ".");
        }
        return (ResolvedCatalogTable) table;
    }

    /**
     * The options a table stores: those of the DDL without the topic's, with the connector and the
     * format made explicit; validated by creating the table's source and sink.
     */
    Map<String, String> stored(ObjectPath path, ResolvedCatalogTable table) {
        if (table.isPartitioned()) {
            throw new ValidationException(
                    "Table "
                            + quoted(catalogName, path)
                            + " cannot be PARTITIONED BY: an Iggy topic's partitions are set with"
                            + " the option '"
                            + IggyCatalogOptions.PARTITIONS.key()
                            + "' and chosen by 'sink.partitioner'.");
        }
        Map<String, String> options = new HashMap<>(table.getOptions());
        for (ConfigOption<?> option : CATALOG_DECIDED) {
            if (options.containsKey(option.key())) {
                throw new ValidationException(
                        "Table "
                                + quoted(catalogName, path)
                                + " must not set '"
                                + option.key()
                                + "': every table of catalog '"
                                + catalogName
                                + "' uses the catalog's connection, its database as the stream"
                                + " and its name as the topic.");
            }
        }
        for (ConfigOption<?> option : IggyCatalogOptions.TOPIC) {
            options.remove(option.key());
        }
        options.putIfAbsent(
                FactoryUtil.CONNECTOR.key(),
                table.getResolvedSchema().getPrimaryKey().isPresent()
                        ? UpsertIggyDynamicTableFactory.IDENTIFIER
                        : IggyDynamicTableFactory.IDENTIFIER);
        IggyCatalogTableFactory.connector(options);
        if (!options.containsKey(FactoryUtil.FORMAT.key())
                && !options.containsKey(IggyConnectorOptions.VALUE_FORMAT.key())) {
            if (defaultFormat == null) {
                throw new ValidationException(
                        "Table "
                                + quoted(catalogName, path)
                                + " needs a value format: set 'format' (or 'value.format'), or"
                                + " the catalog option '"
                                + IggyCatalogOptions.DEFAULT_FORMAT.key()
                                + "'.");
            }
            options.put(FactoryUtil.FORMAT.key(), defaultFormat);
        }
        tableFactory.validate(
                ObjectIdentifier.of(catalogName, path.getDatabaseName(), path.getObjectName()),
                table.copy(options),
                classLoader);
        return options;
    }

    private static List<ConfigOption<?>> catalogDecided() {
        List<ConfigOption<?>> options =
                new ArrayList<>(IggyConnectorOptionsUtil.CONNECTION_OPTIONS);
        options.add(IggyConnectorOptions.STREAM);
        options.add(IggyConnectorOptions.STREAM_PATTERN);
        options.add(IggyConnectorOptions.TOPIC);
        options.add(IggyConnectorOptions.TOPIC_PATTERN);
        return options;
    }
}

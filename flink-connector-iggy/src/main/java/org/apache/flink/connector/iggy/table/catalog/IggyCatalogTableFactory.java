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
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions;
import org.apache.flink.connector.iggy.table.IggyDynamicTableFactory;
import org.apache.flink.connector.iggy.table.UpsertIggyDynamicTableFactory;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Creates the sources and sinks of an {@link IggyCatalog}'s tables: the table's options plus what
 * the catalog supplies (its connection, the stream and topic the table's path names, and the
 * catalog's scan defaults for options the table leaves unset), handed to the {@code iggy} or {@code
 * upsert-iggy} factory. The connection never enters the table's options, so neither SHOW CREATE
 * TABLE nor the stored definition shows a secret.
 */
@Internal
final class IggyCatalogTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {

    private final Map<String, String> catalogSupplied;
    private final Map<String, String> scanDefaults;

    /**
     * @param connection the catalog's connection options, as option strings
     * @param scanDefaults scan options a table gets when it does not set them
     */
    IggyCatalogTableFactory(Map<String, String> connection, Map<String, String> scanDefaults) {
        this.catalogSupplied = Map.copyOf(connection);
        this.scanDefaults = Map.copyOf(scanDefaults);
    }

    @Override
    public String factoryIdentifier() {
        return IggyDynamicTableFactory.IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Collections.emptySet();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Collections.emptySet();
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        Context connected = connected(context);
        return upsert(connected)
                ? new UpsertIggyDynamicTableFactory().createDynamicTableSource(connected)
                : new IggyDynamicTableFactory().createDynamicTableSource(connected);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        Context connected = connected(context);
        return upsert(connected)
                ? new UpsertIggyDynamicTableFactory().createDynamicTableSink(connected)
                : new IggyDynamicTableFactory().createDynamicTableSink(connected);
    }

    /** The connector a table of the catalog uses: {@code iggy} or {@code upsert-iggy}. */
    static String connector(Map<String, String> options) {
        String connector = options.get(FactoryUtil.CONNECTOR.key());
        if (!IggyDynamicTableFactory.IDENTIFIER.equals(connector)
                && !UpsertIggyDynamicTableFactory.IDENTIFIER.equals(connector)) {
            throw new ValidationException(
                    "Tables of an Iggy catalog use the connector '"
                            + IggyDynamicTableFactory.IDENTIFIER
                            + "' or '"
                            + UpsertIggyDynamicTableFactory.IDENTIFIER
                            + "', but option '"
                            + FactoryUtil.CONNECTOR.key()
                            + "' is '"
                            + connector
                            + "'. Define tables of other connectors in another catalog.");
        }
        return connector;
    }

    private static boolean upsert(Context context) {
        return UpsertIggyDynamicTableFactory.IDENTIFIER.equals(
                connector(context.getCatalogTable().getOptions()));
    }

    private Context connected(Context context) {
        ObjectIdentifier id = context.getObjectIdentifier();
        Map<String, String> options = new HashMap<>(scanDefaults);
        options.putAll(context.getCatalogTable().getOptions());
        for (ConfigOption<?> topicOption : IggyCatalogOptions.TOPIC) {
            options.remove(topicOption.key());
        }
        options.putAll(catalogSupplied);
        options.put(IggyConnectorOptions.STREAM.key(), id.getDatabaseName());
        options.put(IggyConnectorOptions.TOPIC.key(), id.getObjectName());
        return new FactoryUtil.DefaultDynamicTableContext(
                id,
                context.getCatalogTable().copy(options),
                context.getEnrichmentOptions(),
                context.getConfiguration(),
                context.getClassLoader(),
                context.isTemporary());
    }

    /**
     * Fails, naming the problem, when {@code table} cannot become a source and a sink: so that a
     * bad definition is refused by CREATE or ALTER TABLE, not stored to fail every query.
     */
    void validate(ObjectIdentifier id, ResolvedCatalogTable table, ClassLoader classLoader) {
        Context context =
                new FactoryUtil.DefaultDynamicTableContext(
                        id, table, Collections.emptyMap(), new Configuration(), classLoader, false);
        createDynamicTableSource(context);
        createDynamicTableSink(context);
    }
}

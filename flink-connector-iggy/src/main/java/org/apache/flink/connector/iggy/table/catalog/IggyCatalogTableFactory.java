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
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions;
import org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil;
import org.apache.flink.connector.iggy.table.IggyDynamicTableFactory;
import org.apache.flink.connector.iggy.table.UpsertIggyDynamicTableFactory;
import org.apache.flink.connector.iggy.table.catalog.IggyCatalogFactory.TopicCompression;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.util.TimeUtils;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The options of an {@link IggyCatalog}'s tables. {@link #stored} checks those of a table created
 * or altered and decides what the catalog stores: no connection, stream, topic or topic setting
 * ({@link IggyTopicSettings}), the connector and format made explicit. Sources and sinks get the
 * table's options plus the catalog's connection, the stream and topic of the table's path and the
 * catalog's scan defaults, so neither SHOW CREATE TABLE nor a stored definition shows a secret.
 * Immutable.
 */
@Internal
final class IggyCatalogTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {

    /** Table options a table of the catalog may not set: the catalog decides them. */
    private static final List<ConfigOption<?>> CATALOG_DECIDED = catalogDecided();

    private final String catalogName;
    private final IggyCatalogFactory.Settings settings;
    private final ClassLoader classLoader;

    IggyCatalogTableFactory(
            String catalogName, IggyCatalogFactory.Settings settings, ClassLoader classLoader) {
        this.catalogName = catalogName;
        this.settings = settings;
        this.classLoader = classLoader;
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

    /** The table's name as SQL writes it, for messages. */
    static String quoted(String catalogName, ObjectPath path) {
        return ObjectIdentifier.of(catalogName, path.getDatabaseName(), path.getObjectName())
                .asSerializableString();
    }

    /** {@code table} as a resolved table, or an error: the catalog stores no views. */
    ResolvedCatalogTable resolved(ObjectPath path, CatalogBaseTable table) {
        if (!(table instanceof ResolvedCatalogTable resolved)) {
            throw new UnsupportedOperationException(
                    "The Iggy catalog stores tables only, but "
                            + quoted(catalogName, path)
                            + " is a "
                            + table.getTableKind()
                            + ".");
        }
        return resolved;
    }

    /**
     * The options a table stores: those of the DDL without the topic's, with the connector and the
     * format made explicit; validated by creating the table's source and sink, so that a bad
     * definition is refused by CREATE or ALTER TABLE, not stored to fail every query.
     */
    Map<String, String> stored(ObjectPath path, ResolvedCatalogTable table) {
        String name = quoted(catalogName, path);
        if (table.isPartitioned()) {
            throw new ValidationException(
                    "Table "
                            + name
                            + " cannot be PARTITIONED BY: an Iggy topic's partitions are set with"
                            + " the option '"
                            + IggyCatalogFactory.PARTITIONS.key()
                            + "' and chosen by 'sink.partitioner'.");
        }
        Map<String, String> options = new HashMap<>(table.getOptions());
        for (ConfigOption<?> option : CATALOG_DECIDED) {
            if (options.containsKey(option.key())) {
                throw new ValidationException(
                        "Table "
                                + name
                                + " must not set '"
                                + option.key()
                                + "': every table of catalog '"
                                + catalogName
                                + "' uses the catalog's connection, its database as the stream"
                                + " and its name as the topic.");
            }
        }
        for (ConfigOption<?> option : IggyCatalogFactory.TOPIC) {
            options.remove(option.key());
        }
        options.putIfAbsent(
                FactoryUtil.CONNECTOR.key(),
                table.getResolvedSchema().getPrimaryKey().isPresent()
                        ? UpsertIggyDynamicTableFactory.IDENTIFIER
                        : IggyDynamicTableFactory.IDENTIFIER);
        connector(options);
        if (!options.containsKey(FactoryUtil.FORMAT.key())
                && !options.containsKey(IggyConnectorOptions.VALUE_FORMAT.key())) {
            if (settings.defaultFormat() == null) {
                throw new ValidationException(
                        "Table "
                                + name
                                + " needs a value format: set 'format' (or 'value.format'), or"
                                + " the catalog option '"
                                + IggyCatalogFactory.DEFAULT_FORMAT.key()
                                + "'.");
            }
            options.put(FactoryUtil.FORMAT.key(), settings.defaultFormat());
        }
        Context context =
                new FactoryUtil.DefaultDynamicTableContext(
                        ObjectIdentifier.of(
                                catalogName, path.getDatabaseName(), path.getObjectName()),
                        table.copy(options),
                        Collections.emptyMap(),
                        new Configuration(),
                        classLoader,
                        false);
        createDynamicTableSource(context);
        createDynamicTableSink(context);
        return options;
    }

    /** The connector a table of the catalog uses: {@code iggy} or {@code upsert-iggy}. */
    private static String connector(Map<String, String> options) {
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
        Map<String, String> options = new HashMap<>(settings.scanDefaults());
        options.putAll(context.getCatalogTable().getOptions());
        for (ConfigOption<?> topicOption : IggyCatalogFactory.TOPIC) {
            options.remove(topicOption.key());
        }
        options.putAll(settings.connectionOptions());
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

    private static List<ConfigOption<?>> catalogDecided() {
        List<ConfigOption<?>> options =
                new ArrayList<>(IggyConnectorOptionsUtil.CONNECTION_OPTIONS);
        options.add(IggyConnectorOptions.STREAM);
        options.add(IggyConnectorOptions.STREAM_PATTERN);
        options.add(IggyConnectorOptions.TOPIC);
        options.add(IggyConnectorOptions.TOPIC_PATTERN);
        return options;
    }

    /**
     * The topic options of a table ({@code partitions}, {@code compression}, {@code
     * message-expiry}) as a DDL sets them, each {@code null} when unset. They live in Iggy, never
     * in a stored definition.
     */
    record IggyTopicSettings(
            @Nullable Integer partitions,
            @Nullable TopicCompression compression,
            @Nullable Duration expiry) {

        static IggyTopicSettings of(ObjectPath path, Map<String, String> tableOptions) {
            Configuration options = Configuration.fromMap(tableOptions);
            try {
                IggyTopicSettings settings =
                        new IggyTopicSettings(
                                options.get(IggyCatalogFactory.PARTITIONS),
                                options.get(IggyCatalogFactory.COMPRESSION),
                                options.get(IggyCatalogFactory.MESSAGE_EXPIRY));
                if (settings.partitions != null && settings.partitions < 1) {
                    throw new IllegalArgumentException(
                            "'" + IggyCatalogFactory.PARTITIONS.key() + "' must be at least 1");
                }
                if (settings.expiry != null && settings.expiry.isNegative()) {
                    throw new IllegalArgumentException(
                            "'" + IggyCatalogFactory.MESSAGE_EXPIRY.key() + "' is negative");
                }
                return settings;
            } catch (IllegalArgumentException e) {
                throw new ValidationException(
                        "Invalid topic option of table "
                                + path.getFullName()
                                + ": "
                                + e.getMessage(),
                        e);
            }
        }

        /** Creates the topic with these settings; false when it existed already. */
        boolean createTopic(
                IggyServerClient server, String stream, String topic, int defaultPartitions) {
            return server.createTopic(
                    IggyId.of(stream),
                    topic,
                    partitions != null ? partitions : defaultPartitions,
                    compression == TopicCompression.GZIP,
                    expiryMicros(BigInteger.ZERO));
        }

        /**
         * Applies what an ALTER TABLE of {@code table} changes: compression, expiry, partitions.
         */
        void alterTopic(
                IggyServerClient server, String stream, TopicDescription topic, String table) {
            int count = partitions != null ? partitions : topic.partitionsCount();
            if (count < topic.partitionsCount()) {
                throw new ValidationException(
                        "Table "
                                + table
                                + " has "
                                + topic.partitionsCount()
                                + " partitions; ALTER TABLE can add partitions but not remove them"
                                + " (their messages would be lost).");
            }
            boolean gzip =
                    compression == null ? topic.gzip() : compression == TopicCompression.GZIP;
            BigInteger expiryMicros = expiryMicros(topic.messageExpiryMicros());
            if (gzip != topic.gzip() || !expiryMicros.equals(topic.messageExpiryMicros())) {
                server.updateTopic(IggyId.of(stream), topic, gzip, expiryMicros);
            }
            if (count > topic.partitionsCount()) {
                server.addPartitions(IggyId.of(stream), topic, count - topic.partitionsCount());
            }
        }

        private BigInteger expiryMicros(BigInteger otherwise) {
            if (expiry == null) {
                return otherwise;
            }
            return BigInteger.valueOf(expiry.getSeconds())
                    .multiply(BigInteger.valueOf(1_000_000))
                    .add(BigInteger.valueOf(expiry.getNano() / 1000));
        }

        /** What Iggy itself knows of a topic, as table options. */
        static Map<String, String> asOptions(TopicDescription topic) {
            Map<String, String> options = new HashMap<>();
            options.put(
                    IggyCatalogFactory.PARTITIONS.key(), Integer.toString(topic.partitionsCount()));
            options.put(IggyCatalogFactory.COMPRESSION.key(), topic.gzip() ? "gzip" : "none");
            BigInteger expiry = topic.messageExpiryMicros();
            if (expiry != null
                    && expiry.signum() > 0
                    && expiry.compareTo(TopicDescription.NEVER_EXPIRE) < 0) {
                options.put(
                        IggyCatalogFactory.MESSAGE_EXPIRY.key(),
                        TimeUtils.formatWithHighestUnit(
                                Duration.of(expiry.longValueExact(), ChronoUnit.MICROS)));
            }
            return options;
        }
    }
}

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
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyErrorCode;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions;
import org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil;
import org.apache.flink.connector.iggy.table.IggyDynamicTableFactory;
import org.apache.flink.connector.iggy.table.UpsertIggyDynamicTableFactory;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.factories.FactoryUtil;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.stream.StreamBase;
import org.apache.iggy.stream.StreamDetails;
import org.apache.iggy.topic.CompressionAlgorithm;
import org.apache.iggy.topic.Topic;
import org.apache.iggy.topic.TopicDetails;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * A Flink catalog over one Iggy server: its streams are the databases and their topics the tables.
 * A topic that Flink did not define reads as its payload and metadata columns; a table created or
 * altered through the catalog keeps its schema and options in {@link IggyTableDefinitions}. Every
 * table uses the catalog's connection; its sources and sinks come from {@link #getFactory()}.
 *
 * <p>All I/O happens here, at planning time, through one client opened by {@link #open()}.
 */
@Internal
public final class IggyCatalog implements Catalog {

    private static final Logger LOG = LoggerFactory.getLogger(IggyCatalog.class);

    /** Table options a table of the catalog may not set: the catalog decides them. */
    private static final List<ConfigOption<?>> CATALOG_DECIDED = catalogDecided();

    private final String name;
    @Nullable private final String defaultDatabase;
    private final IggyConnectionConfig connection;
    private final IggyCatalogTableFactory tableFactory;
    @Nullable private final String defaultFormat;
    private final int defaultPartitions;
    private final boolean allowDrops;
    private final ClassLoader classLoader;

    @Nullable private AsyncIggyTcpClient client;
    @Nullable private IggyTableDefinitions definitions;

    /**
     * @param options the validated catalog options ({@link IggyCatalogOptions})
     * @param flinkConfiguration the session's, for credentials the options leave out
     * @param classLoader where the formats of the tables are found
     */
    IggyCatalog(
            String name,
            Configuration options,
            ReadableConfig flinkConfiguration,
            ClassLoader classLoader) {
        this.name = name;
        this.defaultDatabase = options.get(IggyCatalogOptions.DEFAULT_DATABASE);
        this.connection = IggyConnectorOptionsUtil.connectionConfig(options, flinkConfiguration);
        Map<String, String> all = options.toMap();
        Map<String, String> connectionOptions = new HashMap<>();
        for (ConfigOption<?> option : IggyCatalogOptions.CONNECTION) {
            if (all.containsKey(option.key())) {
                connectionOptions.put(option.key(), all.get(option.key()));
            }
        }
        this.defaultFormat = options.get(IggyCatalogOptions.DEFAULT_FORMAT);
        this.defaultPartitions = options.get(IggyCatalogOptions.DEFAULT_PARTITIONS);
        if (defaultPartitions < 1) {
            throw new ValidationException(
                    "Option '"
                            + IggyCatalogOptions.DEFAULT_PARTITIONS.key()
                            + "' must be at least 1, but is "
                            + defaultPartitions);
        }
        this.tableFactory = new IggyCatalogTableFactory(connectionOptions, scanDefaults(options));
        this.allowDrops = options.get(IggyCatalogOptions.ALLOW_DROPS);
        this.classLoader = classLoader;
    }

    // ----- lifecycle --------------------------------------------------------------------------

    @Override
    public void open() throws CatalogException {
        if (client != null) {
            return;
        }
        try {
            client = IggyClients.connect(connection);
        } catch (RuntimeException e) {
            throw new CatalogException("Catalog '" + name + "' cannot open: " + e.getMessage(), e);
        }
        definitions = new IggyTableDefinitions(client, connection);
        LOG.info("Catalog '{}' connected to Iggy at {}", name, connection.address());
    }

    @Override
    public void close() throws CatalogException {
        // Waits for the client's Netty threads: the SQL client releases the session's class loader
        // right after, and threads still closing there fail to load classes and keep it running.
        IggyClients.closeAndWait(client);
        client = null;
        definitions = null;
    }

    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(tableFactory);
    }

    @Override
    @Nullable
    public String getDefaultDatabase() {
        return defaultDatabase;
    }

    // ----- databases: streams -----------------------------------------------------------------

    @Override
    public List<String> listDatabases() throws CatalogException {
        return await(client().streams().getStreams(), "list the streams").stream()
                .map(StreamBase::name)
                .sorted()
                .collect(Collectors.toList());
    }

    @Override
    public CatalogDatabase getDatabase(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        stream(databaseName).orElseThrow(() -> new DatabaseNotExistException(name, databaseName));
        return new CatalogDatabaseImpl(Collections.emptyMap(), null);
    }

    @Override
    public boolean databaseExists(String databaseName) throws CatalogException {
        return stream(databaseName).isPresent();
    }

    @Override
    public void createDatabase(
            String databaseName, CatalogDatabase database, boolean ignoreIfExists)
            throws DatabaseAlreadyExistException, CatalogException {
        if (!database.getProperties().isEmpty()
                || (database.getComment() != null && !database.getComment().isEmpty())) {
            throw new CatalogException(
                    "Database "
                            + databaseName
                            + " cannot have a comment or properties: it is an Iggy stream, which"
                            + " has neither. Create it without them.");
        }
        if (databaseExists(databaseName)) {
            if (ignoreIfExists) {
                return;
            }
            throw new DatabaseAlreadyExistException(name, databaseName);
        }
        try {
            await(
                    client().streams().createStream(databaseName),
                    "create the stream '" + databaseName + "'");
        } catch (CatalogException e) {
            if (!IggyErrorCode.STREAM_NAME_ALREADY_EXISTS.isCauseOf(e)) {
                throw e;
            }
            if (!ignoreIfExists) {
                throw new DatabaseAlreadyExistException(name, databaseName, e);
            }
        }
    }

    @Override
    public void dropDatabase(String databaseName, boolean ignoreIfNotExists, boolean cascade)
            throws DatabaseNotExistException, DatabaseNotEmptyException, CatalogException {
        Optional<StreamDetails> stream = stream(databaseName);
        if (stream.isEmpty()) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new DatabaseNotExistException(name, databaseName);
        }
        List<String> tables = tableNames(stream.get());
        if (!tables.isEmpty() && !cascade) {
            throw new DatabaseNotEmptyException(name, databaseName);
        }
        if (!allowDrops) {
            throw new CatalogException(
                    "DROP DATABASE "
                            + databaseName
                            + " would delete the Iggy stream '"
                            + databaseName
                            + "' with its "
                            + tables.size()
                            + " topic(s) and their messages, but catalog '"
                            + name
                            + "' does not allow drops, so nothing was deleted. Set '"
                            + IggyCatalogOptions.ALLOW_DROPS.key()
                            + "' = 'true' in CREATE CATALOG to allow it.");
        }
        await(
                client().streams().deleteStream(StreamId.of(databaseName)),
                "delete the stream '" + databaseName + "'");
        definitions().forget(databaseName);
        LOG.info("Catalog '{}' deleted the Iggy stream '{}'", name, databaseName);
    }

    @Override
    public void alterDatabase(String databaseName, CatalogDatabase newDatabase, boolean ignore)
            throws DatabaseNotExistException, CatalogException {
        throw new UnsupportedOperationException(
                "ALTER DATABASE is not supported: an Iggy stream has no properties or comment.");
    }

    // ----- tables: topics ---------------------------------------------------------------------

    @Override
    public List<String> listTables(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        return tableNames(
                stream(databaseName)
                        .orElseThrow(() -> new DatabaseNotExistException(name, databaseName)));
    }

    @Override
    public List<String> listViews(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        if (!databaseExists(databaseName)) {
            throw new DatabaseNotExistException(name, databaseName);
        }
        return Collections.emptyList();
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath tablePath)
            throws TableNotExistException, CatalogException {
        TopicDetails topic =
                topic(tablePath).orElseThrow(() -> new TableNotExistException(name, tablePath));
        Optional<byte[]> stored =
                definitions().read(tablePath.getDatabaseName(), tablePath.getObjectName());
        CatalogTable table =
                stored.isPresent()
                        ? IggyTableDefinition.deserialize(stored.get(), quoted(tablePath))
                        : topicTable();
        Map<String, String> options = new HashMap<>(table.getOptions());
        options.putAll(IggyTopicSettings.asOptions(topic));
        return table.copy(options);
    }

    @Override
    public boolean tableExists(ObjectPath tablePath) throws CatalogException {
        return topic(tablePath).isPresent();
    }

    @Override
    public void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException, CatalogException {
        ResolvedCatalogTable resolved = resolvedTable(tablePath, table);
        String stream = tablePath.getDatabaseName();
        String topicName = tablePath.getObjectName();
        if (!databaseExists(stream)) {
            throw new DatabaseNotExistException(name, stream);
        }
        Map<String, String> options = storedOptions(tablePath, resolved);
        IggyTopicSettings settings = IggyTopicSettings.of(tablePath, resolved.getOptions());
        byte[] definition = IggyTableDefinition.serialize(resolved, options);

        Optional<TopicDetails> existing = topic(tablePath);
        if (existing.isPresent()) {
            if (definitions().read(stream, topicName).isPresent()) {
                if (ignoreIfExists) {
                    return;
                }
                throw new TableAlreadyExistException(name, tablePath);
            }
            // A topic created outside Flink: the definition gives it a schema.
            if (!settings.isEmpty()) {
                throw new ValidationException(
                        "Topic '"
                                + topicName
                                + "' of stream '"
                                + stream
                                + "' exists already, so CREATE TABLE only stores its definition"
                                + " and cannot apply "
                                + settings.keys()
                                + ". Leave them out, or change the topic with ALTER TABLE.");
            }
        } else {
            try {
                await(
                        client().topics()
                                .createTopic(
                                        StreamId.of(stream),
                                        (long) settings.partitions(defaultPartitions),
                                        settings.compression(CompressionAlgorithm.None),
                                        settings.expiryMicros(BigInteger.ZERO),
                                        BigInteger.ZERO,
                                        Optional.empty(),
                                        topicName),
                        "create the topic '" + topicName + "' in stream '" + stream + "'");
            } catch (CatalogException e) {
                if (!IggyErrorCode.TOPIC_NAME_ALREADY_EXISTS.isCauseOf(e)) {
                    throw e;
                }
                // Another session created it first; its definition is the table's.
                if (ignoreIfExists) {
                    return;
                }
                throw new TableAlreadyExistException(name, tablePath, e);
            }
        }
        definitions().write(stream, topicName, definition);
    }

    @Override
    public void alterTable(ObjectPath tablePath, CatalogBaseTable newTable, boolean ignore)
            throws TableNotExistException, CatalogException {
        Optional<TopicDetails> topic = topic(tablePath);
        if (topic.isEmpty()) {
            if (ignore) {
                return;
            }
            throw new TableNotExistException(name, tablePath);
        }
        ResolvedCatalogTable resolved = resolvedTable(tablePath, newTable);
        Map<String, String> options = storedOptions(tablePath, resolved);
        IggyTopicSettings settings = IggyTopicSettings.of(tablePath, resolved.getOptions());
        byte[] definition = IggyTableDefinition.serialize(resolved, options);
        alterTopic(tablePath, topic.get(), settings);
        definitions().write(tablePath.getDatabaseName(), tablePath.getObjectName(), definition);
    }

    @Override
    public void dropTable(ObjectPath tablePath, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        String stream = tablePath.getDatabaseName();
        String topicName = tablePath.getObjectName();
        Optional<TopicDetails> topic = topic(tablePath);
        if (topic.isEmpty()) {
            if (databaseExists(stream)) {
                definitions().remove(stream, topicName); // of a topic deleted outside Flink
            }
            if (ignoreIfNotExists) {
                return;
            }
            throw new TableNotExistException(name, tablePath);
        }
        if (!allowDrops && definitions().read(stream, topicName).isEmpty()) {
            throw new CatalogException(
                    "DROP TABLE "
                            + quoted(tablePath)
                            + " would delete the Iggy topic '"
                            + topicName
                            + "' and its messages (Flink stores no definition of it), but catalog '"
                            + name
                            + "' does not allow drops, so nothing was deleted. Set '"
                            + IggyCatalogOptions.ALLOW_DROPS.key()
                            + "' = 'true' in CREATE CATALOG to allow it.");
        }
        definitions().remove(stream, topicName);
        if (allowDrops) {
            await(
                    client().topics().deleteTopic(StreamId.of(stream), TopicId.of(topicName)),
                    "delete the topic '" + topicName + "' of stream '" + stream + "'");
            LOG.info("Catalog '{}' deleted the Iggy topic '{}' of '{}'", name, topicName, stream);
        } else {
            LOG.info(
                    "Catalog '{}' forgot the definition of {}; its topic stays (drops are off)",
                    name,
                    quoted(tablePath));
        }
    }

    @Override
    public void renameTable(ObjectPath tablePath, String newTableName, boolean ignoreIfNotExists)
            throws TableNotExistException, TableAlreadyExistException, CatalogException {
        throw new UnsupportedOperationException(
                "ALTER TABLE RENAME is not supported by the Iggy catalog: the table name is the"
                        + " topic name.");
    }

    // ----- not supported: partitions, functions, statistics ------------------------------------

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath tablePath)
            throws TableNotExistException, TableNotPartitionedException, CatalogException {
        throw notPartitioned(tablePath);
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws TableNotExistException, TableNotPartitionedException, CatalogException {
        throw notPartitioned(tablePath);
    }

    @Override
    public List<CatalogPartitionSpec> listPartitionsByFilter(
            ObjectPath tablePath, List<Expression> filters)
            throws TableNotExistException, TableNotPartitionedException, CatalogException {
        throw notPartitioned(tablePath);
    }

    @Override
    public CatalogPartition getPartition(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws PartitionNotExistException, CatalogException {
        throw new PartitionNotExistException(name, tablePath, partitionSpec);
    }

    @Override
    public boolean partitionExists(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws CatalogException {
        return false;
    }

    @Override
    public void createPartition(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogPartition partition,
            boolean ignoreIfExists)
            throws TableNotExistException, TableNotPartitionedException, CatalogException {
        throw notPartitioned(tablePath);
    }

    @Override
    public void dropPartition(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec, boolean ignoreIfNotExists)
            throws PartitionNotExistException, CatalogException {
        if (!ignoreIfNotExists) {
            throw new PartitionNotExistException(name, tablePath, partitionSpec);
        }
    }

    @Override
    public void alterPartition(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogPartition newPartition,
            boolean ignoreIfNotExists)
            throws PartitionNotExistException, CatalogException {
        if (!ignoreIfNotExists) {
            throw new PartitionNotExistException(name, tablePath, partitionSpec);
        }
    }

    @Override
    public List<String> listFunctions(String dbName)
            throws DatabaseNotExistException, CatalogException {
        if (!databaseExists(dbName)) {
            throw new DatabaseNotExistException(name, dbName);
        }
        return Collections.emptyList();
    }

    @Override
    public CatalogFunction getFunction(ObjectPath functionPath)
            throws FunctionNotExistException, CatalogException {
        throw new FunctionNotExistException(name, functionPath);
    }

    @Override
    public boolean functionExists(ObjectPath functionPath) throws CatalogException {
        return false;
    }

    @Override
    public void createFunction(
            ObjectPath functionPath, CatalogFunction function, boolean ignoreIfExists)
            throws CatalogException {
        throw new UnsupportedOperationException(
                "The Iggy catalog stores no functions: create a temporary function instead.");
    }

    @Override
    public void alterFunction(
            ObjectPath functionPath, CatalogFunction newFunction, boolean ignoreIfNotExists)
            throws FunctionNotExistException, CatalogException {
        throw new UnsupportedOperationException("The Iggy catalog stores no functions.");
    }

    @Override
    public void dropFunction(ObjectPath functionPath, boolean ignoreIfNotExists)
            throws FunctionNotExistException, CatalogException {
        if (!ignoreIfNotExists) {
            throw new FunctionNotExistException(name, functionPath);
        }
    }

    @Override
    public CatalogTableStatistics getTableStatistics(ObjectPath tablePath)
            throws TableNotExistException, CatalogException {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getTableColumnStatistics(ObjectPath tablePath)
            throws TableNotExistException, CatalogException {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public CatalogTableStatistics getPartitionStatistics(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws PartitionNotExistException, CatalogException {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getPartitionColumnStatistics(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws PartitionNotExistException, CatalogException {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public void alterTableStatistics(
            ObjectPath tablePath, CatalogTableStatistics tableStatistics, boolean ignore)
            throws CatalogException {
        throw new UnsupportedOperationException("The Iggy catalog stores no statistics.");
    }

    @Override
    public void alterTableColumnStatistics(
            ObjectPath tablePath, CatalogColumnStatistics columnStatistics, boolean ignore)
            throws CatalogException {
        throw new UnsupportedOperationException("The Iggy catalog stores no statistics.");
    }

    @Override
    public void alterPartitionStatistics(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogTableStatistics partitionStatistics,
            boolean ignoreIfNotExists)
            throws CatalogException {
        throw new UnsupportedOperationException("The Iggy catalog stores no statistics.");
    }

    @Override
    public void alterPartitionColumnStatistics(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogColumnStatistics columnStatistics,
            boolean ignoreIfNotExists)
            throws CatalogException {
        throw new UnsupportedOperationException("The Iggy catalog stores no statistics.");
    }

    // ----- helpers ----------------------------------------------------------------------------

    /** Waits for an SDK request; a failure is a {@link CatalogException} naming what failed. */
    static <T> T await(CompletableFuture<T> request, IggyConnectionConfig connection, String what) {
        try {
            return IggyClients.await(request, connection.requestTimeout(), what);
        } catch (RuntimeException e) {
            throw new CatalogException(
                    "Cannot " + what + " at Iggy " + connection.address() + ": " + e.getMessage(),
                    e);
        }
    }

    private <T> T await(CompletableFuture<T> request, String what) {
        return await(request, connection, what);
    }

    private AsyncIggyTcpClient client() {
        if (client == null) {
            throw new CatalogException("Catalog '" + name + "' is not open (or was closed).");
        }
        return client;
    }

    private IggyTableDefinitions definitions() {
        client();
        return definitions;
    }

    private Optional<StreamDetails> stream(String stream) {
        return await(
                client().streams().getStream(StreamId.of(stream)),
                "read the stream '" + stream + "'");
    }

    /** The topic a table path names; empty also for the hidden definitions topic. */
    private Optional<TopicDetails> topic(ObjectPath path) {
        if (IggyTableDefinitions.TOPIC.equals(path.getObjectName())) {
            return Optional.empty();
        }
        return await(
                client().topics()
                        .getTopic(
                                StreamId.of(path.getDatabaseName()),
                                TopicId.of(path.getObjectName())),
                "read the topic '"
                        + path.getObjectName()
                        + "' of stream '"
                        + path.getDatabaseName()
                        + "'");
    }

    private static List<String> tableNames(StreamDetails stream) {
        return stream.topics().stream()
                .map(Topic::name)
                .filter(topic -> !IggyTableDefinitions.TOPIC.equals(topic))
                .sorted()
                .collect(Collectors.toList());
    }

    private String quoted(ObjectPath path) {
        return ObjectIdentifier.of(name, path.getDatabaseName(), path.getObjectName())
                .asSerializableString();
    }

    /** The table of a topic Flink did not define: its payload and metadata columns. */
    private CatalogTable topicTable() {
        boolean text = "raw".equals(defaultFormat);
        Schema schema =
                Schema.newBuilder()
                        .column("payload", text ? DataTypes.STRING() : DataTypes.BYTES())
                        .columnByMetadata("partition", DataTypes.INT().notNull(), true)
                        .columnByMetadata("offset", DataTypes.BIGINT().notNull(), true)
                        .columnByMetadata(
                                "timestamp",
                                DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6).notNull(),
                                true)
                        .columnByMetadata(
                                "origin_timestamp",
                                DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6),
                                "origin-timestamp",
                                true)
                        .columnByMetadata(
                                "message_id", DataTypes.BINARY(16).notNull(), "message-id", true)
                        .columnByMetadata("checksum", DataTypes.BIGINT().notNull(), true)
                        .columnByMetadata(
                                "headers",
                                DataTypes.MAP(DataTypes.STRING(), DataTypes.BYTES()).notNull(),
                                true)
                        .build();
        Map<String, String> options = new HashMap<>();
        options.put(FactoryUtil.CONNECTOR.key(), IggyDynamicTableFactory.IDENTIFIER);
        options.put(FactoryUtil.FORMAT.key(), "raw");
        return CatalogTable.newBuilder()
                .schema(schema)
                .comment("An Iggy topic without a Flink definition: its payload and metadata.")
                .options(options)
                .build();
    }

    private void alterTopic(ObjectPath path, TopicDetails topic, IggyTopicSettings settings) {
        StreamId stream = StreamId.of(path.getDatabaseName());
        TopicId topicId = TopicId.of(path.getObjectName());
        long partitions = settings.partitions(topic.partitionsCount().intValue());
        if (partitions < topic.partitionsCount()) {
            throw new ValidationException(
                    "Table "
                            + quoted(path)
                            + " has "
                            + topic.partitionsCount()
                            + " partitions; ALTER TABLE can add partitions but not remove them"
                            + " (their messages would be lost).");
        }
        CompressionAlgorithm compression = settings.compression(topic.compressionAlgorithm());
        BigInteger expiry = settings.expiryMicros(topic.messageExpiry());
        if (compression != topic.compressionAlgorithm() || !expiry.equals(topic.messageExpiry())) {
            await(
                    client().topics()
                            .updateTopic(
                                    stream,
                                    topicId,
                                    compression,
                                    expiry,
                                    topic.maxTopicSize(),
                                    Optional.ofNullable(topic.replicationFactor()),
                                    topic.name()),
                    "update the topic '" + topic.name() + "'");
        }
        if (partitions > topic.partitionsCount()) {
            await(
                    client().partitions()
                            .createPartitions(
                                    stream, topicId, partitions - topic.partitionsCount()),
                    "add partitions to the topic '" + topic.name() + "'");
        }
    }

    private ResolvedCatalogTable resolvedTable(ObjectPath path, CatalogBaseTable table) {
        if (!(table instanceof ResolvedCatalogTable)) {
            throw new UnsupportedOperationException(
                    "The Iggy catalog stores tables only, but "
                            + quoted(path)
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
    private Map<String, String> storedOptions(ObjectPath path, ResolvedCatalogTable table) {
        if (table.isPartitioned()) {
            throw new ValidationException(
                    "Table "
                            + quoted(path)
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
                                + quoted(path)
                                + " must not set '"
                                + option.key()
                                + "': every table of catalog '"
                                + name
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
                                + quoted(path)
                                + " needs a value format: set 'format' (or 'value.format'), or"
                                + " the catalog option '"
                                + IggyCatalogOptions.DEFAULT_FORMAT.key()
                                + "'.");
            }
            options.put(FactoryUtil.FORMAT.key(), defaultFormat);
        }
        tableFactory.validate(
                ObjectIdentifier.of(name, path.getDatabaseName(), path.getObjectName()),
                table.copy(options),
                classLoader);
        return options;
    }

    private TableNotPartitionedException notPartitioned(ObjectPath tablePath)
            throws TableNotExistException {
        if (!tableExists(tablePath)) {
            throw new TableNotExistException(name, tablePath);
        }
        return new TableNotPartitionedException(name, tablePath);
    }

    private static Map<String, String> scanDefaults(Configuration options) {
        Map<String, String> defaults = new HashMap<>();
        options.getOptional(IggyCatalogOptions.DEFAULT_SCAN_STARTUP_MODE)
                .ifPresent(
                        mode -> {
                            if (mode == IggyConnectorOptions.ScanStartupMode.TIMESTAMP
                                    || mode
                                            == IggyConnectorOptions.ScanStartupMode
                                                    .SPECIFIC_OFFSETS) {
                                throw new ValidationException(
                                        "Option '"
                                                + IggyCatalogOptions.DEFAULT_SCAN_STARTUP_MODE.key()
                                                + "' must be 'earliest-offset', 'latest-offset' or"
                                                + " 'committed-offset', but is '"
                                                + mode
                                                + "': set positions per table.");
                            }
                            defaults.put(
                                    IggyConnectorOptions.SCAN_STARTUP_MODE.key(), mode.toString());
                        });
        options.getOptional(IggyCatalogOptions.DEFAULT_SCAN_BOUNDED_MODE)
                .ifPresent(
                        mode -> {
                            if (mode != IggyConnectorOptions.ScanBoundedMode.UNBOUNDED
                                    && mode != IggyConnectorOptions.ScanBoundedMode.LATEST_OFFSET) {
                                throw new ValidationException(
                                        "Option '"
                                                + IggyCatalogOptions.DEFAULT_SCAN_BOUNDED_MODE.key()
                                                + "' must be 'unbounded' or 'latest-offset', but"
                                                + " is '"
                                                + mode
                                                + "': set positions per table.");
                            }
                            defaults.put(
                                    IggyConnectorOptions.SCAN_BOUNDED_MODE.key(), mode.toString());
                        });
        return defaults;
    }

    private static List<ConfigOption<?>> catalogDecided() {
        List<ConfigOption<?>> options = new ArrayList<>(IggyCatalogOptions.CONNECTION);
        options.add(IggyConnectorOptions.STREAM);
        options.add(IggyConnectorOptions.TOPIC);
        return options;
    }
}

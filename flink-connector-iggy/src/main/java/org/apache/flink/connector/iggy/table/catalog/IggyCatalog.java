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
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamSummary;
import org.apache.flink.connector.iggy.common.client.TopicDescription.TopicSummary;
import org.apache.flink.connector.iggy.table.catalog.IggyCatalogTableFactory.IggyTopicSettings;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.factories.Factory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Flink catalog over one Iggy server: its streams are the databases, their topics the tables. A
 * topic Flink did not define reads as its payload and metadata columns; a table created or altered
 * here keeps its definition in {@link IggyTableDefinitions}, created, altered and dropped with its
 * topic. Used by the planner's thread; all I/O happens at planning time, through the client {@link
 * #open()} connects. What Iggy has no counterpart for is in {@link TablesOnlyCatalog}.
 */
@Internal
public final class IggyCatalog extends TablesOnlyCatalog {

    private static final Logger LOG = LoggerFactory.getLogger(IggyCatalog.class);

    private final IggyCatalogFactory.Settings settings;
    private final IggyCatalogTableFactory tableFactory;

    @Nullable private IggyServerClient server;
    @Nullable private IggyTableDefinitions definitions;

    /**
     * @param settings the catalog's options, checked by {@link IggyCatalogFactory}
     * @param classLoader where the formats of the tables are found
     */
    IggyCatalog(String name, IggyCatalogFactory.Settings settings, ClassLoader classLoader) {
        super(name, settings.defaultDatabase());
        this.settings = settings;
        this.tableFactory = new IggyCatalogTableFactory(name, settings, classLoader);
    }

    // ----- lifecycle --------------------------------------------------------------------------

    @Override
    public void open() {
        if (server != null) {
            return;
        }
        try {
            server =
                    IggyServerClient.connect(
                            settings.connection(),
                            (what, e) ->
                                    new CatalogException(
                                            "Cannot " + what + ": " + e.getMessage(), e));
        } catch (RuntimeException e) {
            throw new CatalogException(
                    "Catalog '" + catalogName + "' cannot open: " + e.getMessage(), e);
        }
        definitions = new IggyTableDefinitions(server);
        LOG.info(
                "Catalog '{}' connected to Iggy at {}",
                catalogName,
                settings.connection().address());
    }

    @Override
    public void close() {
        if (server != null) {
            // Waits for the client's threads: the SQL client releases the session's class loader
            // right after, and threads still closing there fail to load classes.
            server.close();
        }
        server = null;
        definitions = null;
    }

    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(tableFactory);
    }

    @Override
    @Nullable
    public String getDefaultDatabase() {
        return settings.defaultDatabase();
    }

    // ----- databases: streams -----------------------------------------------------------------

    @Override
    public List<String> listDatabases() {
        return server().streamNames().stream().sorted().toList();
    }

    @Override
    public CatalogDatabase getDatabase(String databaseName) throws DatabaseNotExistException {
        server().stream(IggyId.of(databaseName)).orElseThrow(() -> missingDatabase(databaseName));
        return new CatalogDatabaseImpl(Collections.emptyMap(), null);
    }

    @Override
    public boolean databaseExists(String databaseName) {
        return server().stream(IggyId.of(databaseName)).isPresent();
    }

    @Override
    public void createDatabase(
            String databaseName, CatalogDatabase database, boolean ignoreIfExists)
            throws DatabaseAlreadyExistException {
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
            throw new DatabaseAlreadyExistException(catalogName, databaseName);
        }
        if (!server().createStream(databaseName) && !ignoreIfExists) {
            throw new DatabaseAlreadyExistException(catalogName, databaseName);
        }
    }

    @Override
    public void dropDatabase(String databaseName, boolean ignoreIfNotExists, boolean cascade)
            throws DatabaseNotExistException, DatabaseNotEmptyException {
        Optional<StreamSummary> stream = server().stream(IggyId.of(databaseName));
        if (stream.isEmpty()) {
            if (ignoreIfNotExists) {
                return;
            }
            throw missingDatabase(databaseName);
        }
        List<String> tableNames = names(stream.get());
        if (!tableNames.isEmpty() && !cascade) {
            throw new DatabaseNotEmptyException(catalogName, databaseName);
        }
        if (!settings.allowDrops()) {
            throw dropsNotAllowed(
                    "DROP DATABASE "
                            + databaseName
                            + " would delete the Iggy stream '"
                            + databaseName
                            + "' with its "
                            + tableNames.size()
                            + " topic(s) and their messages");
        }
        server().deleteStream(IggyId.of(databaseName));
        definitions().forget(databaseName);
        LOG.info("Catalog '{}' deleted the Iggy stream '{}'", catalogName, databaseName);
    }

    // ----- tables: topics ---------------------------------------------------------------------

    @Override
    public List<String> listTables(String databaseName) throws DatabaseNotExistException {
        return names(
                server().stream(IggyId.of(databaseName))
                        .orElseThrow(() -> missingDatabase(databaseName)));
    }

    @Override
    public boolean tableExists(ObjectPath tablePath) {
        return topic(tablePath).isPresent();
    }

    /**
     * The table: its stored definition, or the payload and metadata columns of a topic Flink did
     * not define, with the topic's settings as options.
     */
    @Override
    public CatalogBaseTable getTable(ObjectPath tablePath) throws TableNotExistException {
        TopicDescription topic = topic(tablePath).orElseThrow(() -> missingTable(tablePath));
        Optional<byte[]> stored =
                definitions().read(tablePath.getDatabaseName(), tablePath.getObjectName());
        CatalogTable table =
                stored.isPresent()
                        ? IggyTableDefinitions.deserialize(stored.get(), quoted(tablePath))
                        : IggyTableDefinitions.ofUndefinedTopic(settings.defaultFormat());
        Map<String, String> options = new HashMap<>(table.getOptions());
        options.putAll(IggyTopicSettings.asOptions(topic));
        return table.copy(options);
    }

    /**
     * Creates the topic with the table's settings, or gives a topic created outside Flink the
     * table's definition, and stores the definition.
     */
    @Override
    public void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException {
        ResolvedCatalogTable resolved = tableFactory.resolved(tablePath, table);
        String stream = tablePath.getDatabaseName();
        String topicName = tablePath.getObjectName();
        if (server().stream(IggyId.of(stream)).isEmpty()) {
            throw missingDatabase(stream);
        }
        byte[] definition =
                IggyTableDefinitions.serialize(resolved, tableFactory.stored(tablePath, resolved));
        IggyTopicSettings topicSettings = IggyTopicSettings.of(tablePath, resolved.getOptions());
        if (topic(tablePath).isPresent()) {
            if (definitions().read(stream, topicName).isPresent()) {
                if (ignoreIfExists) {
                    return;
                }
                throw new TableAlreadyExistException(catalogName, tablePath);
            }
            // A topic created outside Flink: the definition gives it a schema.
            List<String> topicOptions =
                    IggyCatalogFactory.TOPIC.stream()
                            .map(ConfigOption::key)
                            .filter(resolved.getOptions()::containsKey)
                            .toList();
            if (!topicOptions.isEmpty()) {
                throw new ValidationException(
                        "Topic '"
                                + topicName
                                + "' of stream '"
                                + stream
                                + "' exists already, so CREATE TABLE only stores its definition"
                                + " and cannot apply "
                                + topicOptions
                                + ". Leave them out, or change the topic with ALTER TABLE.");
            }
        } else if (!topicSettings.createTopic(
                server(), stream, topicName, settings.defaultPartitions())) {
            // Another session created it first; its definition is the table's.
            if (ignoreIfExists) {
                return;
            }
            throw new TableAlreadyExistException(catalogName, tablePath);
        }
        definitions().write(stream, topicName, definition);
    }

    /** Applies the table's topic settings to its topic and stores the new definition. */
    @Override
    public void alterTable(ObjectPath tablePath, CatalogBaseTable newTable, boolean ignore)
            throws TableNotExistException {
        Optional<TopicDescription> topic = topic(tablePath);
        if (topic.isEmpty()) {
            if (ignore) {
                return;
            }
            throw missingTable(tablePath);
        }
        ResolvedCatalogTable resolved = tableFactory.resolved(tablePath, newTable);
        byte[] definition =
                IggyTableDefinitions.serialize(resolved, tableFactory.stored(tablePath, resolved));
        IggyTopicSettings.of(tablePath, resolved.getOptions())
                .alterTopic(server(), tablePath.getDatabaseName(), topic.get(), quoted(tablePath));
        definitions().write(tablePath.getDatabaseName(), tablePath.getObjectName(), definition);
    }

    /**
     * Forgets the table's definition and, if the catalog allows drops, deletes its topic; without a
     * definition to forget, only if it does.
     */
    @Override
    public void dropTable(ObjectPath tablePath, boolean ignoreIfNotExists)
            throws TableNotExistException {
        String stream = tablePath.getDatabaseName();
        String topicName = tablePath.getObjectName();
        if (topic(tablePath).isEmpty()) {
            if (server().stream(IggyId.of(stream)).isPresent()) {
                definitions().remove(stream, topicName); // of a topic deleted outside Flink
            }
            if (ignoreIfNotExists) {
                return;
            }
            throw missingTable(tablePath);
        }
        if (!settings.allowDrops() && definitions().read(stream, topicName).isEmpty()) {
            throw dropsNotAllowed(
                    "DROP TABLE "
                            + quoted(tablePath)
                            + " would delete the Iggy topic '"
                            + topicName
                            + "' and its messages (Flink stores no definition of it)");
        }
        definitions().remove(stream, topicName);
        if (settings.allowDrops()) {
            server().deleteTopic(IggyId.of(stream), IggyId.of(topicName));
            LOG.info(
                    "Catalog '{}' deleted the Iggy topic '{}' of '{}'",
                    catalogName,
                    topicName,
                    stream);
        } else {
            LOG.info(
                    "Catalog '{}' forgot the definition of {}; its topic stays (drops are off)",
                    catalogName,
                    quoted(tablePath));
        }
    }

    // ----- helpers ----------------------------------------------------------------------------

    private IggyServerClient server() {
        if (server == null) {
            throw new CatalogException(
                    "Catalog '" + catalogName + "' is not open (or was closed).");
        }
        return server;
    }

    private IggyTableDefinitions definitions() {
        server();
        return definitions;
    }

    /** The tables of a stream: its topics but the definitions topic, sorted. */
    private static List<String> names(StreamSummary stream) {
        return stream.topics().stream()
                .map(TopicSummary::name)
                .filter(topic -> !IggyTableDefinitions.TOPIC.equals(topic))
                .sorted()
                .toList();
    }

    /** The topic a table path names; empty also for the hidden definitions topic. */
    private Optional<TopicDescription> topic(ObjectPath path) {
        if (IggyTableDefinitions.TOPIC.equals(path.getObjectName())) {
            return Optional.empty();
        }
        return server().topic(IggyId.of(path.getDatabaseName()), IggyId.of(path.getObjectName()));
    }

    /**
     * Flink's exception for a stream that does not exist, caused by the connector's message naming
     * the closest existing streams (the SQL client prints the cause).
     */
    private DatabaseNotExistException missingDatabase(String stream) {
        return new DatabaseNotExistException(
                catalogName,
                stream,
                new CatalogException(server().missingStream(IggyId.of(stream))));
    }

    /**
     * As {@link #missingDatabase}, naming the closest tables, or streams if the stream is missing.
     */
    private TableNotExistException missingTable(ObjectPath path) {
        if (IggyTableDefinitions.TOPIC.equals(path.getObjectName())) {
            return new TableNotExistException(catalogName, path);
        }
        IggyId stream = IggyId.of(path.getDatabaseName());
        String why =
                server().stream(stream)
                        .map(
                                s ->
                                        server().missingTopic(
                                                        stream,
                                                        IggyId.of(path.getObjectName()),
                                                        names(s)))
                        .orElseGet(() -> server().missingStream(stream));
        return new TableNotExistException(catalogName, path, new CatalogException(why));
    }

    private CatalogException dropsNotAllowed(String what) {
        return new CatalogException(
                what
                        + ", but catalog '"
                        + catalogName
                        + "' does not allow drops, so nothing was deleted. Set '"
                        + IggyCatalogFactory.ALLOW_DROPS.key()
                        + "' = 'true' in CREATE CATALOG to allow it.");
    }

    private String quoted(ObjectPath path) {
        return IggyCatalogTableFactory.quoted(catalogName, path);
    }
}

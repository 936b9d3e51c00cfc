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
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
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

import org.apache.iggy.stream.StreamDetails;
import org.apache.iggy.topic.Topic;
import org.apache.iggy.topic.TopicDetails;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A Flink catalog over one Iggy server: its streams are the databases and their topics the tables.
 * A topic that Flink did not define reads as its payload and metadata columns; a table created or
 * altered through the catalog keeps its schema and options in {@link IggyTableDefinitions}. Every
 * table uses the catalog's connection; its sources and sinks come from {@link #getFactory()}.
 *
 * <p>All I/O happens at planning time, through the {@link IggyTopicAdmin} opened by {@link
 * #open()}; the options were checked by {@link IggyCatalogFactory}, a table's by {@link
 * IggyCatalogTableOptions}. What Iggy has no counterpart for is in {@link TablesOnlyCatalog}.
 */
@Internal
public final class IggyCatalog extends TablesOnlyCatalog {

    private static final Logger LOG = LoggerFactory.getLogger(IggyCatalog.class);

    private final IggyCatalogSettings settings;
    private final IggyCatalogTableFactory tableFactory;
    private final IggyCatalogTableOptions tableOptions;

    @Nullable private IggyTopicAdmin admin;
    @Nullable private IggyTableDefinitions definitions;

    /**
     * @param settings the catalog's options, checked by {@link IggyCatalogFactory}
     * @param classLoader where the formats of the tables are found
     */
    IggyCatalog(String name, IggyCatalogSettings settings, ClassLoader classLoader) {
        super(name, settings.defaultDatabase());
        this.settings = settings;
        this.tableFactory =
                new IggyCatalogTableFactory(settings.connectionOptions(), settings.scanDefaults());
        this.tableOptions =
                new IggyCatalogTableOptions(
                        name, settings.defaultFormat(), tableFactory, classLoader);
    }

    // ----- lifecycle --------------------------------------------------------------------------

    @Override
    public void open() throws CatalogException {
        if (admin != null) {
            return;
        }
        IggyConnectionConfig connection = settings.connection();
        try {
            admin = IggyTopicAdmin.connect(connection);
        } catch (RuntimeException e) {
            throw new CatalogException(
                    "Catalog '" + catalogName + "' cannot open: " + e.getMessage(), e);
        }
        definitions = new IggyTableDefinitions(admin.client(), connection);
        LOG.info("Catalog '{}' connected to Iggy at {}", catalogName, connection.address());
    }

    @Override
    public void close() throws CatalogException {
        if (admin != null) {
            admin.close();
        }
        admin = null;
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
    public List<String> listDatabases() throws CatalogException {
        return admin().streamNames();
    }

    @Override
    public CatalogDatabase getDatabase(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        admin().stream(databaseName)
                .orElseThrow(() -> new DatabaseNotExistException(catalogName, databaseName));
        return new CatalogDatabaseImpl(Collections.emptyMap(), null);
    }

    @Override
    public boolean databaseExists(String databaseName) throws CatalogException {
        return admin().stream(databaseName).isPresent();
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
            throw new DatabaseAlreadyExistException(catalogName, databaseName);
        }
        if (!admin().createStream(databaseName) && !ignoreIfExists) {
            throw new DatabaseAlreadyExistException(catalogName, databaseName);
        }
    }

    @Override
    public void dropDatabase(String databaseName, boolean ignoreIfNotExists, boolean cascade)
            throws DatabaseNotExistException, DatabaseNotEmptyException, CatalogException {
        Optional<StreamDetails> stream = admin().stream(databaseName);
        if (stream.isEmpty()) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new DatabaseNotExistException(catalogName, databaseName);
        }
        List<String> tables = tableNames(stream.get());
        if (!tables.isEmpty() && !cascade) {
            throw new DatabaseNotEmptyException(catalogName, databaseName);
        }
        if (!settings.allowDrops()) {
            throw new CatalogException(
                    "DROP DATABASE "
                            + databaseName
                            + " would delete the Iggy stream '"
                            + databaseName
                            + "' with its "
                            + tables.size()
                            + " topic(s) and their messages, but catalog '"
                            + catalogName
                            + "' does not allow drops, so nothing was deleted. Set '"
                            + IggyCatalogOptions.ALLOW_DROPS.key()
                            + "' = 'true' in CREATE CATALOG to allow it.");
        }
        admin().deleteStream(databaseName);
        definitions().forget(databaseName);
        LOG.info("Catalog '{}' deleted the Iggy stream '{}'", catalogName, databaseName);
    }

    // ----- tables: topics ---------------------------------------------------------------------

    @Override
    public List<String> listTables(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        return tableNames(
                admin().stream(databaseName)
                        .orElseThrow(
                                () -> new DatabaseNotExistException(catalogName, databaseName)));
    }

    @Override
    public List<String> listViews(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        if (!databaseExists(databaseName)) {
            throw new DatabaseNotExistException(catalogName, databaseName);
        }
        return Collections.emptyList();
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath tablePath)
            throws TableNotExistException, CatalogException {
        TopicDetails topic =
                topic(tablePath)
                        .orElseThrow(() -> new TableNotExistException(catalogName, tablePath));
        Optional<byte[]> stored =
                definitions().read(tablePath.getDatabaseName(), tablePath.getObjectName());
        CatalogTable table =
                stored.isPresent()
                        ? IggyTableDefinition.deserialize(stored.get(), quoted(tablePath))
                        : IggyTableDefinition.ofUndefinedTopic(settings.defaultFormat());
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
        ResolvedCatalogTable resolved = tableOptions.resolved(tablePath, table);
        String stream = tablePath.getDatabaseName();
        String topicName = tablePath.getObjectName();
        if (!databaseExists(stream)) {
            throw new DatabaseNotExistException(catalogName, stream);
        }
        Map<String, String> options = tableOptions.stored(tablePath, resolved);
        IggyTopicSettings topicSettings = IggyTopicSettings.of(tablePath, resolved.getOptions());
        byte[] definition = IggyTableDefinition.serialize(resolved, options);

        if (topic(tablePath).isPresent()) {
            if (definitions().read(stream, topicName).isPresent()) {
                if (ignoreIfExists) {
                    return;
                }
                throw new TableAlreadyExistException(catalogName, tablePath);
            }
            // A topic created outside Flink: the definition gives it a schema.
            if (!topicSettings.isEmpty()) {
                throw new ValidationException(
                        "Topic '"
                                + topicName
                                + "' of stream '"
                                + stream
                                + "' exists already, so CREATE TABLE only stores its definition"
                                + " and cannot apply "
                                + topicSettings.keys()
                                + ". Leave them out, or change the topic with ALTER TABLE.");
            }
        } else if (!admin().createTopic(
                        stream, topicName, topicSettings, settings.defaultPartitions())) {
            // Another session created it first; its definition is the table's.
            if (ignoreIfExists) {
                return;
            }
            throw new TableAlreadyExistException(catalogName, tablePath);
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
            throw new TableNotExistException(catalogName, tablePath);
        }
        ResolvedCatalogTable resolved = tableOptions.resolved(tablePath, newTable);
        Map<String, String> options = tableOptions.stored(tablePath, resolved);
        IggyTopicSettings topicSettings = IggyTopicSettings.of(tablePath, resolved.getOptions());
        byte[] definition = IggyTableDefinition.serialize(resolved, options);
        admin().alterTopic(
                        tablePath.getDatabaseName(), topic.get(), topicSettings, quoted(tablePath));
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
            throw new TableNotExistException(catalogName, tablePath);
        }
        if (!settings.allowDrops() && definitions().read(stream, topicName).isEmpty()) {
            throw new CatalogException(
                    "DROP TABLE "
                            + quoted(tablePath)
                            + " would delete the Iggy topic '"
                            + topicName
                            + "' and its messages (Flink stores no definition of it), but catalog '"
                            + catalogName
                            + "' does not allow drops, so nothing was deleted. Set '"
                            + IggyCatalogOptions.ALLOW_DROPS.key()
                            + "' = 'true' in CREATE CATALOG to allow it.");
        }
        definitions().remove(stream, topicName);
        if (settings.allowDrops()) {
            admin().deleteTopic(stream, topicName);
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

    private IggyTopicAdmin admin() {
        if (admin == null) {
            throw new CatalogException(
                    "Catalog '" + catalogName + "' is not open (or was closed).");
        }
        return admin;
    }

    private IggyTableDefinitions definitions() {
        admin();
        return definitions;
    }

    /** The topic a table path names; empty also for the hidden definitions topic. */
    private Optional<TopicDetails> topic(ObjectPath path) {
        if (IggyTableDefinitions.TOPIC.equals(path.getObjectName())) {
            return Optional.empty();
        }
        return admin().topic(path.getDatabaseName(), path.getObjectName());
    }

    private static List<String> tableNames(StreamDetails stream) {
        return stream.topics().stream()
                .map(Topic::name)
                .filter(topic -> !IggyTableDefinitions.TOPIC.equals(topic))
                .sorted()
                .collect(Collectors.toList());
    }

    private String quoted(ObjectPath path) {
        return IggyCatalogTableOptions.quoted(catalogName, path);
    }
}

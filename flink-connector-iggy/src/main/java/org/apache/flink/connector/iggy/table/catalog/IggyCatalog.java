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
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamSummary;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.ObjectPath;
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
import java.util.List;
import java.util.Optional;

/**
 * A Flink catalog over one Iggy server: its streams are the databases and their topics the tables.
 * A topic that Flink did not define reads as its payload and metadata columns; a table created or
 * altered through the catalog keeps its schema and options in {@link IggyTableDefinitions}; {@link
 * IggyCatalogTables} reads and writes the tables, topic and definition together. Every table uses
 * the catalog's connection; its sources and sinks come from {@link #getFactory()}.
 *
 * <p>All I/O happens at planning time, through the {@link IggyServerClient} opened by {@link
 * #open()}; the options were checked by {@link IggyCatalogFactory}, a table's by {@link
 * IggyCatalogTableOptions}. What Iggy has no counterpart for is in {@link TablesOnlyCatalog}.
 */
@Internal
public final class IggyCatalog extends TablesOnlyCatalog {

    private static final Logger LOG = LoggerFactory.getLogger(IggyCatalog.class);

    private final IggyCatalogSettings settings;
    private final IggyCatalogTableFactory tableFactory;
    private final IggyCatalogTableOptions tableOptions;

    @Nullable private IggyServerClient server;
    @Nullable private IggyCatalogTables tables;

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
    public void open() {
        if (server != null) {
            return;
        }
        IggyConnectionConfig connection = settings.connection();
        try {
            server =
                    IggyServerClient.connect(
                            connection,
                            (what, e) ->
                                    new CatalogException(
                                            "Cannot " + what + ": " + e.getMessage(), e));
        } catch (RuntimeException e) {
            throw new CatalogException(
                    "Catalog '" + catalogName + "' cannot open: " + e.getMessage(), e);
        }
        tables = new IggyCatalogTables(catalogName, settings, tableOptions, server);
        LOG.info("Catalog '{}' connected to Iggy at {}", catalogName, connection.address());
    }

    @Override
    public void close() {
        if (server != null) {
            // Waits for the client's threads: the SQL client releases the session's class loader
            // right after, and threads still closing there fail to load classes.
            server.close();
        }
        server = null;
        tables = null;
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
        server().stream(IggyId.of(databaseName))
                .orElseThrow(() -> tables().missingDatabase(databaseName));
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
            throw tables().missingDatabase(databaseName);
        }
        List<String> tableNames = IggyCatalogTables.names(stream.get());
        if (!tableNames.isEmpty() && !cascade) {
            throw new DatabaseNotEmptyException(catalogName, databaseName);
        }
        if (!settings.allowDrops()) {
            throw new CatalogException(
                    "DROP DATABASE "
                            + databaseName
                            + " would delete the Iggy stream '"
                            + databaseName
                            + "' with its "
                            + tableNames.size()
                            + " topic(s) and their messages, but catalog '"
                            + catalogName
                            + "' does not allow drops, so nothing was deleted. Set '"
                            + IggyCatalogOptions.ALLOW_DROPS.key()
                            + "' = 'true' in CREATE CATALOG to allow it.");
        }
        server().deleteStream(IggyId.of(databaseName));
        tables().forgetStream(databaseName);
        LOG.info("Catalog '{}' deleted the Iggy stream '{}'", catalogName, databaseName);
    }

    // ----- tables: topics ---------------------------------------------------------------------

    @Override
    public List<String> listTables(String databaseName) throws DatabaseNotExistException {
        return IggyCatalogTables.names(
                server().stream(IggyId.of(databaseName))
                        .orElseThrow(() -> tables().missingDatabase(databaseName)));
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath tablePath) throws TableNotExistException {
        return tables().get(tablePath);
    }

    @Override
    public boolean tableExists(ObjectPath tablePath) {
        return tables().topic(tablePath).isPresent();
    }

    @Override
    public void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException {
        tables().create(tablePath, table, ignoreIfExists);
    }

    @Override
    public void alterTable(ObjectPath tablePath, CatalogBaseTable newTable, boolean ignore)
            throws TableNotExistException {
        tables().alter(tablePath, newTable, ignore);
    }

    @Override
    public void dropTable(ObjectPath tablePath, boolean ignoreIfNotExists)
            throws TableNotExistException {
        tables().drop(tablePath, ignoreIfNotExists);
    }

    // ----- helpers ----------------------------------------------------------------------------

    private IggyServerClient server() {
        if (server == null) {
            throw new CatalogException(
                    "Catalog '" + catalogName + "' is not open (or was closed).");
        }
        return server;
    }

    private IggyCatalogTables tables() {
        server();
        return tables;
    }
}

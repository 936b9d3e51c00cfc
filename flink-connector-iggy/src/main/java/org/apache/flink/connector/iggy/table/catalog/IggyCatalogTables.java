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

import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamSummary;
import org.apache.flink.connector.iggy.common.client.TopicDescription.TopicSummary;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The tables of an open {@link IggyCatalog}: each is an Iggy topic plus, once Flink created or
 * altered it, a stored definition (schema and options) in {@link IggyTableDefinitions}. Reads a
 * table from both, and creates, alters and drops topic and definition together; the hidden topic of
 * the definitions is never a table. The catalog keeps the connection and the databases.
 *
 * <p>Used by the thread that calls the catalog (the planner's), while the catalog is open; it holds
 * no state besides what it was given.
 */
final class IggyCatalogTables {

    private static final Logger LOG = LoggerFactory.getLogger(IggyCatalogTables.class);

    private final String catalogName;
    private final IggyCatalogSettings settings;
    private final IggyCatalogTableOptions tableOptions;
    private final IggyServerClient server;
    private final IggyTableDefinitions definitions;

    IggyCatalogTables(
            String catalogName,
            IggyCatalogSettings settings,
            IggyCatalogTableOptions tableOptions,
            IggyServerClient server) {
        this.catalogName = catalogName;
        this.settings = settings;
        this.tableOptions = tableOptions;
        this.server = server;
        this.definitions = new IggyTableDefinitions(server);
    }

    /** The tables of a stream: its topics but the definitions topic, sorted. */
    static List<String> names(StreamSummary stream) {
        return stream.topics().stream()
                .map(TopicSummary::name)
                .filter(topic -> !IggyTableDefinitions.TOPIC.equals(topic))
                .sorted()
                .collect(Collectors.toList());
    }

    /**
     * Flink's exception for a stream that does not exist, caused by the connector's message naming
     * the closest existing streams (the SQL client prints the cause).
     */
    DatabaseNotExistException missingDatabase(String stream) {
        return new DatabaseNotExistException(
                catalogName, stream, new CatalogException(server.missingStream(IggyId.of(stream))));
    }

    /**
     * Flink's exception for a table without its topic, caused by the connector's message naming the
     * closest existing tables, or streams when the stream is missing too.
     */
    private TableNotExistException missingTable(ObjectPath path) {
        if (IggyTableDefinitions.TOPIC.equals(path.getObjectName())) {
            return new TableNotExistException(catalogName, path);
        }
        IggyId stream = IggyId.of(path.getDatabaseName());
        String why =
                server.stream(stream)
                        .map(
                                s ->
                                        server.missingTopic(
                                                stream, IggyId.of(path.getObjectName()), names(s)))
                        .orElseGet(() -> server.missingStream(stream));
        return new TableNotExistException(catalogName, path, new CatalogException(why));
    }

    /** The topic a table path names; empty also for the hidden definitions topic. */
    Optional<TopicDescription> topic(ObjectPath path) {
        if (IggyTableDefinitions.TOPIC.equals(path.getObjectName())) {
            return Optional.empty();
        }
        return server.topic(IggyId.of(path.getDatabaseName()), IggyId.of(path.getObjectName()));
    }

    /**
     * The table: its stored definition, or the payload and metadata columns of a topic Flink did
     * not define, with the topic's settings as options.
     */
    CatalogBaseTable get(ObjectPath tablePath) throws TableNotExistException {
        TopicDescription topic = topic(tablePath).orElseThrow(() -> missingTable(tablePath));
        Optional<byte[]> stored =
                definitions.read(tablePath.getDatabaseName(), tablePath.getObjectName());
        CatalogTable table =
                stored.isPresent()
                        ? IggyTableDefinition.deserialize(stored.get(), quoted(tablePath))
                        : IggyTableDefinition.ofUndefinedTopic(settings.defaultFormat());
        Map<String, String> options = new HashMap<>(table.getOptions());
        options.putAll(IggyTopicSettings.asOptions(topic));
        return table.copy(options);
    }

    /**
     * Creates the topic with the table's settings, or gives a topic created outside Flink the
     * table's definition, and stores the definition.
     */
    void create(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException {
        ResolvedCatalogTable resolved = tableOptions.resolved(tablePath, table);
        String stream = tablePath.getDatabaseName();
        String topicName = tablePath.getObjectName();
        if (server.stream(IggyId.of(stream)).isEmpty()) {
            throw missingDatabase(stream);
        }
        Map<String, String> options = tableOptions.stored(tablePath, resolved);
        IggyTopicSettings topicSettings = IggyTopicSettings.of(tablePath, resolved.getOptions());
        byte[] definition = IggyTableDefinition.serialize(resolved, options);

        if (topic(tablePath).isPresent()) {
            if (definitions.read(stream, topicName).isPresent()) {
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
        } else if (!topicSettings.createTopic(
                server, stream, topicName, settings.defaultPartitions())) {
            // Another session created it first; its definition is the table's.
            if (ignoreIfExists) {
                return;
            }
            throw new TableAlreadyExistException(catalogName, tablePath);
        }
        definitions.write(stream, topicName, definition);
    }

    /** Applies the table's topic settings to its topic and stores the new definition. */
    void alter(ObjectPath tablePath, CatalogBaseTable newTable, boolean ignoreIfNotExists)
            throws TableNotExistException {
        Optional<TopicDescription> topic = topic(tablePath);
        if (topic.isEmpty()) {
            if (ignoreIfNotExists) {
                return;
            }
            throw missingTable(tablePath);
        }
        ResolvedCatalogTable resolved = tableOptions.resolved(tablePath, newTable);
        Map<String, String> options = tableOptions.stored(tablePath, resolved);
        IggyTopicSettings topicSettings = IggyTopicSettings.of(tablePath, resolved.getOptions());
        byte[] definition = IggyTableDefinition.serialize(resolved, options);
        topicSettings.alterTopic(
                server, tablePath.getDatabaseName(), topic.get(), quoted(tablePath));
        definitions.write(tablePath.getDatabaseName(), tablePath.getObjectName(), definition);
    }

    /**
     * Forgets the table's definition and, if the catalog allows drops, deletes its topic; without a
     * definition to forget, only if it does.
     */
    void drop(ObjectPath tablePath, boolean ignoreIfNotExists) throws TableNotExistException {
        String stream = tablePath.getDatabaseName();
        String topicName = tablePath.getObjectName();
        Optional<TopicDescription> topic = topic(tablePath);
        if (topic.isEmpty()) {
            if (server.stream(IggyId.of(stream)).isPresent()) {
                definitions.remove(stream, topicName); // of a topic deleted outside Flink
            }
            if (ignoreIfNotExists) {
                return;
            }
            throw missingTable(tablePath);
        }
        if (!settings.allowDrops() && definitions.read(stream, topicName).isEmpty()) {
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
        definitions.remove(stream, topicName);
        if (settings.allowDrops()) {
            server.deleteTopic(IggyId.of(stream), IggyId.of(topicName));
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

    /** The stream was deleted: its definitions went with it. */
    void forgetStream(String stream) {
        definitions.forget(stream);
    }

    private String quoted(ObjectPath path) {
        return IggyCatalogTableOptions.quoted(catalogName, path);
    }
}

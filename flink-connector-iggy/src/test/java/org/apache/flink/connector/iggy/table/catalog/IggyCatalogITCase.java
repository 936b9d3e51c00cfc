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

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogFunctionImpl;
import org.apache.flink.table.catalog.CatalogPartitionImpl;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
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
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderValue;
import org.apache.iggy.message.Message;
import org.apache.iggy.topic.CompressionAlgorithm;
import org.apache.iggy.topic.TopicDetails;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.math.BigInteger;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.connection;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Every method of the {@link IggyCatalog}'s {@code Catalog} contract against the in-JVM Iggy server
 * (or a real one via {@code IGGY_TCP_ADDRESS}), the unsupported ones included.
 */
class IggyCatalogITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    /** No default format, two partitions by default, drops off. */
    private static Catalog catalog;

    /** A second session of the same catalog: sees what the first one stores. */
    private static Catalog secondSession;

    /** Drops allowed, 'raw' the default format. */
    private static Catalog dropping;

    private String stream;

    @BeforeAll
    static void openCatalogs() {
        catalog = open("iggy", Map.of("default.partitions", "2"));
        secondSession = open("iggy", Map.of("default.partitions", "2"));
        dropping = open("dropping", Map.of("allow-drops", "true", "default.format", "raw"));
    }

    @AfterAll
    static void closeCatalogs() {
        for (Catalog c : List.of(catalog, secondSession, dropping)) {
            c.close();
        }
    }

    @BeforeEach
    void newStream() {
        stream = IGGY.uniqueName("catalog");
        IGGY.createStream(stream);
    }

    // ----- opening ----------------------------------------------------------------------------

    @Test
    void openNamesTheAddressWhenNoServerListens() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Catalog unreachable =
                create(
                        "unreachable",
                        Map.of("address", "127.0.0.1:" + port, "connect.timeout", "2 s"));
        assertThatThrownBy(unreachable::open)
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Catalog 'unreachable' cannot open")
                .hasMessageContaining("127.0.0.1:" + port);
    }

    @Test
    void openNamesTheUserWhenTheServerRefusesTheLogin() {
        Catalog refused =
                create(
                        "refused",
                        Map.of(
                                "address",
                                IGGY.address(),
                                "username",
                                IGGY.username(),
                                "password",
                                "not-" + IGGY.password()));
        assertThatThrownBy(refused::open)
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("Cannot log in")
                .hasMessageContaining("user '" + IGGY.username() + "'")
                .hasMessageNotContaining("not-" + IGGY.password());
    }

    @Test
    void unknownCatalogOptionIsRefusedAtCreate() {
        assertThatThrownBy(() -> create("typo", Map.of("default.partition", "3")))
                .hasStackTraceContaining("default.partition");
    }

    @Test
    void catalogOptionsAreCheckedAtCreate() {
        assertThat(create("current", Map.of("default-database", "shop")).getDefaultDatabase())
                .isEqualTo("shop");
        assertThat(catalog.getDefaultDatabase()).isNull();
        assertThatThrownBy(
                        () -> create("positions", Map.of("default.scan.startup.mode", "timestamp")))
                .hasStackTraceContaining("'default.scan.startup.mode' must be")
                .hasStackTraceContaining("set positions per table");
        assertThatThrownBy(
                        () ->
                                create(
                                        "positions",
                                        Map.of("default.scan.bounded.mode", "specific-offsets")))
                .hasStackTraceContaining("'default.scan.bounded.mode' must be");
        assertThatThrownBy(() -> create("none", Map.of("default.partitions", "0")))
                .hasStackTraceContaining("'default.partitions' must be at least 1");
    }

    @Test
    void aClosedCatalogSaysSo() {
        Catalog closed = open("closed", Map.of());
        closed.close();
        assertThatThrownBy(closed::listDatabases)
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("'closed' is not open");
    }

    @Test
    void tablesGetTheirSourcesAndSinksFromTheCatalog() {
        assertThat(catalog.getFactory())
                .hasValueSatisfying(
                        f ->
                                assertThat(f)
                                        .isInstanceOf(DynamicTableSourceFactory.class)
                                        .isInstanceOf(DynamicTableSinkFactory.class));
    }

    // ----- databases --------------------------------------------------------------------------

    @Test
    void createDatabaseCreatesTheStream() throws Exception {
        String created = IGGY.uniqueName("created");
        catalog.createDatabase(created, emptyDatabase(), false);

        assertThat(IGGY.client().streams().getStream(StreamId.of(created))).isPresent();
        assertThat(catalog.listDatabases()).contains(created, stream);
        assertThat(catalog.databaseExists(created)).isTrue();
        assertThat(catalog.getDatabase(created).getProperties()).isEmpty();

        assertThatThrownBy(() -> catalog.createDatabase(created, emptyDatabase(), false))
                .isInstanceOf(DatabaseAlreadyExistException.class);
        catalog.createDatabase(created, emptyDatabase(), true);
        IGGY.deleteStream(created);
    }

    @Test
    void aStreamHasNoCommentOrProperties() {
        String name = IGGY.uniqueName("commented");
        assertThatThrownBy(
                        () ->
                                catalog.createDatabase(
                                        name, new CatalogDatabaseImpl(Map.of(), "hi"), false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("comment or properties");
        assertThat(catalog.databaseExists(name)).isFalse();
        assertThatThrownBy(() -> catalog.alterDatabase(stream, emptyDatabase(), false))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void unknownDatabase() {
        String unknown = IGGY.uniqueName("unknown");
        assertThat(catalog.databaseExists(unknown)).isFalse();
        assertThatThrownBy(() -> catalog.getDatabase(unknown))
                .isInstanceOf(DatabaseNotExistException.class);
        assertThatThrownBy(() -> catalog.listTables(unknown))
                .isInstanceOf(DatabaseNotExistException.class);
        assertThatThrownBy(() -> catalog.listViews(unknown))
                .isInstanceOf(DatabaseNotExistException.class);
        assertThatThrownBy(() -> catalog.listFunctions(unknown))
                .isInstanceOf(DatabaseNotExistException.class);
        assertThatThrownBy(() -> catalog.dropDatabase(unknown, false, true))
                .isInstanceOf(DatabaseNotExistException.class);
        assertThatThrownBy(
                        () -> catalog.createTable(new ObjectPath(unknown, "t"), jsonTable(), false))
                .isInstanceOf(DatabaseNotExistException.class);
    }

    /**
     * Flink's exceptions for a missing stream or topic, caused by the connector's message with the
     * closest existing names: the SQL client prints that cause.
     */
    @Test
    void aMisspeltDatabaseOrTableNamesTheClosestExistingOnes() throws Exception {
        IGGY.createTopic(stream, "events", 1);
        catalog.createTable(new ObjectPath(stream, "orders"), jsonTable(), false);
        String misspelt = stream + "x";

        for (Throwable missingDatabase :
                List.of(
                        catchThrowable(() -> catalog.getDatabase(misspelt)),
                        catchThrowable(() -> catalog.listTables(misspelt)),
                        catchThrowable(() -> catalog.dropDatabase(misspelt, false, true)),
                        catchThrowable(
                                () ->
                                        catalog.createTable(
                                                new ObjectPath(misspelt, "t"),
                                                jsonTable(),
                                                false)))) {
            assertThat(missingDatabase).isInstanceOf(DatabaseNotExistException.class);
            assertThat(missingDatabase.getCause())
                    .hasMessageStartingWith("Iggy stream '" + misspelt + "' does not exist at ")
                    .hasMessageContaining("did you mean ")
                    .hasMessageContaining("'" + stream + "'");
        }
        for (Throwable missingTable :
                List.of(
                        catchThrowable(() -> catalog.getTable(new ObjectPath(stream, "evnts"))),
                        catchThrowable(
                                () ->
                                        catalog.alterTable(
                                                new ObjectPath(stream, "evnts"),
                                                jsonTable(),
                                                false)),
                        catchThrowable(
                                () -> catalog.dropTable(new ObjectPath(stream, "evnts"), false)))) {
            assertThat(missingTable).isInstanceOf(TableNotExistException.class);
            assertThat(missingTable.getCause())
                    .hasMessageStartingWith(
                            "Iggy topic 'evnts' does not exist in stream '" + stream + "' at ")
                    .hasMessageEndingWith(" (did you mean 'events'?)");
        }
        // Not the hidden definitions topic, one edit from this name.
        assertThat(catchThrowable(() -> catalog.getTable(new ObjectPath(stream, "__flink_table"))))
                .isInstanceOf(TableNotExistException.class)
                .cause()
                .hasMessageNotContaining("did you mean");
        assertThat(catchThrowable(() -> catalog.getTable(new ObjectPath(misspelt, "events"))))
                .isInstanceOf(TableNotExistException.class)
                .cause()
                .hasMessageContaining("Iggy stream '" + misspelt + "' does not exist")
                .hasMessageContaining("'" + stream + "'");
    }

    @Test
    void dropDatabaseRefusesANonEmptyStreamAndDeletesNothingUnlessDropsAreAllowed()
            throws Exception {
        IGGY.createTopic(stream, "events", 1);

        assertThatThrownBy(() -> catalog.dropDatabase(stream, false, false))
                .isInstanceOf(DatabaseNotEmptyException.class);
        assertThatThrownBy(() -> catalog.dropDatabase(stream, false, true))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("nothing was deleted")
                .hasMessageContaining("'allow-drops' = 'true'");
        assertThat(catalog.databaseExists(stream)).isTrue();

        assertThatThrownBy(() -> dropping.dropDatabase(stream, false, false))
                .isInstanceOf(DatabaseNotEmptyException.class);
        dropping.dropDatabase(stream, false, true);
        assertThat(IGGY.client().streams().getStream(StreamId.of(stream))).isEmpty();
        dropping.dropDatabase(stream, true, true);
    }

    @Test
    void aStreamWithOnlyForgottenDefinitionsIsEmpty() throws Exception {
        ObjectPath orders = new ObjectPath(stream, "orders");
        dropping.createTable(orders, jsonTable(), false);
        dropping.dropTable(orders, false);

        dropping.dropDatabase(stream, false, false);
        assertThat(dropping.databaseExists(stream)).isFalse();
    }

    // ----- tables -----------------------------------------------------------------------------

    @Test
    void topicsAreTablesAndTheDefinitionsTopicIsHidden() throws Exception {
        IGGY.createTopic(stream, "raw", 1);
        catalog.createTable(new ObjectPath(stream, "orders"), jsonTable(), false);

        assertThat(
                        IGGY.client()
                                .topics()
                                .getTopic(
                                        StreamId.of(stream),
                                        TopicId.of(IggyTableDefinitions.TOPIC)))
                .isPresent();
        assertThat(catalog.listTables(stream)).containsExactly("orders", "raw");
        assertThat(catalog.listViews(stream)).isEmpty();
        ObjectPath definitions = new ObjectPath(stream, IggyTableDefinitions.TOPIC);
        assertThat(catalog.tableExists(definitions)).isFalse();
        assertThatThrownBy(() -> catalog.getTable(definitions))
                .isInstanceOf(TableNotExistException.class);
        assertThatThrownBy(() -> catalog.getTable(new ObjectPath(stream, "missing")))
                .isInstanceOf(TableNotExistException.class);
    }

    @Test
    void aTopicCreatedOutsideFlinkIsItsPayloadAndMetadata() throws Exception {
        IGGY.createTopic(stream, "raw", 3);
        ObjectPath raw = new ObjectPath(stream, "raw");

        CatalogBaseTable table = catalog.getTable(raw);
        assertThat(columnNames(table))
                .containsExactly(
                        "payload",
                        "partition",
                        "offset",
                        "timestamp",
                        "origin_timestamp",
                        "message_id",
                        "checksum",
                        "headers");
        assertThat(columnType(table, "payload")).isEqualTo("BYTES");
        assertThat(table.getOptions())
                .containsEntry("connector", "iggy")
                .containsEntry("format", "raw")
                .containsEntry("partitions", "3")
                .containsEntry("compression", "none")
                .doesNotContainKeys("address", "password", "stream", "topic");

        // With 'raw' as the catalog's default format, the payload is text.
        assertThat(columnType(dropping.getTable(raw), "payload")).isEqualTo("STRING");
    }

    @Test
    void createTableCreatesTheTopicAndAnotherSessionSeesTheTable() throws Exception {
        ObjectPath orders = new ObjectPath(stream, "orders");
        Map<String, String> options = new HashMap<>();
        options.put("format", "json");
        options.put("partitions", "3");
        options.put("compression", "gzip");
        options.put("message-expiry", "1 h");
        options.put("scan.poll.batch-size", "17");
        catalog.createTable(orders, table(options, null), false);

        TopicDetails topic = topicDetails("orders");
        assertThat(topic.partitionsCount()).isEqualTo(3L);
        assertThat(topic.compressionAlgorithm()).isEqualTo(CompressionAlgorithm.Gzip);
        assertThat(topic.messageExpiry()).isEqualTo(BigInteger.valueOf(3_600_000_000L));

        CatalogBaseTable seen = secondSession.getTable(orders);
        assertThat(columnNames(seen)).containsExactly("order_id", "amount");
        assertThat(columnType(seen, "amount")).isEqualTo("DECIMAL(10, 2)");
        assertThat(seen.getComment()).isEqualTo("orders");
        assertThat(seen.getOptions())
                .containsEntry("connector", "iggy")
                .containsEntry("format", "json")
                .containsEntry("scan.poll.batch-size", "17")
                .containsEntry("partitions", "3")
                .containsEntry("compression", "gzip")
                .containsEntry("message-expiry", "1 h");

        // Topic settings live in Iggy, not in the definition.
        assertThat(storedOptions("orders"))
                .containsEntry("format", "json")
                .doesNotContainKeys("partitions", "compression", "message-expiry");

        assertThatThrownBy(() -> secondSession.createTable(orders, jsonTable(), false))
                .isInstanceOf(TableAlreadyExistException.class);
        secondSession.createTable(orders, jsonTable(), true);
        assertThat(catalog.getTable(orders).getOptions()).containsEntry("format", "json");
    }

    @Test
    void createTableAppliesTheCatalogDefaults() throws Exception {
        ObjectPath plain = new ObjectPath(stream, "plain");
        assertThatThrownBy(() -> catalog.createTable(plain, table(Map.of(), null), false))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'format'")
                .hasMessageContaining("'default.format'");
        assertThat(catalog.tableExists(plain)).isFalse();

        ResolvedCatalogTable text =
                resolved(ResolvedSchema.of(Column.physical("line", DataTypes.STRING())), Map.of());
        dropping.createTable(plain, text, false);
        assertThat(storedOptions("plain")).containsEntry("format", "raw");
        assertThat(topicDetails("plain").partitionsCount()).isEqualTo(1L);

        catalog.createTable(new ObjectPath(stream, "two"), jsonTable(), false);
        assertThat(topicDetails("two").partitionsCount()).isEqualTo(2L);
    }

    @Test
    void createTableRefusesWhatTheCatalogDecides() throws Exception {
        for (String option :
                List.of(
                        "address",
                        "password",
                        "stream",
                        "topic",
                        "stream-pattern",
                        "topic-pattern")) {
            ObjectPath path = new ObjectPath(stream, "t");
            assertThatThrownBy(
                            () ->
                                    catalog.createTable(
                                            path,
                                            table(Map.of("format", "json", option, "x"), null),
                                            false))
                    .isInstanceOf(ValidationException.class)
                    .hasMessageContaining("must not set '" + option + "'");
        }
        assertThatThrownBy(
                        () ->
                                catalog.createTable(
                                        new ObjectPath(stream, "k"),
                                        table(Map.of("format", "json", "connector", "kafka"), null),
                                        false))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'kafka'");
        assertThatThrownBy(
                        () ->
                                catalog.createTable(
                                        new ObjectPath(stream, "p"),
                                        table(Map.of("format", "json", "partitions", "0"), null),
                                        false))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'partitions' must be at least 1");
        assertThat(catalog.listTables(stream)).isEmpty();
    }

    @Test
    void aPrimaryKeyMakesAnUpsertTableWhoseOptionsAreCheckedAtCreate() throws Exception {
        ObjectPath customers = new ObjectPath(stream, "customers");
        assertThatThrownBy(
                        () ->
                                catalog.createTable(
                                        customers, table(Map.of("format", "json"), "id"), false))
                .isInstanceOf(ValidationException.class)
                .hasStackTraceContaining("key.format");
        assertThat(catalog.tableExists(customers)).isFalse();

        catalog.createTable(
                customers, table(Map.of("format", "json", "key.format", "raw"), "id"), false);
        assertThat(catalog.getTable(customers).getOptions())
                .containsEntry("connector", "upsert-iggy");
        assertThat(
                        ((CatalogTable) catalog.getTable(customers))
                                .getUnresolvedSchema()
                                .getPrimaryKey())
                .isPresent();
    }

    @Test
    void createTableGivesATopicCreatedOutsideFlinkItsSchema() throws Exception {
        IGGY.createTopic(stream, "events", 2);
        IGGY.send(stream, "events", 0, List.of("{}".getBytes(StandardCharsets.UTF_8)));
        ObjectPath events = new ObjectPath(stream, "events");

        assertThatThrownBy(
                        () ->
                                catalog.createTable(
                                        events,
                                        table(Map.of("format", "json", "partitions", "4"), null),
                                        false))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("exists already")
                .hasMessageContaining("[partitions]");

        catalog.createTable(events, jsonTable(), false);
        assertThat(columnNames(secondSession.getTable(events)))
                .containsExactly("order_id", "amount");
        assertThat(IGGY.messagesCount(stream, "events", 0)).isEqualTo(1);
        assertThat(topicDetails("events").partitionsCount()).isEqualTo(2L);
    }

    @Test
    void alterTableStoresTheNewDefinitionAndAddsPartitions() throws Exception {
        ObjectPath orders = new ObjectPath(stream, "orders");
        catalog.createTable(
                orders, table(Map.of("format", "json", "partitions", "1"), null), false);

        Map<String, String> altered = new HashMap<>(catalog.getTable(orders).getOptions());
        altered.put("partitions", "3");
        altered.put("compression", "gzip");
        altered.put("scan.poll.batch-size", "5");
        catalog.alterTable(orders, table(altered, null), false);

        assertThat(topicDetails("orders").partitionsCount()).isEqualTo(3L);
        assertThat(topicDetails("orders").compressionAlgorithm())
                .isEqualTo(CompressionAlgorithm.Gzip);
        assertThat(secondSession.getTable(orders).getOptions())
                .containsEntry("scan.poll.batch-size", "5")
                .containsEntry("partitions", "3");

        altered.put("partitions", "2");
        assertThatThrownBy(() -> catalog.alterTable(orders, table(altered, null), false))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("not remove them");
        assertThat(topicDetails("orders").partitionsCount()).isEqualTo(3L);

        ObjectPath missing = new ObjectPath(stream, "missing");
        assertThatThrownBy(() -> catalog.alterTable(missing, jsonTable(), false))
                .isInstanceOf(TableNotExistException.class);
        catalog.alterTable(missing, jsonTable(), true);
    }

    @Test
    void dropTableForgetsTheDefinitionButDeletesTheTopicOnlyWhenDropsAreAllowed() throws Exception {
        ObjectPath orders = new ObjectPath(stream, "orders");
        catalog.createTable(orders, jsonTable(), false);

        catalog.dropTable(orders, false);
        assertThat(topicDetails("orders")).isNotNull();
        assertThat(secondSession.getTable(orders).getOptions()).containsEntry("format", "raw");

        assertThatThrownBy(() -> catalog.dropTable(orders, false))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("nothing was deleted");
        assertThat(catalog.tableExists(orders)).isTrue();

        dropping.dropTable(orders, false);
        assertThat(IGGY.client().topics().getTopic(StreamId.of(stream), TopicId.of("orders")))
                .isEmpty();
        assertThatThrownBy(() -> catalog.dropTable(orders, false))
                .isInstanceOf(TableNotExistException.class);
        catalog.dropTable(orders, true);
    }

    @Test
    void renameTableIsNotSupported() {
        assertThatThrownBy(() -> catalog.renameTable(new ObjectPath(stream, "a"), "b", false))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void anUnreadableDefinitionNamesTheTableAndCanBeDropped() throws Exception {
        ObjectPath orders = new ObjectPath(stream, "orders");
        catalog.createTable(orders, jsonTable(), false);
        sendDefinition("orders", new byte[] {0, 0, 0, 9, 1, 2});

        assertThatThrownBy(() -> secondSession.getTable(orders))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("`iggy`.`" + stream + "`.`orders`")
                .hasMessageContaining("version 9");

        catalog.dropTable(orders, false);
        assertThat(secondSession.getTable(orders).getOptions()).containsEntry("format", "raw");
    }

    @Test
    void sessionsSeeEachOthersChanges() throws Exception {
        ObjectPath orders = new ObjectPath(stream, "orders");
        catalog.createTable(orders, jsonTable(), false);
        assertThat(secondSession.getTable(orders).getOptions()).containsEntry("format", "json");

        Map<String, String> csv = new HashMap<>(secondSession.getTable(orders).getOptions());
        csv.put("format", "csv");
        secondSession.alterTable(orders, table(csv, null), false);
        assertThat(catalog.getTable(orders).getOptions()).containsEntry("format", "csv");

        catalog.dropTable(orders, false);
        assertThat(secondSession.getTable(orders).getOptions()).containsEntry("format", "raw");
    }

    // ----- not supported ----------------------------------------------------------------------

    @Test
    void tablesHaveNoFlinkPartitions() throws Exception {
        catalog.createTable(new ObjectPath(stream, "orders"), jsonTable(), false);
        ObjectPath orders = new ObjectPath(stream, "orders");
        ObjectPath missing = new ObjectPath(stream, "missing");
        CatalogPartitionSpec spec = new CatalogPartitionSpec(Map.of("p", "1"));

        assertThatThrownBy(() -> catalog.listPartitions(orders))
                .isInstanceOf(TableNotPartitionedException.class);
        assertThatThrownBy(() -> catalog.listPartitions(orders, spec))
                .isInstanceOf(TableNotPartitionedException.class);
        assertThatThrownBy(() -> catalog.listPartitionsByFilter(orders, List.of()))
                .isInstanceOf(TableNotPartitionedException.class);
        assertThatThrownBy(() -> catalog.listPartitions(missing))
                .isInstanceOf(TableNotExistException.class);
        assertThatThrownBy(
                        () ->
                                catalog.createPartition(
                                        orders,
                                        spec,
                                        new CatalogPartitionImpl(Map.of(), null),
                                        false))
                .isInstanceOf(TableNotPartitionedException.class);
        assertThatThrownBy(() -> catalog.getPartition(orders, spec))
                .isInstanceOf(PartitionNotExistException.class);
        assertThat(catalog.partitionExists(orders, spec)).isFalse();
        assertThatThrownBy(() -> catalog.dropPartition(orders, spec, false))
                .isInstanceOf(PartitionNotExistException.class);
        catalog.dropPartition(orders, spec, true);
        assertThatThrownBy(
                        () ->
                                catalog.alterPartition(
                                        orders,
                                        spec,
                                        new CatalogPartitionImpl(Map.of(), null),
                                        false))
                .isInstanceOf(PartitionNotExistException.class);
    }

    @Test
    void theCatalogStoresNoFunctions() throws Exception {
        ObjectPath function = new ObjectPath(stream, "f");
        assertThat(catalog.listFunctions(stream)).isEmpty();
        assertThat(catalog.functionExists(function)).isFalse();
        assertThatThrownBy(() -> catalog.getFunction(function))
                .isInstanceOf(FunctionNotExistException.class);
        assertThatThrownBy(
                        () ->
                                catalog.createFunction(
                                        function, new CatalogFunctionImpl("a.B"), false))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(
                        () ->
                                catalog.alterFunction(
                                        function, new CatalogFunctionImpl("a.B"), false))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> catalog.dropFunction(function, false))
                .isInstanceOf(FunctionNotExistException.class);
        catalog.dropFunction(function, true);
    }

    @Test
    void statisticsAreUnknown() throws Exception {
        ObjectPath orders = new ObjectPath(stream, "orders");
        CatalogPartitionSpec spec = new CatalogPartitionSpec(Map.of("p", "1"));
        assertThat(catalog.getTableStatistics(orders)).isSameAs(CatalogTableStatistics.UNKNOWN);
        assertThat(catalog.getTableColumnStatistics(orders))
                .isSameAs(CatalogColumnStatistics.UNKNOWN);
        assertThat(catalog.getPartitionStatistics(orders, spec))
                .isSameAs(CatalogTableStatistics.UNKNOWN);
        assertThat(catalog.getPartitionColumnStatistics(orders, spec))
                .isSameAs(CatalogColumnStatistics.UNKNOWN);
        assertThatThrownBy(
                        () ->
                                catalog.alterTableStatistics(
                                        orders, CatalogTableStatistics.UNKNOWN, false))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(
                        () ->
                                catalog.alterTableColumnStatistics(
                                        orders, CatalogColumnStatistics.UNKNOWN, false))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(
                        () ->
                                catalog.alterPartitionStatistics(
                                        orders, spec, CatalogTableStatistics.UNKNOWN, false))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(
                        () ->
                                catalog.alterPartitionColumnStatistics(
                                        orders, spec, CatalogColumnStatistics.UNKNOWN, false))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    // ----- helpers ----------------------------------------------------------------------------

    private static Catalog create(String name, Map<String, String> extra) {
        Map<String, String> options = new HashMap<>();
        options.put("type", "iggy");
        options.put("address", IGGY.address());
        options.put("username", IGGY.username());
        options.put("password", IGGY.password());
        options.putAll(extra);
        return FactoryUtil.createCatalog(
                name, options, new Configuration(), IggyCatalogITCase.class.getClassLoader());
    }

    private static Catalog open(String name, Map<String, String> extra) {
        Catalog opened = create(name, extra);
        opened.open();
        return opened;
    }

    private static CatalogDatabaseImpl emptyDatabase() {
        return new CatalogDatabaseImpl(Collections.emptyMap(), null);
    }

    private static ResolvedCatalogTable jsonTable() {
        return table(Map.of("format", "json"), null);
    }

    /** {@code order_id STRING, amount DECIMAL(10, 2)}, or with {@code id} as primary key. */
    private static ResolvedCatalogTable table(Map<String, String> options, String primaryKey) {
        ResolvedSchema schema =
                primaryKey == null
                        ? ResolvedSchema.of(
                                Column.physical("order_id", DataTypes.STRING()),
                                Column.physical("amount", DataTypes.DECIMAL(10, 2)))
                        : new ResolvedSchema(
                                List.of(
                                        Column.physical(primaryKey, DataTypes.STRING().notNull()),
                                        Column.physical("name", DataTypes.STRING())),
                                Collections.emptyList(),
                                UniqueConstraint.primaryKey("pk", List.of(primaryKey)));
        return resolved(schema, options);
    }

    private static ResolvedCatalogTable resolved(
            ResolvedSchema schema, Map<String, String> options) {
        CatalogTable table =
                CatalogTable.newBuilder()
                        .schema(Schema.newBuilder().fromResolvedSchema(schema).build())
                        .comment("orders")
                        .options(options)
                        .build();
        return new ResolvedCatalogTable(table, schema);
    }

    private static List<String> columnNames(CatalogBaseTable table) {
        return table.getUnresolvedSchema().getColumns().stream()
                .map(Schema.UnresolvedColumn::getName)
                .collect(java.util.stream.Collectors.toList());
    }

    private static String columnType(CatalogBaseTable table, String column) {
        return table.getUnresolvedSchema().getColumns().stream()
                .filter(c -> c.getName().equals(column))
                .map(c -> ((Schema.UnresolvedPhysicalColumn) c).getDataType().toString())
                // "[TYPE]" when unresolved (stored), "TYPE" when a DataType (topic tables)
                .map(type -> type.replaceAll("^\\[|\\]$", ""))
                .findFirst()
                .orElseThrow();
    }

    private TopicDetails topicDetails(String topic) {
        return IGGY.client()
                .topics()
                .getTopic(StreamId.of(stream), TopicId.of(topic))
                .orElseThrow();
    }

    /** The options of the last definition of {@code table} in the definitions topic. */
    private Map<String, String> storedOptions(String table) {
        List<Message> messages = IGGY.readAll(stream, IggyTableDefinitions.TOPIC, 0);
        for (int i = messages.size() - 1; i >= 0; i--) {
            Message m = messages.get(i);
            HeaderValue key =
                    m.userHeaders().get(HeaderKey.fromString(IggyTableDefinitions.KEY_HEADER));
            if (key != null && table.equals(new String(key.value(), StandardCharsets.UTF_8))) {
                return IggyTableDefinitions.deserialize(m.payload(), table).getOptions();
            }
        }
        throw new AssertionError("No definition of " + table);
    }

    private void sendDefinition(String table, byte[] payload) {
        try (IggyServerClient server =
                IggyServerClient.connect(connection(IGGY), new SimpleCounter())) {
            server.send(
                            new IggyTopicPartition(
                                    IggyId.of(stream), IggyId.of(IggyTableDefinitions.TOPIC), 0),
                            List.of(
                                    IggyTableDefinitions.message(
                                            table, payload, IggyHeaders.empty())))
                    .join();
        }
    }
}

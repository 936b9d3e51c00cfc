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

import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;

import org.apache.iggy.identifier.StreamId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The catalog as the SQL user meets it: the quick-start script of the catalog docs in one {@code
 * TableEnvironment}, then a second session that sees the first one's tables. Reads are bounded by
 * the catalog's {@code default.scan.bounded.mode}, so every SELECT ends.
 */
class IggyCatalogSqlITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    private final String shop = IGGY.uniqueName("shop");

    @AfterEach
    void deleteStream() {
        if (IGGY.client().streams().getStream(StreamId.of(shop)).isPresent()) {
            IGGY.deleteStream(shop);
        }
    }

    @Test
    void theQuickStartScriptAndASecondSession() throws Exception {
        TableEnvironment first = session();
        run(first, "SHOW DATABASES");
        run(first, "CREATE DATABASE `" + shop + "`");
        assertThat(run(first, "SHOW DATABASES")).contains(Row.of(shop));
        assertThat(run(first, "SHOW TABLES IN `" + shop + "`")).isEmpty();
        run(
                first,
                "CREATE TABLE `"
                        + shop
                        + "`.orders (order_id STRING, amount DECIMAL(10,2))"
                        + " WITH ('partitions' = '3', 'format' = 'json')");
        first.executeSql("INSERT INTO `" + shop + "`.orders VALUES ('o1', 9.99)").await();
        assertThat(run(first, "SELECT * FROM `" + shop + "`.orders"))
                .containsExactly(Row.of("o1", new BigDecimal("9.99")));

        // A topic created outside Flink: readable with no DDL.
        IGGY.createTopic(shop, "raw-topic", 1);
        IGGY.send(shop, "raw-topic", 0, List.of("hello".getBytes(StandardCharsets.UTF_8)));
        List<Row> raw =
                run(
                        first,
                        "SELECT payload, `partition`, `offset`, headers FROM `"
                                + shop
                                + "`.`raw-topic`");
        assertThat(raw).hasSize(1);
        assertThat((byte[]) raw.get(0).getField(0))
                .isEqualTo("hello".getBytes(StandardCharsets.UTF_8));
        assertThat(raw.get(0).getField(1)).isEqualTo(0);
        assertThat(raw.get(0).getField(2)).isEqualTo(0L);
        assertThat(raw.get(0).getField(3)).isEqualTo(Map.of());
        assertThat(run(first, "SELECT * FROM `" + shop + "`.`raw-topic`")).hasSize(1);
        first.executeSql("INSERT INTO `" + shop + "`.`raw-topic` VALUES (X'01')").await();
        assertThat(IGGY.readAll(shop, "raw-topic", 0))
                .extracting(m -> m.payload())
                .containsExactly("hello".getBytes(StandardCharsets.UTF_8), new byte[] {1});
        close(first);

        // Another session, as another SQL client would be: same tables, same schemas.
        TableEnvironment second = session();
        assertThat(run(second, "SHOW TABLES IN `" + shop + "`"))
                .containsExactly(Row.of("orders"), Row.of("raw-topic"));
        String ddl =
                run(second, "SHOW CREATE TABLE `" + shop + "`.orders")
                        .get(0)
                        .getField(0)
                        .toString();
        assertThat(ddl)
                .contains("`amount` DECIMAL(10, 2)", "'format' = 'json'", "'partitions' = '3'")
                .doesNotContain("password", "username", "address");
        second.executeSql("INSERT INTO `" + shop + "`.orders VALUES ('o2', 1.50)").await();
        assertThat(run(second, "SELECT order_id FROM `" + shop + "`.orders"))
                .containsExactlyInAnyOrder(Row.of("o1"), Row.of("o2"));
        assertThat(IGGY.messagesCount(shop, "orders", 0)).isEqualTo(2);
        close(second);
    }

    @Test
    void upsertTablesThroughTheCatalog() throws Exception {
        IGGY.createStream(shop);
        TableEnvironment first = session();
        run(
                first,
                "CREATE TABLE `"
                        + shop
                        + "`.customers (id STRING NOT NULL, name STRING,"
                        + " PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('key.format' = 'raw', 'format' = 'json')");
        // The upsert key of an aggregation is the primary key, as Flink 2.3 requires of an
        // insert into a table with one.
        first.executeSql(
                        "INSERT INTO `"
                                + shop
                                + "`.customers SELECT id, LAST_VALUE(name) FROM (VALUES"
                                + " ('c1', 'ann'), ('c2', 'bob'), ('c1', 'anna')) AS t (id, name)"
                                + " GROUP BY id")
                .await();
        close(first);

        TableEnvironment second = session();
        Map<Object, Row> customers = materialize(second, "SELECT * FROM `" + shop + "`.customers");
        assertThat(customers)
                .containsOnlyKeys("c1", "c2")
                .containsEntry("c1", Row.of("c1", "anna"))
                .containsEntry("c2", Row.of("c2", "bob"));
        close(second);
    }

    @Test
    void viewsAndFlinkPartitionsAreRefused() {
        IGGY.createStream(shop);
        TableEnvironment session = session();
        assertThatThrownBy(
                        () -> session.executeSql("CREATE VIEW `" + shop + "`.v AS SELECT 1 AS x"))
                .hasStackTraceContaining("stores tables only");
        assertThatThrownBy(
                        () ->
                                session.executeSql(
                                        "CREATE TABLE `"
                                                + shop
                                                + "`.p (a STRING, b STRING) PARTITIONED BY (b)"
                                                + " WITH ('format' = 'json')"))
                .hasStackTraceContaining("cannot be PARTITIONED BY");
        assertThat(IGGY.client().topics().getTopics(StreamId.of(shop))).isEmpty();
        close(session);
    }

    /** A session with the catalog as current catalog, as the script's first two lines make it. */
    private static TableEnvironment session() {
        TableEnvironment tEnv =
                StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
        tEnv.executeSql(
                "CREATE CATALOG iggy WITH ('type' = 'iggy', 'address' = '"
                        + IGGY.address()
                        + "', 'username' = '"
                        + IGGY.username()
                        + "', 'password' = '"
                        + IGGY.password()
                        + "', 'default.scan.startup.mode' = 'earliest-offset',"
                        + " 'default.scan.bounded.mode' = 'latest-offset')");
        tEnv.executeSql("USE CATALOG iggy");
        return tEnv;
    }

    /** Closes the catalog's connection, as leaving the SQL client does. */
    private static void close(TableEnvironment tEnv) {
        tEnv.executeSql("USE CATALOG default_catalog");
        tEnv.executeSql("DROP CATALOG iggy");
    }

    private static List<Row> run(TableEnvironment tEnv, String sql) throws Exception {
        TableResult result = tEnv.executeSql(sql);
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    /** The table a changelog query ends at, by its first column. */
    private static Map<Object, Row> materialize(TableEnvironment tEnv, String sql)
            throws Exception {
        Map<Object, Row> table = new TreeMap<>();
        for (Row change : run(tEnv, sql)) {
            Row row = Row.copy(change);
            row.setKind(RowKind.INSERT);
            if (change.getKind() == RowKind.INSERT || change.getKind() == RowKind.UPDATE_AFTER) {
                table.put(change.getField(0), row);
            } else {
                table.remove(change.getField(0));
            }
        }
        return table;
    }
}

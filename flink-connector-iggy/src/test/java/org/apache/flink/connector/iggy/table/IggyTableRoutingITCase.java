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
package org.apache.flink.connector.iggy.table;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.Message;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** SQL sink tables that route each row to the topic its writable 'topic' metadata column names. */
class IggyTableRoutingITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    private static final Map<String, Integer> TOPICS =
            Map.of("orders", 2, "payments", 3, "refunds", 1, "audit", 1);

    private String stream;
    private StreamExecutionEnvironment env;
    private StreamTableEnvironment tEnv;

    @BeforeEach
    void setUp() {
        stream = IGGY.uniqueName("routing-sql");
        IGGY.createStream(stream);
        TOPICS.forEach((topic, partitions) -> IGGY.createTopic(stream, topic, partitions));
        env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        tEnv = StreamTableEnvironment.create(env);
    }

    @Test
    void anInsertRoutesEachRowToTheListedTopicItNamesInItsKeysPartition() throws Exception {
        tEnv.executeSql(
                "CREATE TEMPORARY TABLE cdc (id STRING, v STRING,"
                        + " tpc STRING METADATA FROM 'topic') WITH ("
                        + options("'topic' = 'orders;payments;refunds'")
                        + ", 'key.format' = 'raw', 'key.fields' = 'id', 'value.format' = 'csv',"
                        + " 'value.fields-include' = 'EXCEPT_KEY', 'sink.partitioner' = 'key',"
                        + " 'scan.startup.mode' = 'earliest-offset',"
                        + " 'scan.bounded.mode' = 'latest-offset')");
        List<String> inserted = new ArrayList<>();
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            String topic = List.of("orders", "payments", "refunds").get(i % 3);
            inserted.add(topic + ":k" + i + ":v" + i);
            values.append(i == 0 ? "" : ", ")
                    .append("('k")
                    .append(i)
                    .append("', 'v")
                    .append(i)
                    .append("', '")
                    .append(topic)
                    .append("')");
        }
        tEnv.executeSql("INSERT INTO cdc VALUES " + values).await();

        List<String> stored = new ArrayList<>();
        for (String topic : List.of("orders", "payments", "refunds", "audit")) {
            for (long p = 0; p < TOPICS.get(topic); p++) {
                for (Message m : IGGY.readAll(stream, topic, p)) {
                    String key = keyHeader(m);
                    assertThat(p)
                            .as("partition of %s in %s", key, topic)
                            .isEqualTo(
                                    IggyPartitioner.partitionForKey(
                                            key.getBytes(StandardCharsets.UTF_8),
                                            TOPICS.get(topic)));
                    stored.add(
                            topic
                                    + ":"
                                    + key
                                    + ":"
                                    + new String(m.payload(), StandardCharsets.UTF_8));
                }
            }
        }
        assertThat(stored).containsExactlyInAnyOrderElementsOf(inserted);
        // the same table reads the three topics back, each row with its topic
        assertThat(rows("SELECT tpc, id, v FROM cdc"))
                .containsExactlyInAnyOrderElementsOf(inserted);
    }

    @Test
    void aRowNamingATopicTheTableDoesNotAllowFailsNamingTheTopicAndTheTable() {
        tEnv.executeSql(
                "CREATE TEMPORARY TABLE listed (v STRING, tpc STRING METADATA FROM 'topic') WITH ("
                        + options("'topic' = 'orders;payments'")
                        + ", 'format' = 'raw')");
        for (String row : List.of("('x', 'audit')", "('x', CAST(NULL AS STRING))")) {
            assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO listed VALUES " + row).await())
                    .satisfies(
                            e -> {
                                Optional<IggyConfigurationException> cause =
                                        ExceptionUtils.findThrowable(
                                                e, IggyConfigurationException.class);
                                assertThat(cause).as(row).isPresent();
                                assertThat(cause.get().getMessage())
                                        .contains("default_catalog.default_database.listed")
                                        .contains("'topic' = 'orders;payments'")
                                        .contains(
                                                row.contains("audit")
                                                        ? "names topic 'audit'"
                                                        : "NULL 'topic' metadata column");
                            });
        }
        assertThat(IGGY.readAll(stream, "audit", 0)).isEmpty();
    }

    @Test
    void anUpsertTableWithoutTopicRoutesEachKeysChangesToTheTopicItsRowNames() throws Exception {
        tEnv.executeSql(
                "CREATE TEMPORARY TABLE latest (id STRING, v STRING,"
                        + " tpc STRING METADATA FROM 'topic', PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ("
                        + options(null)
                        + ", 'key.format' = 'raw', 'value.format' = 'raw',"
                        + " 'value.fields-include' = 'EXCEPT_KEY')");
        tEnv.executeSql(
                        // Flink 1.20's LAST_VALUE takes no CHAR, the type of these literals
                        "INSERT INTO latest SELECT id, LAST_VALUE(CAST(v AS STRING)),"
                                + " LAST_VALUE(CAST(tpc AS STRING)) FROM (VALUES"
                                + " ('a', '1', 'orders'), ('b', '1', 'payments'),"
                                + " ('a', '2', 'orders'), ('b', '1', 'payments'))"
                                + " AS changes(id, v, tpc) GROUP BY id")
                .await();
        assertThat(payloads("orders")).containsExactly("1", "2");
        assertThat(payloads("payments")).containsExactly("1");
    }

    /**
     * A DELETE row of an upsert table routes its deletion by its own topic column: key a's deletion
     * lands in orders, where its value went, and nothing of it in payments.
     */
    @Test
    void anUpsertTablesDeletionGoesToTheTopicItsDeleteRowNames() throws Exception {
        tEnv.executeSql(
                "CREATE TEMPORARY TABLE latest (id STRING NOT NULL, v STRING,"
                        + " tpc STRING METADATA FROM 'topic', PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ("
                        + options(null)
                        + ", 'key.format' = 'raw', 'value.format' = 'raw',"
                        + " 'value.fields-include' = 'EXCEPT_KEY')");
        DataStream<Row> changes =
                env.fromData(
                                Row.ofKind(RowKind.INSERT, "a", "1", "orders"),
                                Row.ofKind(RowKind.INSERT, "b", "1", "payments"),
                                Row.ofKind(RowKind.DELETE, "a", "1", "orders"))
                        .returns(
                                Types.ROW_NAMED(
                                        new String[] {"id", "v", "tpc"},
                                        Types.STRING,
                                        Types.STRING,
                                        Types.STRING))
                        .setParallelism(1);
        tEnv.createTemporaryView(
                "changes",
                tEnv.fromChangelogStream(
                        changes,
                        Schema.newBuilder()
                                .column("id", DataTypes.STRING().notNull())
                                .column("v", DataTypes.STRING())
                                .column("tpc", DataTypes.STRING())
                                .primaryKey("id")
                                .build(),
                        ChangelogMode.upsert()));
        tEnv.executeSql("INSERT INTO latest SELECT id, v, tpc FROM changes").await();

        List<String> orders = new ArrayList<>();
        for (long p = 0; p < TOPICS.get("orders"); p++) {
            for (Message m : IGGY.readAll(stream, "orders", p)) {
                orders.add(
                        keyHeader(m)
                                + "="
                                + new String(m.payload(), StandardCharsets.UTF_8)
                                + (m.userHeaders().containsKey(HeaderKey.fromString("flink.op"))
                                        ? " (deleted)"
                                        : ""));
            }
        }
        assertThat(orders).containsExactly("a=1", "a= (deleted)");
        assertThat(payloads("payments")).containsExactly("1");
    }

    private String options(String topics) {
        return "'connector' = '"
                + (topics == null ? "upsert-iggy" : "iggy")
                + "', 'address' = '"
                + IGGY.address()
                + "', 'username' = '"
                + IGGY.username()
                + "', 'password' = '"
                + IGGY.password()
                + "', 'stream' = '"
                + stream
                + "'"
                + (topics == null ? "" : ", " + topics);
    }

    private List<String> payloads(String topic) {
        List<String> payloads = new ArrayList<>();
        for (long p = 0; p < TOPICS.get(topic); p++) {
            for (Message m : IGGY.readAll(stream, topic, p)) {
                payloads.add(new String(m.payload(), StandardCharsets.UTF_8));
            }
        }
        return payloads;
    }

    private static String keyHeader(Message m) {
        return new String(
                m.userHeaders().get(HeaderKey.fromString("flink.key")).value(),
                StandardCharsets.UTF_8);
    }

    private List<String> rows(String query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(
                    r -> rows.add(r.getField(0) + ":" + r.getField(1) + ":" + r.getField(2)));
        }
        return rows;
    }
}

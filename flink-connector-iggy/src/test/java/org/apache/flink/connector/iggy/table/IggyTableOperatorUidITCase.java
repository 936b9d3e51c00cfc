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

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sink's uid derived from the table's identifier: an {@code upsert-iggy} INSERT job restored
 * from a savepoint after its query's plan changed keeps the reconcile step's fingerprints, so
 * unchanged values are not sent again.
 */
class IggyTableOperatorUidITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    private final String stream = IGGY.uniqueName("table-uid");

    @Test
    void theSinksUidsDeriveFromTheTableOrFromSinkUid() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(1000);
        StreamTableEnvironment tables = tables(env);
        tables.executeSql(
                "CREATE TEMPORARY TABLE named (id STRING NOT NULL, name STRING,"
                        + " PRIMARY KEY (id) NOT ENFORCED) WITH ("
                        + common("out")
                        + ", 'connector' = 'upsert-iggy', 'key.format' = 'json',"
                        + " 'value.format' = 'json', 'sink.uid' = 'my-sink',"
                        + " 'sink.delivery-guarantee' = 'exactly-once',"
                        + " 'sink.exactly-once.write-ahead-dir' = 'file:///iggy-wal')");
        StreamStatementSet statements = tables.createStatementSet();
        statements.addInsertSql(
                "INSERT INTO sink_out " + LATEST_BY_ID + " WHERE id <> 'x' GROUP BY id");
        statements.addInsertSql("INSERT INTO named " + LATEST_BY_ID + " GROUP BY id");
        statements.attachAsDataStream();
        List<String> uids =
                env.getStreamGraph().getStreamNodes().stream()
                        .map(StreamNode::getTransformationUID)
                        .filter(uid -> uid != null && uid.contains("sink"))
                        .collect(Collectors.toList());
        String derived = "iggy-sink: default_catalog.default_database.sink_out";
        assertThat(uids)
                .containsExactlyInAnyOrder(
                        derived,
                        derived + ": Iggy Reconcile",
                        "my-sink",
                        "my-sink: Iggy Reconcile",
                        "my-sink: Iggy Commit Handoff",
                        "Sink Committer: my-sink");
    }

    /**
     * An exactly-once INSERT whose session names neither a write-ahead nor a checkpoint directory
     * is refused when planned into a job, naming both options; with the checkpoint directory set in
     * the session, as {@code SET} does, it plans.
     */
    @Test
    void anExactlyOnceInsertWithoutAnyDirectoryIsRefusedWhenPlanned() {
        String insert =
                "INSERT INTO sink_out /*+ OPTIONS('sink.delivery-guarantee' = 'exactly-once') */ "
                        + LATEST_BY_ID
                        + " GROUP BY id";
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(1000);
        StreamTableEnvironment tables = tables(env);
        assertThatThrownBy(() -> tables.explainSql(insert, ExplainDetail.JSON_EXECUTION_PLAN))
                .hasStackTraceContaining("no durable place for its write-ahead files")
                .hasStackTraceContaining("'sink.exactly-once.write-ahead-dir'")
                .hasStackTraceContaining("'execution.checkpointing.dir'");

        tables.getConfig().set("execution.checkpointing.dir", "file:///checkpoints");
        assertThat(tables.explainSql(insert, ExplainDetail.JSON_EXECUTION_PLAN))
                .contains("Committer");
    }

    @Test
    void aBlankSinkUidIsRefusedNamingTheOption() {
        StreamTableEnvironment tables =
                tables(StreamExecutionEnvironment.getExecutionEnvironment());
        assertThatThrownBy(
                        () ->
                                tables.executeSql(
                                        "INSERT INTO sink_out /*+ OPTIONS('sink.uid' = ' ') */"
                                                + " SELECT id, name FROM src"))
                .hasStackTraceContaining("'sink.uid' must not be blank");
    }

    @Test
    void aKeyedMapJobRestoredAfterAPlanChangeKeepsItsFingerprints(@TempDir Path savepoints)
            throws Exception {
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "in", 1);
        IGGY.createTopic(stream, "out", 1);
        send("k1", "v1", "k2", "v2", "k3", "v3");

        StreamTableEnvironment first = tables(new Configuration());
        JobClient job =
                first.executeSql("INSERT INTO sink_out " + LATEST_BY_ID + " GROUP BY id")
                        .getJobClient()
                        .orElseThrow();
        awaitOut(3);
        String savepoint =
                job.stopWithSavepoint(
                                false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(60, TimeUnit.SECONDS);

        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        // whatever state of the old plan has no uid is left behind
        restore.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, true);
        StreamTableEnvironment second = tables(restore);
        JobClient changed =
                second.executeSql(
                                "INSERT INTO sink_out "
                                        + LATEST_BY_ID
                                        + " WHERE id <> 'skipped' GROUP BY id")
                        .getJobClient()
                        .orElseThrow();
        try {
            // the same values again, then a new one: only the new one is sent
            send("k1", "v1", "k2", "v2", "k4", "v4");
            awaitOut(4);
            assertThat(out()).containsExactly("v1", "v2", "v3", "v4");
        } finally {
            changed.cancel().get(60, TimeUnit.SECONDS);
        }
    }

    /**
     * The latest name per id, grouped by id: the upsert key of an aggregation is the sink's primary
     * key, which Flink 2.3 requires of a query into an upsert table (without an ON CONFLICT clause,
     * which earlier lines do not know).
     */
    private static final String LATEST_BY_ID = "SELECT id, LAST_VALUE(name) FROM src";

    private StreamTableEnvironment tables(Configuration configuration) {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(configuration);
        env.setParallelism(1);
        env.enableCheckpointing(200);
        return tables(env);
    }

    private StreamTableEnvironment tables(StreamExecutionEnvironment env) {
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.executeSql(
                "CREATE TEMPORARY TABLE src (id STRING, name STRING) WITH ("
                        + common("in")
                        + ", 'connector' = 'iggy', 'value.format' = 'json',"
                        + " 'scan.startup.mode' = 'earliest-offset')");
        tables.executeSql(
                "CREATE TEMPORARY TABLE sink_out (id STRING NOT NULL, name STRING,"
                        + " PRIMARY KEY (id) NOT ENFORCED) WITH ("
                        + common("out")
                        + ", 'connector' = 'upsert-iggy', 'key.format' = 'json',"
                        + " 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY')");
        return tables;
    }

    private String common(String topic) {
        return String.format(
                "'address' = '%s', 'username' = '%s', 'password' = '%s', 'stream' = '%s',"
                        + " 'topic' = '%s'",
                IGGY.address(), IGGY.username(), IGGY.password(), stream, topic);
    }

    /** Sends one JSON row per (id, name) pair to topic "in". */
    private void send(String... idsAndNames) {
        List<byte[]> rows =
                IntStream.range(0, idsAndNames.length / 2)
                        .mapToObj(
                                i ->
                                        String.format(
                                                        "{\"id\":\"%s\",\"name\":\"%s\"}",
                                                        idsAndNames[2 * i], idsAndNames[2 * i + 1])
                                                .getBytes(StandardCharsets.UTF_8))
                        .collect(Collectors.toList());
        IGGY.send(stream, "in", 0, rows);
    }

    private void awaitOut(int messages) throws Exception {
        waitUntil(
                messages + " values in topic out",
                Duration.ofSeconds(60),
                () -> out().size() >= messages,
                () -> ": " + out());
    }

    /** The names sent to topic "out", in order. */
    private List<String> out() {
        return IGGY.readAll(stream, "out", 0).stream()
                .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                .map(json -> json.replaceAll(".*\"name\":\"([^\"]*)\".*", "$1"))
                .collect(Collectors.toList());
    }
}

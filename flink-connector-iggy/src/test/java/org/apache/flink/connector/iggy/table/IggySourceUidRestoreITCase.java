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
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A SQL job whose query changed restores its Iggy source's read positions from a savepoint of the
 * old query: the source's uid comes from the table, not from the plan (docs/table-sql.md, "Operator
 * ids").
 */
class IggySourceUidRestoreITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    private static final String CONSUMER = "flink-default_catalog.default_database.lines";

    @Test
    void aChangedQueryRestoresTheReadPositionsOfTheSavepoint(@TempDir Path savepoints)
            throws Exception {
        String stream = IGGY.uniqueName("uid");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "lines", 1);
        IGGY.send(stream, "lines", 0, payloads("a", "b", "c"));

        StreamExecutionEnvironment first = StreamExecutionEnvironment.getExecutionEnvironment();
        first.setParallelism(1);
        first.enableCheckpointing(100);
        StreamTableEnvironment before = StreamTableEnvironment.create(first);
        createTable(before, stream);
        before.executeSql("CREATE TABLE ignored (line STRING) WITH ('connector' = 'blackhole')");
        JobClient job =
                before.executeSql("INSERT INTO ignored SELECT line FROM lines")
                        .getJobClient()
                        .orElseThrow();
        waitUntil(
                "a checkpoint covers the three messages",
                Duration.ofSeconds(60),
                () -> IGGY.storedOffset(stream, "lines", 0, CONSUMER).equals(Optional.of(2L)));
        String savepoint =
                job.stopWithSavepoint(
                                false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(60, TimeUnit.SECONDS);
        IGGY.send(stream, "lines", 0, payloads("d", "e"));

        // Another query, another plan; every state of the savepoint must be claimed.
        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        StreamExecutionEnvironment second =
                StreamExecutionEnvironment.getExecutionEnvironment(restore);
        second.setParallelism(1);
        StreamTableEnvironment after = StreamTableEnvironment.create(second);
        createTable(after, stream);
        List<String> read = new ArrayList<>();
        // Two branches from one (reused) scan: the source now feeds two operators, which changes
        // the id Flink would derive for it from the topology.
        try (CloseableIterator<Row> rows =
                after.executeSql(
                                "SELECT UPPER(line) FROM lines WHERE line <> 'e'"
                                        + " UNION ALL SELECT line FROM lines WHERE line = 'e'")
                        .collect()) {
            while (read.size() < 2 && rows.hasNext()) {
                read.add((String) rows.next().getField(0));
            }
        }
        assertThat(read)
                .as("read from the restored position, not from the earliest offset")
                .containsExactlyInAnyOrder("D", "e");
    }

    private static void createTable(StreamTableEnvironment tables, String stream) {
        tables.executeSql(
                "CREATE TABLE lines (line STRING) WITH ('connector' = 'iggy', 'format' = 'raw',"
                        + (" 'address' = '" + IGGY.address() + "',")
                        + (" 'username' = '" + IGGY.username() + "',")
                        + (" 'password' = '" + IGGY.password() + "',")
                        + (" 'stream' = '" + stream + "', 'topic' = 'lines',")
                        + " 'scan.startup.mode' = 'earliest-offset')");
    }

    private static List<byte[]> payloads(String... lines) {
        List<byte[]> payloads = new ArrayList<>();
        for (String line : lines) {
            payloads.add(line.getBytes(StandardCharsets.UTF_8));
        }
        return payloads;
    }
}

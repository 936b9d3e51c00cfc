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

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.transformations.SourceTransformation;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The SQL source's operator uid comes from the table, not from the query's plan: a changed query
 * still finds the read positions of its savepoint (docs/table-sql.md, "Operator ids").
 */
class IggySourceUidTest {

    private StreamTableEnvironment tables;

    @BeforeEach
    void createTable() {
        tables =
                StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
        tables.executeSql(
                "CREATE TABLE orders (id BIGINT, item STRING) WITH ("
                        + " 'connector' = 'iggy', 'address' = 'localhost:8090',"
                        + " 'username' = 'reader', 'password' = 'secret',"
                        + " 'stream' = 'shop', 'topic' = 'orders', 'format' = 'json')");
    }

    @Test
    void theUidIsDerivedFromTheTableAndStaysWhenTheQueryChanges() {
        String expected = "iggy-source: default_catalog.default_database.orders";
        assertThat(sourceUids("SELECT * FROM orders")).containsExactly(expected);
        assertThat(sourceUids("SELECT UPPER(item) FROM orders WHERE id > 5"))
                .containsExactly(expected);
    }

    @Test
    void scanUidSetsTheUid() {
        assertThat(sourceUids("SELECT id FROM orders /*+ OPTIONS('scan.uid' = 'orders-reader') */"))
                .containsExactly("orders-reader");
    }

    @Test
    void aBlankScanUidIsRefusedNamingTheOption() {
        assertThatThrownBy(
                        () -> sourceUids("SELECT id FROM orders /*+ OPTIONS('scan.uid' = ' ') */"))
                .hasStackTraceContaining("'scan.uid' must not be blank");
    }

    private List<String> sourceUids(String query) {
        Deque<Transformation<?>> open = new ArrayDeque<>();
        open.add(tables.toChangelogStream(tables.sqlQuery(query)).getTransformation());
        List<String> uids = new ArrayList<>();
        while (!open.isEmpty()) {
            Transformation<?> t = open.poll();
            if (t instanceof SourceTransformation) {
                uids.add(t.getUid());
            }
            open.addAll(t.getInputs());
        }
        return uids;
    }
}

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
package org.apache.flink.connector.iggy.examples;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/**
 * The keyed-map example in SQL, for a cluster that has {@code flink-sql-connector-iggy} on its
 * class path (in {@code lib/}, or with {@code flink run -C}): the {@code key=value} lines of topic
 * {@code events} (connector {@code iggy}, format {@code raw}, bounded at the end at job start) are
 * reduced to the latest value per key and upserted into topic {@code latest} (connector {@code
 * upsert-iggy}), which gets one message per change: the value as payload, the key in the {@code
 * flink.key} header.
 *
 * <pre>
 * --address host:port  --stream NAME  [--username U --password P]
 * </pre>
 */
public final class ClusterSqlJob {

    private ClusterSqlJob() {}

    public static void main(String[] args) {
        // Without --username the credentials come from the Flink configuration or the
        // environment (IGGY_USERNAME, IGGY_PASSWORD), as for any table that leaves them out.
        String username = JobArgs.option(args, "--username");
        String credentials =
                username == null
                        ? ""
                        : String.format(
                                ", 'username' = '%s', 'password' = '%s'",
                                username, JobArgs.required(args, "--password"));
        String connection =
                String.format(
                        "'address' = '%s'%s, 'stream' = '%s'",
                        JobArgs.required(args, "--address"),
                        credentials,
                        JobArgs.required(args, "--stream"));
        TableEnvironment tables = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tables.executeSql(
                "CREATE TABLE events (line STRING) WITH ('connector' = 'iggy', "
                        + connection
                        + ", 'topic' = 'events', 'format' = 'raw',"
                        + " 'scan.startup.mode' = 'earliest-offset',"
                        + " 'scan.bounded.mode' = 'latest-offset')");
        tables.executeSql(
                "CREATE TABLE latest (k STRING NOT NULL, v STRING, PRIMARY KEY (k) NOT ENFORCED)"
                        + " WITH ('connector' = 'upsert-iggy', "
                        + connection
                        + ", 'topic' = 'latest', 'key.format' = 'raw', 'value.format' = 'raw',"
                        + " 'value.fields-include' = 'EXCEPT_KEY')");
        // Grouped by the sink's primary key, so that the query's upsert key is the primary key:
        // Flink 2.3 otherwise asks for an ON CONFLICT clause, which 2.2 cannot parse.
        tables.executeSql(
                "INSERT INTO latest SELECT k, LAST_VALUE(v) FROM ("
                        + "SELECT SPLIT_INDEX(line, '=', 0) AS k, SPLIT_INDEX(line, '=', 1) AS v"
                        + " FROM events WHERE POSITION('=' IN line) > 0) GROUP BY k");
    }
}

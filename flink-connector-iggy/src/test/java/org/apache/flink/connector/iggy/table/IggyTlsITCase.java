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

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.apache.iggy.message.Message;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The source, the sink and SQL over TLS against the in-JVM server's TLS listener, trusting its CA
 * certificate; and what a SQL user sees (the root cause) when TLS is off against a TLS server.
 * Connection failures in every TLS combination are covered by {@code IggyClientsTlsITCase}.
 */
class IggyTlsITCase {

    @RegisterExtension static final IggyServerExtension TLS = new IggyServerExtension().withTls();

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private String stream;

    @BeforeEach
    void createStream() {
        stream = TLS.uniqueName("tls");
        TLS.createStream(stream);
        TLS.createTopic(stream, "t", 1);
    }

    private static IggyConnectionConfig connection() {
        return IggyConnectionConfig.builder()
                .setAddress(TLS.address())
                .setCredentials(TLS.username(), TLS.password())
                .setTlsCertificate(TLS.tlsCertificatePath().toString())
                .setConnectTimeout(Duration.ofSeconds(5))
                .build();
    }

    private static StreamExecutionEnvironment env() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        return env;
    }

    @Test
    void theSourceReadsOverTls() throws Exception {
        TLS.send(stream, "t", 0, utf8("a", "b", "c"));
        IggySource<String> source =
                IggySource.<String>builder()
                        .setConnection(connection())
                        .setStream(stream)
                        .setTopic("t")
                        .setConsumerName(TLS.uniqueName("consumer"))
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setBounded(IggyStoppingOffsets.latest())
                        .setDeserializer(
                                IggyRecordDeserializationSchema.valueOnly(new SimpleStringSchema()))
                        .build();

        List<String> read = new ArrayList<>();
        try (CloseableIterator<String> it =
                env().fromSource(source, WatermarkStrategy.noWatermarks(), "iggy")
                        .executeAndCollect()) {
            it.forEachRemaining(read::add);
        }

        assertThat(read).containsExactly("a", "b", "c");
    }

    @Test
    void theSinkWritesOverTls() throws Exception {
        StreamExecutionEnvironment env = env();
        env.fromData("x", "y")
                .sinkTo(
                        IggySink.<String>builder()
                                .setConnection(connection())
                                .setStream(stream)
                                .setTopic("t")
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .setPartition(0)
                                .build());
        env.execute("sink over TLS");

        assertThat(payloads()).containsExactly("x", "y");
    }

    @Test
    void sqlWritesAndReadsOverTlsAndAWrongSettingFailsWithOurMessageAsRootCause() throws Exception {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env());
        tEnv.executeSql(ddl("tls_t", "'tls.certificate' = '" + TLS.tlsCertificatePath() + "'"));
        tEnv.executeSql("INSERT INTO tls_t VALUES ('p'), ('q')").await();
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql("SELECT v FROM tls_t").collect()) {
            it.forEachRemaining(row -> rows.add((String) row.getField(0)));
        }
        assertThat(rows).containsExactly("p", "q");

        tEnv.executeSql(ddl("plain_t", "'tls.enabled' = 'false'"));
        Throwable failure =
                catchThrowable(
                        () -> {
                            try (CloseableIterator<Row> it =
                                    tEnv.executeSql("SELECT v FROM plain_t").collect()) {
                                it.forEachRemaining(row -> {});
                            }
                        });
        assertThat(failure)
                .rootCause()
                .hasMessageContaining("Cannot log in to Iggy at " + TLS.address())
                .hasMessageContaining("'tls.enabled'='true'");
    }

    private String ddl(String table, String tlsOption) {
        return "CREATE TEMPORARY TABLE "
                + table
                + " (v STRING) WITH ("
                + "'connector' = 'iggy', 'format' = 'raw', "
                + ("'address' = '" + TLS.address() + "', ")
                + ("'username' = '" + TLS.username() + "', ")
                + ("'password' = '" + TLS.password() + "', ")
                + ("'stream' = '" + stream + "', 'topic' = 't', ")
                + "'scan.startup.mode' = 'earliest-offset', "
                + "'scan.bounded.mode' = 'latest-offset', "
                + "'connect.timeout' = '3 s', "
                + tlsOption
                + ")";
    }

    private List<String> payloads() {
        return TLS.readAll(stream, "t", 0).stream()
                .map(Message::payload)
                .map(p -> new String(p, StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }

    private static List<byte[]> utf8(String... values) {
        List<byte[]> payloads = new ArrayList<>();
        for (String value : values) {
            payloads.add(value.getBytes(StandardCharsets.UTF_8));
        }
        return payloads;
    }
}

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
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;

import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderValue;
import org.apache.iggy.message.Message;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code iggy} and {@code upsert-iggy} connectors in SQL jobs on one MiniCluster, against the
 * in-JVM Iggy server (or a real one via {@code IGGY_TCP_ADDRESS}). Every read is bounded.
 */
class IggyTableITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(4);

    private String stream;
    private StreamExecutionEnvironment env;
    private StreamTableEnvironment tEnv;

    @BeforeEach
    void setUp() {
        stream = IGGY.uniqueName("table");
        IGGY.createStream(stream);
        env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        tEnv = StreamTableEnvironment.create(env);
    }

    // ----- append: formats, keys, metadata --------------------------------------------------

    @Test
    void jsonWithKeyFieldsKeyPartitioningAndMetadata() throws Exception {
        IGGY.createTopic(stream, "orders", 3);
        createTable(
                "orders",
                "iggy",
                "id STRING, name STRING, amount INT,"
                        + " hdrs MAP<STRING, BYTES> METADATA FROM 'headers',"
                        + " part INT METADATA FROM 'partition' VIRTUAL,"
                        + " off BIGINT METADATA FROM 'offset' VIRTUAL,"
                        + " str STRING METADATA FROM 'stream' VIRTUAL,"
                        + " tpc STRING METADATA FROM 'topic' VIRTUAL,"
                        + " ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,"
                        + " mid BYTES METADATA FROM 'message-id' VIRTUAL,"
                        + " cks BIGINT METADATA FROM 'checksum' VIRTUAL",
                "topic",
                "orders",
                "key.format",
                "raw",
                "key.fields",
                "id",
                "value.format",
                "json",
                "value.fields-include",
                "EXCEPT_KEY",
                "sink.partitioner",
                "key",
                "scan.startup.mode",
                "earliest-offset",
                "scan.bounded.mode",
                "latest-offset");
        long before = System.currentTimeMillis();
        tEnv.executeSql(
                        "INSERT INTO orders VALUES"
                                + " ('k1', 'apple', 1, MAP['trace', X'01']),"
                                + " ('k2', 'pear', 2, MAP['trace', X'02']),"
                                + " ('k3', 'plum', 3, MAP['trace', X'03'])")
                .await();

        // On the wire: key in the header, payload without the key column, partition by XXH32.
        Map<String, Long> partitionOfKey = new HashMap<>();
        Map<String, Long> offsetOfKey = new HashMap<>();
        Map<String, Long> checksumOfKey = new HashMap<>();
        for (long p = 0; p < 3; p++) {
            for (Message m : IGGY.readAll(stream, "orders", p)) {
                String key = headerText(m, IggyConnectorOptions.DEFAULT_KEY_HEADER);
                partitionOfKey.put(key, p);
                offsetOfKey.put(key, m.header().offset().longValue());
                checksumOfKey.put(key, m.header().checksum().longValue());
                assertThat(new String(m.payload(), StandardCharsets.UTF_8))
                        .doesNotContain("k1")
                        .contains("\"name\"");
                assertThat(p)
                        .isEqualTo(
                                IggyPartitioner.partitionForKey(
                                        key.getBytes(StandardCharsets.UTF_8), 3));
            }
        }
        assertThat(partitionOfKey).containsOnlyKeys("k1", "k2", "k3");

        List<Row> rows = collect("SELECT * FROM orders");
        assertThat(rows).hasSize(3);
        for (Row row : rows) {
            String id = (String) row.getField("id");
            assertThat(row.getField("name"))
                    .isEqualTo(Map.of("k1", "apple", "k2", "pear", "k3", "plum").get(id));
            assertThat(row.getField("part")).isEqualTo(partitionOfKey.get(id).intValue());
            assertThat(row.getField("off")).isEqualTo(offsetOfKey.get(id));
            assertThat(row.getField("str")).isEqualTo(stream);
            assertThat(row.getField("tpc")).isEqualTo("orders");
            assertThat(((Instant) row.getField("ts")).toEpochMilli())
                    .isBetween(before - 60_000, System.currentTimeMillis() + 60_000);
            assertThat((byte[]) row.getField("mid")).hasSize(16);
            assertThat(row.getField("cks")).isEqualTo(checksumOfKey.get(id));
            @SuppressWarnings("unchecked")
            Map<String, byte[]> headers = (Map<String, byte[]>) row.getField("hdrs");
            assertThat(headers).containsKeys("trace", IggyConnectorOptions.DEFAULT_KEY_HEADER);
            assertThat(headers.get(IggyConnectorOptions.DEFAULT_KEY_HEADER))
                    .isEqualTo(id.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void csvWithWritableMessageIdOriginTimestampAndPartition() throws Exception {
        IGGY.createTopic(stream, "events", 2);
        createTable(
                "events",
                "iggy",
                "v STRING, n INT,"
                        + " mid BINARY(16) METADATA FROM 'message-id',"
                        + " ots TIMESTAMP_LTZ(6) METADATA FROM 'origin-timestamp',"
                        + " part INT METADATA FROM 'partition'",
                "topic",
                "events",
                "format",
                "csv",
                "scan.startup.mode",
                "earliest-offset",
                "scan.bounded.mode",
                "latest-offset");
        Instant beforeWriting = Instant.now().minusMillis(1);
        tEnv.executeSql(
                        "INSERT INTO events VALUES"
                                + " ('a', 1, X'0000000000000000000000000000002A',"
                                + "  TO_TIMESTAMP_LTZ(1700000000123, 3), 1),"
                                + " ('b', 2, CAST(NULL AS BINARY(16)), CAST(NULL AS TIMESTAMP_LTZ(6)), 0)")
                .await();
        Instant afterWriting = Instant.now().plusMillis(1);

        List<Message> partition1 = IGGY.readAll(stream, "events", 1);
        assertThat(partition1).hasSize(1);
        assertThat(new String(partition1.get(0).payload(), StandardCharsets.UTF_8).trim())
                .isEqualTo("a,1");
        assertThat(partition1.get(0).header().id().toBigInteger())
                .isEqualTo(BigInteger.valueOf(42));
        assertThat(partition1.get(0).header().originTimestamp())
                .isEqualTo(BigInteger.valueOf(1_700_000_000_123_000L));
        assertThat(IGGY.readAll(stream, "events", 0)).hasSize(1);

        Map<String, Row> byValue =
                collect("SELECT * FROM events").stream()
                        .collect(Collectors.toMap(r -> (String) r.getField("v"), r -> r));
        Row a = byValue.get("a");
        assertThat(a.getField("n")).isEqualTo(1);
        assertThat(a.getField("part")).isEqualTo(1);
        assertThat(new BigInteger(1, (byte[]) a.getField("mid"))).isEqualTo(BigInteger.valueOf(42));
        assertThat(a.getField("ots")).isEqualTo(Instant.ofEpochMilli(1_700_000_000_123L));
        Row b = byValue.get("b");
        assertThat(b.getField("part")).isEqualTo(0);
        assertThat(new BigInteger(1, (byte[]) b.getField("mid"))).isNotEqualTo(BigInteger.ZERO);
        assertThat((Instant) b.getField("ots"))
                .as("defaults to the time of writing")
                .isBetween(beforeWriting, afterWriting);
    }

    // ----- startup and bounded modes --------------------------------------------------------

    @Test
    void everyStartupAndBoundedMode() throws Exception {
        IGGY.createTopic(stream, "log", 1);
        IGGY.send(stream, "log", 0, utf8("v0", "v1", "v2"));
        long firstBatchMicros =
                IGGY.readAll(stream, "log", 0).get(2).header().timestamp().longValue();
        // Server timestamps are per send: let the clock pass a millisecond so that the second
        // batch can be addressed by a millisecond timestamp.
        long nextMillis = firstBatchMicros / 1000 + 2;
        waitUntil(
                "the clock passes " + nextMillis + " ms",
                Duration.ofSeconds(5),
                () -> System.currentTimeMillis() >= nextMillis);
        IGGY.send(stream, "log", 0, utf8("v3", "v4", "v5"));
        long secondBatchMillis =
                IGGY.readAll(stream, "log", 0).get(3).header().timestamp().longValue() / 1000;
        assertThat(secondBatchMillis).isGreaterThan(firstBatchMicros / 1000);
        String consumer = IGGY.uniqueName("consumer");
        IGGY.client()
                .consumerOffsets()
                .storeConsumerOffset(
                        StreamId.of(stream),
                        TopicId.of("log"),
                        Optional.of(0L),
                        Consumer.of(ConsumerId.of(consumer)),
                        BigInteger.TWO);

        assertThat(readLog("scan.startup.mode", "earliest-offset"))
                .containsExactly("v0", "v1", "v2", "v3", "v4", "v5");
        assertThat(readLog("scan.startup.mode", "latest-offset")).isEmpty();
        assertThat(readLog("scan.startup.mode", "committed-offset", "scan.consumer-name", consumer))
                .containsExactly("v3", "v4", "v5");
        assertThat(
                        readLog(
                                "scan.startup.mode",
                                "timestamp",
                                "scan.startup.timestamp-millis",
                                "" + secondBatchMillis))
                .containsExactly("v3", "v4", "v5");
        assertThat(
                        readLog(
                                "scan.startup.mode", "specific-offsets",
                                "scan.startup.specific-offsets", "partition:0,offset:4"))
                .containsExactly("v4", "v5");
        assertThat(
                        readLog(
                                "scan.startup.mode", "earliest-offset",
                                "scan.bounded.mode", "timestamp",
                                "scan.bounded.timestamp-millis", "" + secondBatchMillis))
                .containsExactly("v0", "v1", "v2");
        assertThat(
                        readLog(
                                "scan.startup.mode", "earliest-offset",
                                "scan.bounded.mode", "specific-offsets",
                                "scan.bounded.specific-offsets", "partition:0,offset:2"))
                .containsExactly("v0", "v1");
    }

    private List<String> readLog(String... options) throws Exception {
        String table = "log_" + Math.abs((long) Arrays.hashCode(options));
        List<String> all = new ArrayList<>(List.of("topic", "log", "format", "raw"));
        all.addAll(Arrays.asList(options));
        if (!all.contains("scan.bounded.mode")) {
            all.addAll(List.of("scan.bounded.mode", "latest-offset"));
        }
        createTable(table, "iggy", "v STRING", all.toArray(new String[0]));
        return collect("SELECT v FROM " + table).stream()
                .map(r -> (String) r.getField(0))
                .collect(Collectors.toList());
    }

    // ----- several topics ---------------------------------------------------------------------

    @Test
    void aTopicListAndATopicPatternAreReadWithEachRowsTopic() throws Exception {
        for (String topic : List.of("orders-eu", "orders-us", "audit")) {
            IGGY.createTopic(stream, topic, 2);
            IGGY.send(
                    stream,
                    topic,
                    1,
                    List.of(
                            (topic + "-a").getBytes(StandardCharsets.UTF_8),
                            (topic + "-b").getBytes(StandardCharsets.UTF_8)));
        }
        String columns = "v STRING, tpc STRING METADATA FROM 'topic' VIRTUAL";
        String[] bounded = {
            "format",
            "raw",
            "scan.startup.mode",
            "earliest-offset",
            "scan.bounded.mode",
            "latest-offset"
        };
        createTable("by_pattern", "iggy", columns, withAll(bounded, "topic-pattern", "orders-.*"));
        createTable("by_list", "iggy", columns, withAll(bounded, "topic", "orders-us;audit"));

        assertThat(rows("SELECT tpc, v FROM by_pattern"))
                .containsExactlyInAnyOrder(
                        "orders-eu:orders-eu-a",
                        "orders-eu:orders-eu-b",
                        "orders-us:orders-us-a",
                        "orders-us:orders-us-b");
        assertThat(rows("SELECT tpc, v FROM by_list"))
                .containsExactlyInAnyOrder(
                        "orders-us:orders-us-a",
                        "orders-us:orders-us-b",
                        "audit:audit-a",
                        "audit:audit-b");
        assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO by_pattern VALUES ('x')").await())
                .satisfies(
                        e ->
                                assertThat(ExceptionUtils.stringifyException(e))
                                        .contains(
                                                "'topic-pattern' on a sink table only allows the topics rows name"));
    }

    private static String[] withAll(String[] base, String... more) {
        String[] all = Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    private List<String> rows(String query) throws Exception {
        return collect(query).stream()
                .map(r -> r.getField(0) + ":" + r.getField(1))
                .collect(Collectors.toList());
    }

    // ----- watermarks -------------------------------------------------------------------------

    @Test
    void watermarkIsPushedIntoTheSourceAndClosesEventTimeWindows() throws Exception {
        IGGY.createTopic(stream, "clicks", 2);
        IGGY.send(stream, "clicks", 0, utf8("a", "b"));
        IGGY.send(stream, "clicks", 1, utf8("c"));
        createTable(
                "clicks",
                "iggy",
                "v STRING, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,"
                        + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND",
                "topic",
                "clicks",
                "format",
                "raw",
                "scan.startup.mode",
                "earliest-offset",
                "scan.bounded.mode",
                "latest-offset");
        String query =
                "SELECT window_start, COUNT(*) AS n FROM TABLE("
                        + "TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' HOUR))"
                        + " GROUP BY window_start, window_end";
        assertThat(tEnv.explainSql(query)).contains("watermark=[");
        long total = collect(query).stream().mapToLong(r -> (Long) r.getField("n")).sum();
        assertThat(total).isEqualTo(3);
    }

    // ----- upsert-iggy ------------------------------------------------------------------------

    @Test
    void upsertRoundTripReproducesTheTableIncludingDeletes() throws Exception {
        IGGY.createTopic(stream, "users", 2);
        createChangesView(
                Row.ofKind(RowKind.INSERT, "k1", "v1"),
                Row.ofKind(RowKind.INSERT, "k2", "v2"),
                Row.ofKind(RowKind.UPDATE_AFTER, "k1", "v1b"),
                Row.ofKind(RowKind.DELETE, "k2", "v2"),
                Row.ofKind(RowKind.INSERT, "k3", "v3"));
        createUpsertTable(
                "users",
                "json",
                "sink.partitioner",
                "key",
                "sink.parallelism",
                "1",
                "scan.startup.mode",
                "earliest-offset",
                "scan.bounded.mode",
                "latest-offset");
        tEnv.executeSql("INSERT INTO users SELECT id, name FROM changes").await();
        // Another producer's message without the key header: skipped by the keyed-map source.
        IGGY.send(stream, "users", 0, utf8("{\"id\":\"k9\",\"name\":\"no key header\"}"));

        List<Message> written = new ArrayList<>();
        written.addAll(IGGY.readAll(stream, "users", 0));
        written.addAll(IGGY.readAll(stream, "users", 1));
        List<Message> deletions =
                written.stream().filter(m -> m.payload().length == 0).collect(Collectors.toList());
        assertThat(deletions).hasSize(1);
        assertThat(headerText(deletions.get(0), IggyConnectorOptions.DEFAULT_KEY_HEADER))
                .isEqualTo("{\"id\":\"k2\"}");
        assertThat(headerText(deletions.get(0), IggyDeletionMessage.OP_HEADER))
                .isEqualTo(IggyDeletionMessage.OP_DELETE);

        assertThat(materialize(collect("SELECT * FROM users")))
                .isEqualTo(Map.of("k1", Row.of("k1", "v1b"), "k3", Row.of("k3", "v3")));
    }

    @Test
    void upsertHeaderDeletesRoundTripAndAnEmptyValueStaysARow() throws Exception {
        IGGY.createTopic(stream, "notes", 1);
        createChangesView(
                Row.ofKind(RowKind.INSERT, "a", "1"),
                Row.ofKind(RowKind.INSERT, "e", ""),
                Row.ofKind(RowKind.UPDATE_AFTER, "a", "2"),
                Row.ofKind(RowKind.INSERT, "b", "x"),
                Row.ofKind(RowKind.DELETE, "b", "x"));
        // Default delete encoding: 'header'.
        createUpsertTable(
                "notes",
                "raw",
                "value.fields-include",
                "EXCEPT_KEY",
                "sink.parallelism",
                "1",
                "scan.startup.mode",
                "earliest-offset",
                "scan.bounded.mode",
                "latest-offset");
        tEnv.executeSql("INSERT INTO notes SELECT id, name FROM changes").await();

        // The empty value and the deletion both have an empty payload; only the deletion is
        // marked by flink.op = d.
        List<Message> empty =
                IGGY.readAll(stream, "notes", 0).stream()
                        .filter(m -> m.payload().length == 0)
                        .collect(Collectors.toList());
        // Keys are not ordered among each other (the changes are read in parallel): find each.
        assertThat(empty).hasSize(2);
        Message emptyValue =
                headerText(empty.get(0), "flink.key").equals("e") ? empty.get(0) : empty.get(1);
        Message deletion = emptyValue == empty.get(0) ? empty.get(1) : empty.get(0);
        assertThat(headerText(emptyValue, "flink.key")).isEqualTo("e");
        assertThat(emptyValue.userHeaders()).doesNotContainKey(HeaderKey.fromString("flink.op"));
        assertThat(headerText(deletion, "flink.key")).isEqualTo("b");
        assertThat(headerText(deletion, "flink.op")).isEqualTo("d");

        assertThat(materialize(collect("SELECT * FROM notes")))
                .isEqualTo(Map.of("a", Row.of("a", "2"), "e", Row.of("e", "")));
    }

    @Test
    void upsertWritesHeadersAndOriginTimestampReadBackByTheIggyConnector() throws Exception {
        IGGY.createTopic(stream, "tagged", 1);
        createChangesView(
                Row.ofKind(RowKind.INSERT, "a", "1"),
                Row.ofKind(RowKind.INSERT, "b", "2"),
                Row.ofKind(RowKind.DELETE, "b", "2"));
        createTable(
                "tagged",
                "upsert-iggy",
                "id STRING NOT NULL, name STRING,"
                        + " hdrs MAP<STRING, BYTES> METADATA FROM 'headers',"
                        + " ots TIMESTAMP_LTZ(6) METADATA FROM 'origin-timestamp',"
                        + " PRIMARY KEY (id) NOT ENFORCED",
                "topic",
                "tagged",
                "key.format",
                "raw",
                "value.format",
                "raw",
                "value.fields-include",
                "EXCEPT_KEY",
                "sink.parallelism",
                "1");
        tEnv.executeSql(
                        "INSERT INTO tagged SELECT id, name, MAP['src', ENCODE(name, 'UTF-8')],"
                                + " TO_TIMESTAMP_LTZ(1700000000123, 3) FROM changes")
                .await();
        createTable(
                "tagged_log",
                "iggy",
                "v STRING, hdrs MAP<STRING, BYTES> METADATA FROM 'headers',"
                        + " ots TIMESTAMP_LTZ(6) METADATA FROM 'origin-timestamp'",
                "topic",
                "tagged",
                "format",
                "raw",
                "scan.startup.mode",
                "earliest-offset",
                "scan.bounded.mode",
                "latest-offset");

        List<Row> log = collect("SELECT v, hdrs, ots FROM tagged_log");
        assertThat(log).hasSize(3);
        List<Map<String, String>> headers = new ArrayList<>();
        for (Row row : log) {
            assertThat(row.getField("ots")).isEqualTo(Instant.ofEpochMilli(1700000000123L));
            Map<String, String> h = new TreeMap<>();
            ((Map<?, ?>) row.getField("hdrs"))
                    .forEach(
                            (k, v) ->
                                    h.put(
                                            (String) k,
                                            new String((byte[]) v, StandardCharsets.UTF_8)));
            headers.add(h);
        }
        assertThat(headers)
                .containsExactly(
                        Map.of("flink.key", "a", "src", "1"),
                        Map.of("flink.key", "b", "src", "2"),
                        Map.of("flink.key", "b", "src", "2", "flink.op", "d"));
    }

    @Test
    void upsertWithCustomDeletePayloadAndUnchangedRowsSendNothing() throws Exception {
        IGGY.createTopic(stream, "items", 1);
        createChangesView(
                Row.ofKind(RowKind.INSERT, "a", "1"),
                Row.ofKind(RowKind.UPDATE_AFTER, "a", "1"),
                Row.ofKind(RowKind.UPDATE_AFTER, "a", "2"),
                Row.ofKind(RowKind.INSERT, "b", "1"),
                Row.ofKind(RowKind.DELETE, "b", "1"));
        createUpsertTable(
                "items",
                "csv",
                "delete.encoding",
                "custom-payload",
                "delete.payload",
                "__deleted__",
                "scan.startup.mode",
                "earliest-offset",
                "scan.bounded.mode",
                "latest-offset");
        tEnv.executeSql("INSERT INTO items SELECT id, name FROM changes").await();

        List<String> payloads =
                IGGY.readAll(stream, "items", 0).stream()
                        .map(m -> new String(m.payload(), StandardCharsets.UTF_8).trim())
                        .collect(Collectors.toList());
        // a=1 once (its repetition is unchanged), a=2, b=1, b deleted: in order per key (keys are
        // not ordered among each other, the changes are read in parallel).
        assertThat(payloads.stream().filter(p -> p.startsWith("a,"))).containsExactly("a,1", "a,2");
        assertThat(payloads.stream().filter(p -> !p.startsWith("a,")))
                .containsExactly("b,1", "__deleted__");

        assertThat(materialize(collect("SELECT * FROM items")))
                .isEqualTo(Map.of("a", Row.of("a", "2")));
    }

    @Test
    void upsertSinkSendsNothingForUnchangedRows() throws Exception {
        IGGY.createTopic(stream, "prices", 1);
        // Insert-only input: nothing upstream of the sink can drop the repetitions.
        createChangesView(
                ChangelogMode.insertOnly(),
                Row.of("a", "1"),
                Row.of("a", "1"),
                Row.of("a", "2"),
                Row.of("b", "1"),
                Row.of("a", "2"),
                Row.of("b", "1"));
        createUpsertTable(
                "prices", "raw", "value.fields-include", "EXCEPT_KEY", "sink.parallelism", "1");
        tEnv.executeSql("INSERT INTO prices SELECT id, name FROM changes").await();
        assertThat(
                        IGGY.readAll(stream, "prices", 0).stream()
                                .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                                .collect(Collectors.toList()))
                .containsExactly("1", "2", "1");
    }

    @Test
    void upsertWithoutDeleteEncodingRefusesDeletesAtPlanning() {
        IGGY.createTopic(stream, "strict", 1);
        createChangesView(
                Row.ofKind(RowKind.INSERT, "a", "1"), Row.ofKind(RowKind.DELETE, "a", "1"));
        createUpsertTable("strict", "raw", "delete.encoding", "none");
        assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO strict SELECT * FROM changes"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "Iggy does not support Kafka-style tombstones."
                                                        + " Provide 'delete.encoding' ="
                                                        + " 'header', 'empty-payload' or"
                                                        + " 'custom-payload'"));
        assertThat(IGGY.readAll(stream, "strict", 0)).isEmpty();
    }

    @Test
    void invalidOptionsFailThePlanWithTheOptionTheAllowedValuesAndNoSecret() {
        IGGY.createTopic(stream, "any", 1);
        createTable(
                "bad",
                "iggy",
                "v STRING",
                "topic",
                "any",
                "format",
                "raw",
                "password",
                "Sup3r-Secret-PW",
                "scan.startup.mode",
                "from-the-start");
        assertThatThrownBy(() -> tEnv.executeSql("SELECT * FROM bad"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("scan.startup.mode")
                                        .contains("earliest-offset")
                                        .contains("'password'='******'")
                                        .doesNotContain("Sup3r-Secret-PW"));
        createTable(
                "planned",
                "iggy",
                "v STRING",
                "topic",
                "any",
                "format",
                "raw",
                "password",
                "Sup3r-Secret-PW");
        assertThat(tEnv.explainSql("SELECT * FROM planned"))
                .contains("planned")
                .doesNotContain("Sup3r-Secret-PW");
    }

    /**
     * SHOW CREATE TABLE prints every option in clear, so credentials can stay out of the DDL: they
     * come from the session's Flink configuration (or the environment).
     */
    @Test
    void credentialsFromTheFlinkConfigurationKeepTheDdlFreeOfSecrets() throws Exception {
        IGGY.createTopic(stream, "no_secrets", 1);
        tEnv.getConfig().set("iggy.username", IGGY.username());
        tEnv.getConfig().set("iggy.password", IGGY.password());
        tEnv.executeSql(
                "CREATE TEMPORARY TABLE no_secrets (v STRING) WITH ("
                        + "'connector' = 'iggy', 'format' = 'raw', "
                        + ("'address' = '" + IGGY.address() + "', ")
                        + ("'stream' = '" + stream + "', 'topic' = 'no_secrets', ")
                        + "'scan.startup.mode' = 'earliest-offset', "
                        + "'scan.bounded.mode' = 'latest-offset')");

        tEnv.executeSql("INSERT INTO no_secrets VALUES ('a'), ('b')").await();
        List<String> read = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql("SELECT v FROM no_secrets").collect()) {
            it.forEachRemaining(row -> read.add((String) row.getField(0)));
        }
        String shown =
                tEnv.executeSql("SHOW CREATE TABLE no_secrets")
                        .collect()
                        .next()
                        .getField(0)
                        .toString();

        assertThat(read).containsExactly("a", "b");
        assertThat(shown)
                .contains("'address' = '" + IGGY.address() + "'")
                .doesNotContain("password")
                .doesNotContain("username");

        // The configuration really is where the credentials come from.
        tEnv.getConfig().set("iggy.username", "not-a-user-of-this-server");
        assertThat(
                        org.assertj.core.api.Assertions.catchThrowable(
                                () -> tEnv.executeSql("SELECT v FROM no_secrets").await()))
                .rootCause()
                .hasMessageContaining("Cannot log in to Iggy")
                .hasMessageContaining("user 'not-a-user-of-this-server'");
    }

    /** The SQL client shows only the root cause: it must name the SQL option, not a method. */
    @Test
    void anUndecodableMessageFailsTheQueryNamingTheSqlSkipOption() {
        IGGY.createTopic(stream, "bad_json", 1);
        IGGY.send(stream, "bad_json", 0, List.of("not json".getBytes(StandardCharsets.UTF_8)));
        createTable(
                "bad_json",
                "iggy",
                "v STRING",
                "topic",
                "bad_json",
                "format",
                "json",
                "scan.startup.mode",
                "earliest-offset",
                "scan.bounded.mode",
                "latest-offset");

        Throwable failure =
                org.assertj.core.api.Assertions.catchThrowable(
                        () -> {
                            try (CloseableIterator<Row> it =
                                    tEnv.executeSql("SELECT * FROM bad_json").collect()) {
                                it.forEachRemaining(row -> {});
                            }
                        });

        assertThat(failure)
                .rootCause()
                .hasMessageContaining("Cannot deserialize the message at offset 0 of partition 0")
                .hasMessageContaining("'scan.skip-undecodable-records' = 'true'")
                .message()
                .doesNotContain("..");
    }

    // ----- helpers ------------------------------------------------------------------------------

    private void createTable(String name, String connector, String columns, String... options) {
        StringBuilder ddl =
                new StringBuilder("CREATE TEMPORARY TABLE ")
                        .append(name)
                        .append(" (")
                        .append(columns)
                        .append(") WITH (");
        Map<String, String> all = new TreeMap<>();
        all.put("connector", connector);
        all.put("address", IGGY.address());
        all.put("username", IGGY.username());
        all.put("password", IGGY.password());
        all.put("stream", stream);
        for (int i = 0; i < options.length; i += 2) {
            all.put(options[i], options[i + 1]);
        }
        ddl.append(
                all.entrySet().stream()
                        .map(e -> "'" + e.getKey() + "' = '" + e.getValue() + "'")
                        .collect(Collectors.joining(", ")));
        tEnv.executeSql(ddl.append(")").toString());
    }

    /** An upsert-iggy table (id, name) on the topic of its name; key and value in one format. */
    private void createUpsertTable(String name, String format, String... options) {
        String[] all = new String[6 + options.length];
        System.arraycopy(
                new String[] {"topic", name, "key.format", format, "value.format", format},
                0,
                all,
                0,
                6);
        System.arraycopy(options, 0, all, 6, options.length);
        createTable(
                name,
                "upsert-iggy",
                "id STRING NOT NULL, name STRING, PRIMARY KEY (id) NOT ENFORCED",
                all);
    }

    private void createChangesView(Row... changes) {
        createChangesView(ChangelogMode.upsert(), changes);
    }

    private void createChangesView(ChangelogMode mode, Row... changes) {
        Table table =
                tEnv.fromChangelogStream(
                        env.fromData(
                                        Types.ROW_NAMED(
                                                new String[] {"id", "name"},
                                                Types.STRING,
                                                Types.STRING),
                                        changes)
                                .setParallelism(1),
                        Schema.newBuilder()
                                .column("id", DataTypes.STRING().notNull())
                                .column("name", DataTypes.STRING())
                                .primaryKey("id")
                                .build(),
                        mode);
        tEnv.createTemporaryView("changes", table);
    }

    private List<Row> collect(String query) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    /** Applies a changelog to an empty table keyed by the first column. */
    private static Map<String, Row> materialize(List<Row> changelog) {
        Map<String, Row> table = new HashMap<>();
        for (Row change : changelog) {
            String key = (String) change.getField(0);
            switch (change.getKind()) {
                case INSERT:
                case UPDATE_AFTER:
                    Row copy = Row.copy(change);
                    copy.setKind(RowKind.INSERT);
                    table.put(key, copy);
                    break;
                case DELETE:
                    table.remove(key);
                    break;
                default:
                    break;
            }
        }
        return table;
    }

    private static String headerText(Message message, String key) {
        HeaderValue value = message.userHeaders().get(HeaderKey.fromString(key));
        assertThat(value).as("header " + key).isNotNull();
        return new String(value.value(), StandardCharsets.UTF_8);
    }

    private static List<byte[]> utf8(String... values) {
        return Arrays.stream(values)
                .map(v -> v.getBytes(StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }

    private static String messages(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append('\n');
        }
        return all.toString();
    }
}

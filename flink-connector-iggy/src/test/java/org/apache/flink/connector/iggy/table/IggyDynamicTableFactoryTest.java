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

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.IggySinkContext;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.IggySourceTestSupport;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.connector.iggy.source.internal.IggySourceConfig;
import org.apache.flink.connector.iggy.source.internal.TopicSubscription;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.DeleteEncoding;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.factories.TestFormatFactory;
import org.apache.flink.table.factories.utils.FactoryMocks;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.RowKind;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Option handling of the {@code iggy} and {@code upsert-iggy} factories, without a server. */
class IggyDynamicTableFactoryTest {

    private static final ResolvedSchema SCHEMA =
            ResolvedSchema.of(
                    Column.physical("id", DataTypes.STRING().notNull()),
                    Column.physical("name", DataTypes.STRING()),
                    Column.physical("amount", DataTypes.INT()));

    private static final ResolvedSchema PK_SCHEMA =
            new ResolvedSchema(
                    List.of(
                            Column.physical("id", DataTypes.STRING().notNull()),
                            Column.physical("name", DataTypes.STRING()),
                            Column.physical("amount", DataTypes.INT())),
                    Collections.emptyList(),
                    UniqueConstraint.primaryKey("pk", List.of("id")));

    private static final String SECRET_PASSWORD = "pw-Very-Secret-41";
    private static final String SECRET_TOKEN = "tok-Very-Secret-42";

    private static Map<String, String> appendOptions() {
        Map<String, String> options = new HashMap<>();
        options.put("connector", "iggy");
        options.put("address", "localhost:8090");
        options.put("username", "iggy");
        options.put("password", "iggy");
        options.put("stream", "s1");
        options.put("topic", "t1");
        options.put("format", TestFormatFactory.IDENTIFIER);
        options.put("test-format.delimiter", ",");
        return options;
    }

    private static Map<String, String> upsertOptions() {
        Map<String, String> options = new HashMap<>();
        options.put("connector", "upsert-iggy");
        options.put("address", "localhost:8090");
        options.put("username", "iggy");
        options.put("password", "iggy");
        options.put("stream", "s1");
        options.put("topic", "t1");
        options.put("key.format", TestFormatFactory.IDENTIFIER);
        options.put("key.test-format.delimiter", ",");
        options.put("value.format", TestFormatFactory.IDENTIFIER);
        options.put("value.test-format.delimiter", "|");
        return options;
    }

    private static Map<String, String> with(Map<String, String> base, String... keyValues) {
        Map<String, String> options = new HashMap<>(base);
        for (int i = 0; i < keyValues.length; i += 2) {
            if (keyValues[i + 1] == null) {
                options.remove(keyValues[i]);
            } else {
                options.put(keyValues[i], keyValues[i + 1]);
            }
        }
        return options;
    }

    private static IggyDynamicSource source(Map<String, String> options) {
        return (IggyDynamicSource) FactoryMocks.createTableSource(SCHEMA, options);
    }

    /** What the table source hands the public source builder. */
    private static IggySourceConfig sourceConfig(IggyDynamicSource source) {
        return IggySourceTestSupport.config(
                source.createSource(IggyRecordDeserializationSchema.payloads()));
    }

    private static IggyDynamicSink sink(Map<String, String> options) {
        return (IggyDynamicSink) FactoryMocks.createTableSink(SCHEMA, options);
    }

    // ----- source -------------------------------------------------------------------------------

    @Test
    void sourceDefaults() {
        IggyDynamicSource source = source(appendOptions());
        IggySourceConfig config = sourceConfig(source);
        assertThat(config.connection())
                .isEqualTo(
                        IggyConnectionConfig.builder()
                                .setAddress("localhost:8090")
                                .setCredentials("iggy", "iggy")
                                .build());
        assertThat(config.subscription())
                .isEqualTo(
                        new TopicSubscription.TopicList(IggyId.of("s1"), List.of(IggyId.of("t1"))));
        assertThat(config.consumerName()).isEqualTo("flink-default.default.t1");
        assertThat(config.startingOffsets()).isEqualTo(IggyStartingOffsets.committed());
        assertThat(config.stoppingOffsets()).isNull();
        assertThat(config.fixedPollBatchSize()).as("sized by the message size").isZero();
        assertThat(config.pollInterval()).isEqualTo(Duration.ofMillis(150));
        assertThat(config.pollMinInterval()).isEqualTo(Duration.ofMillis(150));
        assertThat(config.pollBackOff())
                .as("250 poll intervals")
                .isEqualTo(Duration.ofMillis(37_500));
        assertThat(config.partitionDiscoveryInterval()).isNull();
        assertThat(source.parallelism()).isNull();
        assertThat(source.getChangelogMode()).isEqualTo(ChangelogMode.insertOnly());
        assertThat(source.deletion()).isNull();
        assertThat(source.listReadableMetadata())
                .containsOnlyKeys(
                        "stream",
                        "topic",
                        "partition",
                        "offset",
                        "timestamp",
                        "origin-timestamp",
                        "message-id",
                        "checksum",
                        "headers");
        assertThat(source.copy()).isEqualTo(source);
    }

    @Test
    void sourceWithEveryScanOption() {
        IggyDynamicSource source =
                source(
                        with(
                                appendOptions(),
                                "address",
                                "iggy.example:9090",
                                "username",
                                "reader",
                                "password",
                                SECRET_PASSWORD,
                                "connect.timeout",
                                "3 s",
                                "request.timeout",
                                "7 s",
                                "scan.consumer-name",
                                "my-consumer",
                                "scan.poll.batch-size",
                                "17",
                                "scan.poll.interval",
                                "250 ms",
                                "scan.poll.min-interval",
                                "5 ms",
                                "scan.poll.back-off",
                                "10 s",
                                "scan.partition-discovery.interval",
                                "1 min",
                                "scan.skip-undecodable-records",
                                "true",
                                "scan.recreated-topic.read-from-start",
                                "true",
                                "scan.parallelism",
                                "3"));
        IggySourceConfig config = sourceConfig(source);
        assertThat(config.connection())
                .isEqualTo(
                        IggyConnectionConfig.builder()
                                .setAddress("iggy.example:9090")
                                .setCredentials("reader", SECRET_PASSWORD)
                                .setConnectTimeout(Duration.ofSeconds(3))
                                .setRequestTimeout(Duration.ofSeconds(7))
                                .build());
        assertThat(config.consumerName()).isEqualTo("my-consumer");
        assertThat(config.fixedPollBatchSize()).isEqualTo(17);
        assertThat(config.pollInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.pollMinInterval()).isEqualTo(Duration.ofMillis(5));
        assertThat(config.pollBackOff()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.partitionDiscoveryInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(config.skipUndecodableRecords()).isTrue();
        assertThat(config.recreatedTopicReadFromStart()).isTrue();
        assertThat(source.parallelism()).isEqualTo(3);
    }

    /** The planner reuses and deduplicates sources by equality: every read setting counts. */
    @Test
    void sourcesAreEqualExactlyWhenTheirOptionsAre() {
        IggyDynamicSource source = source(appendOptions());
        assertThat(source(appendOptions())).isEqualTo(source).hasSameHashCodeAs(source);
        for (String[] changed :
                new String[][] {
                    {"password", "other"},
                    {"scan.consumer-name", "other"},
                    {"scan.startup.mode", "earliest-offset"},
                    {"scan.bounded.mode", "latest-offset"},
                    {"scan.poll.batch-size", "7"},
                    {"scan.poll.interval", "1 s"},
                    {"scan.poll.min-interval", "5 ms"},
                    {"scan.partition-discovery.interval", "1 min"},
                    {"scan.skip-undecodable-records", "true"},
                    {"scan.recreated-topic.read-from-start", "true"},
                    {"scan.parallelism", "2"}
                }) {
            assertThat(source(with(appendOptions(), changed))).as(changed[0]).isNotEqualTo(source);
        }
        IggyDynamicSource upsert =
                (IggyDynamicSource) FactoryMocks.createTableSource(PK_SCHEMA, upsertOptions());
        assertThat(
                        FactoryMocks.createTableSource(
                                PK_SCHEMA,
                                with(upsertOptions(), "delete.encoding", "empty-payload")))
                .isNotEqualTo(upsert);
    }

    static Stream<Object[]> startupModes() {
        return Stream.of(
                new Object[] {
                    new String[] {"scan.startup.mode", "earliest-offset"},
                    IggyStartingOffsets.earliest()
                },
                new Object[] {
                    new String[] {"scan.startup.mode", "latest-offset"},
                    IggyStartingOffsets.latest()
                },
                new Object[] {
                    new String[] {"scan.startup.mode", "committed-offset"},
                    IggyStartingOffsets.committed(IggyStartingOffsets.CommittedFallback.EARLIEST)
                },
                new Object[] {
                    new String[] {
                        "scan.startup.mode",
                        "committed-offset",
                        "scan.startup.committed-offset.fallback",
                        "fail"
                    },
                    IggyStartingOffsets.committed(IggyStartingOffsets.CommittedFallback.FAIL)
                },
                new Object[] {
                    new String[] {
                        "scan.startup.committed-offset.fallback", "latest-offset",
                    },
                    IggyStartingOffsets.committed(IggyStartingOffsets.CommittedFallback.LATEST)
                },
                new Object[] {
                    new String[] {
                        "scan.startup.mode",
                        "timestamp",
                        "scan.startup.timestamp-millis",
                        "1700000000000"
                    },
                    IggyStartingOffsets.timestamp(1_700_000_000_000L)
                },
                new Object[] {
                    new String[] {
                        "scan.startup.mode",
                        "specific-offsets",
                        "scan.startup.specific-offsets",
                        "partition:0,offset:42; partition:2,offset:7"
                    },
                    IggyStartingOffsets.specific(Map.of(0L, 42L, 2L, 7L))
                });
    }

    @ParameterizedTest
    @MethodSource("startupModes")
    void startupModes(String[] options, IggyStartingOffsets expected) {
        assertThat(sourceConfig(source(with(appendOptions(), options))).startingOffsets())
                .isEqualTo(expected);
    }

    static Stream<Object[]> boundedModes() {
        return Stream.of(
                new Object[] {new String[] {"scan.bounded.mode", "unbounded"}, null},
                new Object[] {
                    new String[] {"scan.bounded.mode", "latest-offset"},
                    IggyStoppingOffsets.latest()
                },
                new Object[] {
                    new String[] {
                        "scan.bounded.mode", "timestamp", "scan.bounded.timestamp-millis", "1234"
                    },
                    IggyStoppingOffsets.timestamp(1234)
                },
                new Object[] {
                    new String[] {
                        "scan.bounded.mode",
                        "specific-offsets",
                        "scan.bounded.specific-offsets",
                        "partition:1,offset:10"
                    },
                    IggyStoppingOffsets.specific(Map.of(1L, 10L))
                });
    }

    @ParameterizedTest
    @MethodSource("boundedModes")
    void boundedModes(String[] options, @Nullable IggyStoppingOffsets expected) {
        assertThat(sourceConfig(source(with(appendOptions(), options))).stoppingOffsets())
                .isEqualTo(expected);
    }

    @Test
    void keyFieldsWithPrefix() {
        ResolvedSchema schema =
                ResolvedSchema.of(
                        Column.physical("k_id", DataTypes.STRING()),
                        Column.physical("name", DataTypes.STRING()));
        Map<String, String> options =
                with(
                        appendOptions(),
                        "key.format",
                        TestFormatFactory.IDENTIFIER,
                        "key.test-format.delimiter",
                        ";",
                        "key.fields",
                        "k_id",
                        "key.fields-prefix",
                        "k_",
                        "value.fields-include",
                        "EXCEPT_KEY");
        IggyDynamicSource source =
                (IggyDynamicSource) FactoryMocks.createTableSource(schema, options);
        IggyDynamicSink sink = (IggyDynamicSink) FactoryMocks.createTableSink(schema, options);
        // The key format sees the column without the prefix, the value format only 'name'.
        assertThat(
                        IggyTableShape.formatDataType(
                                        schema.toPhysicalRowDataType(), new int[] {0}, "k_")
                                .toString())
                .contains("`id`");
        assertThat(source.copy()).isEqualTo(source);
        assertThat(sink.copy()).isEqualTo(sink);
    }

    // ----- sink ---------------------------------------------------------------------------------

    @Test
    void sinkDefaults() {
        IggyDynamicSink sink = sink(appendOptions());
        assertThat(runtimeSink(sink).toString())
                .startsWith("IggySink{")
                .contains("localhost:8090")
                .contains(
                        "deliveryGuarantee=at-least-once, batchSize=by bytes, maxBatchBytes=1048576,"
                                + " linger=PT0.005S, maxInFlightRequests=10}");
        assertThat(runtimeProvider(sink).getParallelism()).isEmpty();
        assertThat(sink.getChangelogMode(ChangelogMode.insertOnly()))
                .isEqualTo(ChangelogMode.insertOnly());
        assertThat(sink.listWritableMetadata())
                .containsOnlyKeys(
                        "headers", "message-id", "origin-timestamp", "partition", "topic");
        assertThat(sink.copy()).isEqualTo(sink);
    }

    @Test
    void anExactlyOnceSinkSyncsBeforeDeletingUnlessTurnedOff() {
        Map<String, String> exactlyOnce =
                with(appendOptions(), "sink.delivery-guarantee", "exactly-once");
        assertThat(runtimeSink(sink(exactlyOnce)).toString()).contains("fsyncBeforeDelete=true}");
        assertThat(
                        runtimeSink(
                                        sink(
                                                with(
                                                        exactlyOnce,
                                                        "sink.exactly-once.fsync-before-delete",
                                                        "false")))
                                .toString())
                .contains("fsyncBeforeDelete=false}");
    }

    @Test
    void sinkWithEveryOption() {
        IggyDynamicSink sink =
                sink(
                        with(
                                appendOptions(),
                                "sink.partitioner",
                                "fixed",
                                "sink.partition",
                                "3",
                                "sink.delivery-guarantee",
                                "none",
                                "sink.batch-size",
                                "10",
                                "sink.max-batch-bytes",
                                "2048",
                                "sink.linger",
                                "20 ms",
                                "sink.max-in-flight-requests",
                                "2",
                                "sink.parallelism",
                                "2"));
        assertThat(runtimeSink(sink).toString())
                .contains(
                        "deliveryGuarantee=none, batchSize=10, maxBatchBytes=2048,"
                                + " linger=PT0.02S, maxInFlightRequests=2}");
        assertThat(runtimeProvider(sink).getParallelism()).contains(2);
        assertThat(sink)
                .isNotEqualTo(sink(with(appendOptions(), "sink.max-in-flight-requests", "3")));

        assertThat(runtimeSink(sink(with(appendOptions(), "sink.partitioner", "round-robin"))))
                .isInstanceOf(IggySink.class);
        assertThat(
                        runtimeSink(
                                sink(
                                        with(
                                                appendOptions(),
                                                "sink.partitioner",
                                                FirstPartition.class.getName()))))
                .isInstanceOf(IggySink.class);
    }

    private static IggyDynamicSink.UidSinkProvider runtimeProvider(IggyDynamicSink sink) {
        return (IggyDynamicSink.UidSinkProvider) sink.getSinkRuntimeProvider(new TestSinkContext());
    }

    private static Sink<RowData> runtimeSink(IggyDynamicSink sink) {
        return runtimeProvider(sink).sink();
    }

    /** What the planner tells a sink; the test formats need nothing of it. */
    private static final class TestSinkContext implements DynamicTableSink.Context {
        @Override
        public boolean isBounded() {
            return false;
        }

        @Override
        public <T> TypeInformation<T> createTypeInformation(DataType consumedDataType) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <T> TypeInformation<T> createTypeInformation(LogicalType consumedLogicalType) {
            throw new UnsupportedOperationException();
        }

        @Override
        public DynamicTableSink.DataStructureConverter createDataStructureConverter(
                DataType consumedDataType) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<int[][]> getTargetColumns() {
            return Optional.empty();
        }
    }

    /** A custom partitioner, loaded by class name. */
    public static final class FirstPartition implements IggyPartitioner<RowData> {
        @Override
        public long partition(
                RowData record, @Nullable byte[] key, byte[] payload, IggySinkContext context) {
            return 0;
        }
    }

    // ----- upsert
    // ---------------------------------------------------------------------------------

    @Test
    void upsertSourceAndSink() {
        IggyDynamicSource source =
                (IggyDynamicSource) FactoryMocks.createTableSource(PK_SCHEMA, upsertOptions());
        assertThat(source.getChangelogMode()).isEqualTo(ChangelogMode.upsert());
        assertThat(source.deletion())
                .as("'header' is the default delete encoding")
                .isEqualTo(IggyDeletionMessage.of(DeleteEncoding.HEADER, null));

        IggyDynamicSink sink =
                (IggyDynamicSink) FactoryMocks.createTableSink(PK_SCHEMA, upsertOptions());
        assertThat(sink.getChangelogMode(ChangelogMode.all())).isEqualTo(ChangelogMode.upsert());
        assertThat(sink.listWritableMetadata())
                .as("message ids and partitions belong to the reconciliation")
                .containsOnlyKeys("headers", "origin-timestamp", "topic");
        assertThat(runtimeSink(sink).toString()).contains("idempotentWrites=false, stateTtl=null");
        IggyDynamicSink configured =
                (IggyDynamicSink)
                        FactoryMocks.createTableSink(
                                PK_SCHEMA,
                                with(
                                        upsertOptions(),
                                        "sink.idempotent-writes",
                                        "true",
                                        "sink.state-ttl",
                                        "7 d",
                                        "sink.max-batch-bytes",
                                        "100",
                                        "sink.max-in-flight-requests",
                                        "1"));
        assertThat(runtimeSink(configured).toString())
                .contains("maxBatchBytes=100, linger=PT0.005S, maxInFlightRequests=1}")
                .contains(
                        "partition=0, keyHeader=flink.key, idempotentWrites=true, stateTtl=PT168H");

        IggyDynamicSource custom =
                (IggyDynamicSource)
                        FactoryMocks.createTableSource(
                                PK_SCHEMA,
                                with(
                                        upsertOptions(),
                                        "delete.encoding",
                                        "custom-payload",
                                        "delete.payload",
                                        "DELETED"));
        assertThat(custom.deletion())
                .isEqualTo(IggyDeletionMessage.of(DeleteEncoding.CUSTOM_PAYLOAD, "DELETED"));

        IggyDynamicSource none =
                (IggyDynamicSource)
                        FactoryMocks.createTableSource(
                                PK_SCHEMA, with(upsertOptions(), "delete.encoding", "none"));
        assertThat(none.deletion().isEncoded()).isFalse();
    }

    @Test
    void upsertSinkWithoutDeleteEncodingRefusesDeletesAtPlanning() {
        IggyDynamicSink sink =
                (IggyDynamicSink)
                        FactoryMocks.createTableSink(
                                PK_SCHEMA, with(upsertOptions(), "delete.encoding", "none"));
        assertThat(
                        sink.getChangelogMode(
                                ChangelogMode.newBuilder()
                                        .addContainedKind(RowKind.INSERT)
                                        .addContainedKind(RowKind.UPDATE_AFTER)
                                        .build()))
                .isEqualTo(ChangelogMode.upsert());
        assertThatThrownBy(() -> sink.getChangelogMode(ChangelogMode.all()))
                .hasMessageContaining("Iggy does not support Kafka-style tombstones. Provide")
                .hasMessageContaining(
                        "'delete.encoding' = 'header', 'empty-payload' or 'custom-payload'");
    }

    // ----- several topics -----------------------------------------------------------------------

    @Test
    void aSourceTableReadsATopicList() {
        for (String connector : List.of("iggy", "upsert-iggy")) {
            boolean upsert = connector.equals("upsert-iggy");
            IggySourceConfig config =
                    sourceConfig(
                            (IggyDynamicSource)
                                    FactoryMocks.createTableSource(
                                            upsert ? PK_SCHEMA : SCHEMA,
                                            with(
                                                    upsert ? upsertOptions() : appendOptions(),
                                                    "topic",
                                                    "orders; payments;refunds")));
            assertThat(config.subscription())
                    .as(connector)
                    .isEqualTo(
                            new TopicSubscription.TopicList(
                                    IggyId.of("s1"),
                                    List.of(
                                            IggyId.of("orders"),
                                            IggyId.of("payments"),
                                            IggyId.of("refunds"))));
        }
    }

    @Test
    void aSourceTableReadsTopicAndStreamPatterns() {
        IggySourceConfig topics =
                sourceConfig(
                        source(
                                with(
                                        appendOptions(),
                                        "topic",
                                        null,
                                        "topic-pattern",
                                        "orders-.*",
                                        "scan.deleted-topic.skip",
                                        "true")));
        assertThat(topics.subscription())
                .isEqualTo(new TopicSubscription.TopicSearch("\\Qs1\\E", "orders-.*"));
        assertThat(topics.deletedTopicSkip()).isTrue();

        IggySourceConfig streams =
                sourceConfig(
                        source(
                                with(
                                        appendOptions(),
                                        "stream",
                                        null,
                                        "stream-pattern",
                                        "tenant-.*",
                                        "topic",
                                        "events")));
        assertThat(streams.subscription())
                .isEqualTo(new TopicSubscription.TopicSearch("tenant-.*", "\\Qevents\\E"));
        assertThat(source(with(appendOptions(), "topic", "a;b")).asSummaryString())
                .contains("stream 's1', topic 'a;b'");
    }

    @Test
    void aSourceTableNamesEveryConflictOfItsStreamsAndTopicsAtOnce() {
        String messages =
                messages(
                        catchFailure(
                                () ->
                                        source(
                                                with(
                                                        appendOptions(),
                                                        "stream-pattern",
                                                        "tenant-(",
                                                        "topic-pattern",
                                                        "o.*"))));
        assertThat(messages)
                .contains("both 'stream' and 'stream-pattern' are set: choose one")
                .contains("both 'topic' and 'topic-pattern' are set: choose one")
                .contains("option 'stream-pattern' is not a regular expression");

        assertThat(
                        messages(
                                catchFailure(
                                        () ->
                                                source(
                                                        with(
                                                                appendOptions(),
                                                                "stream",
                                                                null,
                                                                "topic",
                                                                "a;a")))))
                .contains("'stream' (or 'stream-pattern') is required")
                .contains("'topic' = 'a;a' names a topic twice");
    }

    /** A persisted 'topic' metadata column: each row names its topic. */
    private static final ResolvedSchema ROUTED_SCHEMA =
            ResolvedSchema.of(
                    Column.physical("id", DataTypes.STRING().notNull()),
                    Column.physical("name", DataTypes.STRING()),
                    Column.metadata("tpc", DataTypes.STRING(), "topic", false));

    private static final ResolvedSchema ROUTED_PK_SCHEMA =
            new ResolvedSchema(
                    ROUTED_SCHEMA.getColumns(),
                    Collections.emptyList(),
                    UniqueConstraint.primaryKey("pk", List.of("id")));

    @Test
    void aSinkTableListsEveryTopicConflictAtOnce() {
        String messages =
                messages(
                        catchFailure(
                                () ->
                                        sink(
                                                with(
                                                        appendOptions(),
                                                        "stream",
                                                        null,
                                                        "stream-pattern",
                                                        "tenant-.*",
                                                        "topic",
                                                        "a;b",
                                                        "topic-pattern",
                                                        "o.*"))));
        assertThat(messages)
                .contains(
                        "'stream-pattern' applies to source tables only: a sink writes one stream")
                .contains("both 'topic' and 'topic-pattern' are set: choose one")
                .contains("which the table does not have");
        assertThat(messages(catchFailure(() -> sink(with(appendOptions(), "topic", "a;b")))))
                .contains(
                        "'topic' = 'a;b' lists several topics, which on a sink table only allows"
                                + " the topics rows name")
                .contains("writable 'topic' metadata column (`topic` STRING METADATA)");
        assertThat(
                        messages(
                                catchFailure(
                                        () ->
                                                sink(
                                                        with(
                                                                appendOptions(),
                                                                "topic",
                                                                null,
                                                                "topic-pattern",
                                                                "o.*")))))
                .contains("'topic-pattern' on a sink table only allows the topics rows name");
        assertThat(messages(catchFailure(() -> sink(with(appendOptions(), "topic", null)))))
                .contains("'topic' is required: a sink table writes one topic ('topic'), or the");
    }

    @Test
    void aWritableTopicColumnIsRefusedWhenTheTableNamesOneTopic() {
        for (Map<String, String> options : List.of(appendOptions(), upsertOptions())) {
            ResolvedSchema schema =
                    options.get("connector").equals("iggy") ? ROUTED_SCHEMA : ROUTED_PK_SCHEMA;
            assertThat(messages(catchFailure(() -> FactoryMocks.createTableSink(schema, options))))
                    .contains(
                            "'topic' = 't1' names one topic, which every row is written to, so the"
                                    + " writable 'topic' metadata column would be ignored")
                    .contains("declare it VIRTUAL");
        }
    }

    @Test
    void aWritableTopicColumnRoutesRowsOfATableWithATopicListAPatternOrNoTopic() {
        for (String[] topics :
                List.of(
                        new String[] {"topic", "a;b"},
                        new String[] {"topic", null, "topic-pattern", "o.*"},
                        new String[] {"topic", null})) {
            for (Map<String, String> base : List.of(appendOptions(), upsertOptions())) {
                ResolvedSchema schema =
                        base.get("connector").equals("iggy") ? ROUTED_SCHEMA : ROUTED_PK_SCHEMA;
                IggyDynamicSink sink =
                        (IggyDynamicSink) FactoryMocks.createTableSink(schema, with(base, topics));
                sink.applyWritableMetadata(List.of("topic"), ROUTED_SCHEMA.toSinkRowDataType());
                assertThat(sink.asSummaryString()).contains("the topic each row names");
                assertThat(runtimeSink(sink).toString())
                        .contains("stream 's1' (topics chosen per record)");
            }
        }
    }

    @Test
    void aRowNamesItsTopicWhichTheTableMustAllow() {
        IggyRowDataSerializationSchema.IggyRowRouting listed =
                IggyRowDataSerializationSchema.IggyRowRouting.byTopicColumn(
                        Configuration.fromMap(with(appendOptions(), "topic", "a;b")),
                        0,
                        "`cat`.`db`.`routed`");
        assertThat(listed.targetOf(GenericRowData.of(StringData.fromString("b"))))
                .isEqualTo(IggySinkTarget.of("s1", "b"));
        assertThatThrownBy(() -> listed.targetOf(GenericRowData.of(StringData.fromString("c"))))
                .isInstanceOf(IggyConfigurationException.class)
                .hasMessageContaining("names topic 'c'")
                .hasMessageContaining("`cat`.`db`.`routed`")
                .hasMessageContaining("it allows 'topic' = 'a;b'");
        assertThatThrownBy(() -> listed.targetOf(GenericRowData.of((Object) null)))
                .isInstanceOf(IggyConfigurationException.class)
                .hasMessageContaining("NULL 'topic' metadata column")
                .hasMessageContaining("`cat`.`db`.`routed`");
        IggyRowDataSerializationSchema.IggyRowRouting matching =
                IggyRowDataSerializationSchema.IggyRowRouting.byTopicColumn(
                        Configuration.fromMap(
                                with(appendOptions(), "topic", null, "topic-pattern", "o.*")),
                        0,
                        "routed");
        assertThat(matching.targetOf(GenericRowData.of(StringData.fromString("orders"))))
                .isEqualTo(IggySinkTarget.of("s1", "orders"));
        assertThatThrownBy(() -> matching.targetOf(GenericRowData.of(StringData.fromString("xo"))))
                .hasMessageContaining("names topic 'xo'")
                .hasMessageContaining("it allows 'topic-pattern' = 'o.*'");
        IggyRowDataSerializationSchema.IggyRowRouting any =
                IggyRowDataSerializationSchema.IggyRowRouting.byTopicColumn(
                        Configuration.fromMap(with(appendOptions(), "topic", null)), 0, "routed");
        assertThat(any.targetOf(GenericRowData.of(StringData.fromString("anything"))))
                .isEqualTo(IggySinkTarget.of("s1", "anything"));
        assertThatThrownBy(() -> any.targetOf(GenericRowData.of(StringData.fromString(""))))
                .hasMessageContaining("names topic ''");
        // each topic is checked once: a later row of it gets the same target, a refused one is
        // refused again
        assertThat(listed.targetOf(GenericRowData.of(StringData.fromString("b"))))
                .isSameAs(listed.targetOf(GenericRowData.of(StringData.fromString("b"))));
        assertThatThrownBy(() -> listed.targetOf(GenericRowData.of(StringData.fromString("c"))))
                .hasMessageContaining("names topic 'c'");
    }

    // ----- validation -------------------------------------------------------------------------

    static Stream<Object[]> invalidOptions() {
        return Stream.of(
                invalid(
                        "iggy",
                        new String[] {"scan.startup.mode", "beginning"},
                        "scan.startup.mode",
                        "earliest-offset, latest-offset, committed-offset, timestamp,"
                                + " specific-offsets"),
                invalid(
                        "iggy",
                        new String[] {"scan.bounded.mode", "forever"},
                        "scan.bounded.mode",
                        "unbounded, latest-offset, timestamp, specific-offsets"),
                invalid(
                        "iggy",
                        new String[] {"scan.startup.committed-offset.fallback", "none"},
                        "scan.startup.committed-offset.fallback",
                        "earliest-offset, latest-offset, fail"),
                invalid(
                        "iggy",
                        new String[] {"scan.startup.mode", "timestamp"},
                        "'scan.startup.timestamp-millis' is required for mode 'timestamp'"),
                invalid(
                        "iggy",
                        new String[] {"scan.startup.timestamp-millis", "1000"},
                        "'scan.startup.timestamp-millis' applies only when 'scan.startup.mode'"
                                + " is 'timestamp'"),
                invalid(
                        "iggy",
                        new String[] {"scan.startup.mode", "specific-offsets"},
                        "'scan.startup.specific-offsets' is required"),
                invalid(
                        "iggy",
                        new String[] {
                            "scan.startup.mode", "specific-offsets",
                            "scan.startup.specific-offsets", "0:42"
                        },
                        "'scan.startup.specific-offsets'",
                        "partition:<id>,offset:<offset>"),
                invalid(
                        "iggy",
                        new String[] {
                            "scan.startup.mode", "specific-offsets",
                            "scan.startup.specific-offsets",
                                    "partition:0,offset:1;partition:0,offset:2"
                        },
                        "partition 0 is listed twice"),
                invalid(
                        "iggy",
                        new String[] {"scan.bounded.mode", "timestamp"},
                        "'scan.bounded.timestamp-millis' is required"),
                invalid(
                        "iggy",
                        new String[] {"scan.bounded.specific-offsets", "partition:0,offset:1"},
                        "'scan.bounded.specific-offsets' applies only when 'scan.bounded.mode'"
                                + " is 'specific-offsets', but it is 'unbounded'"),
                invalid(
                        "iggy",
                        new String[] {"scan.bounded.timestamp-millis", "5"},
                        "'scan.bounded.timestamp-millis' applies only when 'scan.bounded.mode'"
                                + " is 'timestamp', but it is 'unbounded'"),
                invalid(
                        "iggy",
                        new String[] {"scan.bounded.mode", "specific-offsets"},
                        "'scan.bounded.specific-offsets' is required for mode 'specific-offsets'"),
                invalid(
                        "iggy",
                        new String[] {
                            "scan.startup.mode", "timestamp",
                            "scan.startup.timestamp-millis", "-1"
                        },
                        "'scan.startup.timestamp-millis' must be epoch milliseconds >= 0, but is"
                                + " -1"),
                invalid(
                        "iggy",
                        new String[] {
                            "scan.bounded.mode", "latest-offset",
                            "scan.partition-discovery.interval", "1 min"
                        },
                        "'scan.partition-discovery.interval' applies to unbounded scans only"),
                invalid(
                        "iggy",
                        new String[] {"scan.poll.batch-size", "0"},
                        "'scan.poll.batch-size' must be at least 1"),
                invalid(
                        "iggy",
                        new String[] {"scan.poll.interval", "0 ms"},
                        "'scan.poll.interval' must be positive"),
                invalid(
                        "iggy",
                        new String[] {"scan.poll.batch-size", "0", "scan.uid", " "},
                        "'scan.poll.batch-size' must be at least 1, but is 0; Option 'scan.uid'"
                                + " must not be blank"),
                invalid(
                        "iggy",
                        new String[] {"sink.batch-size", "0", "sink.max-in-flight-requests", "0"},
                        "'sink.batch-size' must be at least 1, but is 0; Option"
                                + " 'sink.max-in-flight-requests' must be at least 1, but is 0"),
                invalid(
                        "iggy",
                        new String[] {"scan.poll.min-interval", "1 s"},
                        "'scan.poll.min-interval' must be at most 'scan.poll.interval'"),
                invalid(
                        "iggy",
                        new String[] {
                            "scan.poll.min-interval", "4 ms",
                            "scan.poll.back-off", "0 s"
                        },
                        "'scan.poll.back-off' must be positive"),
                invalid(
                        "iggy",
                        new String[] {"scan.poll.back-off", "10 s"},
                        "'scan.poll.back-off' applies only when 'scan.poll.min-interval' is"
                                + " shorter than 'scan.poll.interval' (PT0.15S): set"
                                + " 'scan.poll.min-interval' or remove 'scan.poll.back-off'."),
                invalid(
                        "upsert-iggy",
                        new String[] {
                            "sink.delivery-guarantee", "exactly-once",
                            "sink.idempotent-writes", "true"
                        },
                        "'sink.delivery-guarantee' = 'exactly-once' chooses every message id",
                        "drop 'sink.idempotent-writes'"),
                invalid(
                        "iggy",
                        new String[] {"sink.delivery-guarantee", "sometimes"},
                        "sink.delivery-guarantee",
                        "exactly-once, at-least-once, none"),
                invalid(
                        "iggy",
                        new String[] {"sink.partitioner", "com.example.Missing"},
                        "'sink.partitioner' = 'com.example.Missing'",
                        "Allowed values: 'fixed', 'round-robin', 'key'"),
                invalid(
                        "iggy",
                        new String[] {"sink.partitioner", String.class.getName()},
                        "does not implement"),
                invalid(
                        "iggy",
                        new String[] {"sink.partitioner", "key"},
                        "'sink.partitioner' = 'key' needs key bytes"),
                invalid(
                        "iggy",
                        new String[] {"sink.partitioner", "round-robin", "sink.partition", "1"},
                        "'sink.partition' applies to 'sink.partitioner' = 'fixed' only"),
                invalid(
                        "iggy",
                        new String[] {"sink.partition", "-1"},
                        "'sink.partition' is a partition id"),
                invalid(
                        "iggy",
                        new String[] {"sink.max-batch-bytes", "0"},
                        "'sink.max-batch-bytes' must be at least 1, but is 0"),
                invalid(
                        "upsert-iggy",
                        new String[] {"sink.max-in-flight-requests", "0"},
                        "'sink.max-in-flight-requests' must be at least 1, but is 0"),
                invalid(
                        "iggy",
                        new String[] {"key.fields", "missing"},
                        "'key.fields' needs 'key.format'"),
                invalid(
                        "iggy",
                        new String[] {
                            "key.format", TestFormatFactory.IDENTIFIER,
                            "key.test-format.delimiter", ",",
                            "key.fields", "missing"
                        },
                        "'key.fields' names 'missing', which is not a physical column",
                        "[id, name, amount]"),
                invalid(
                        "iggy",
                        new String[] {
                            "key.format",
                            TestFormatFactory.IDENTIFIER,
                            "key.test-format.delimiter",
                            ","
                        },
                        "'key.format' needs 'key.fields'"),
                invalid(
                        "iggy",
                        new String[] {
                            "key.format", TestFormatFactory.IDENTIFIER,
                            "key.test-format.delimiter", ",",
                            "key.fields", "id",
                            "key.fields-prefix", "k_",
                            "value.fields-include", "EXCEPT_KEY"
                        },
                        "does not start with 'key.fields-prefix' = 'k_'"),
                invalid(
                        "iggy",
                        new String[] {
                            "key.format", TestFormatFactory.IDENTIFIER,
                            "key.test-format.delimiter", ",",
                            "key.fields", "id",
                            "key.fields-prefix", "i"
                        },
                        "'key.fields-prefix' requires 'value.fields-include' = 'EXCEPT_KEY'"),
                invalid(
                        "iggy",
                        new String[] {"value.fields-include", "SOME"},
                        "value.fields-include",
                        "ALL, EXCEPT_KEY"),
                invalid(
                        "iggy",
                        new String[] {"address", "no-port"},
                        "Invalid Iggy connection",
                        "'no-port' is not host:port"),
                invalid(
                        "iggy",
                        new String[] {"address", null},
                        "Missing required options",
                        "address"),
                invalid(
                        "upsert-iggy",
                        new String[] {"address", null},
                        "Missing required options",
                        "address"),
                invalid(
                        "iggy",
                        new String[] {"username", null},
                        "'password' is set but 'username' is not"),
                invalid("iggy", new String[] {"stream", null}, "stream"),
                invalid("iggy", new String[] {"delete.encoding", "none"}, "delete.encoding"),
                invalid(
                        "iggy",
                        new String[] {"sink.idempotent-writes", "true"},
                        "Unsupported options found for 'iggy'",
                        "sink.idempotent-writes"),
                invalid(
                        "iggy",
                        new String[] {"scan.consumer-name", " "},
                        "'scan.consumer-name': a consumer name has 1 to 255 characters"),
                invalid(
                        "upsert-iggy",
                        new String[] {"key.fields", "id"},
                        "Unsupported options found for 'upsert-iggy'",
                        "key.fields"),
                invalid(
                        "upsert-iggy",
                        new String[] {"sink.partitioner", "round-robin"},
                        "'sink.partitioner' = 'round-robin' for upsert-iggy",
                        "Allowed values: 'fixed', 'key'"),
                invalid(
                        "upsert-iggy",
                        new String[] {"sink.state-ttl", "0 s"},
                        "'sink.state-ttl' must be positive"),
                invalid(
                        "upsert-iggy",
                        new String[] {"delete.encoding", "custom-payload"},
                        "'delete.payload' is required when 'delete.encoding' is"
                                + " 'custom-payload'"),
                invalid(
                        "upsert-iggy",
                        new String[] {"delete.payload", "x"},
                        "'delete.payload' applies only when 'delete.encoding' is"
                                + " 'custom-payload'"),
                invalid(
                        "upsert-iggy",
                        new String[] {"delete.encoding", "tombstone"},
                        "delete.encoding",
                        "header, empty-payload, custom-payload, none"),
                invalid(
                        "upsert-iggy",
                        new String[] {
                            "value.test-format.changelog-mode", "I;UA;UB;D",
                        },
                        "upsert-iggy needs an insert-only value format"),
                invalid("upsert-iggy", new String[] {"key.format", null}, "key.format"));
    }

    private static Object[] invalid(String connector, String[] options, String... expected) {
        return new Object[] {connector, options, expected};
    }

    @ParameterizedTest
    @MethodSource("invalidOptions")
    void invalidOptionsFailWithTheOptionAndTheAllowedValues(
            String connector, String[] options, String[] expected) {
        boolean upsert = connector.equals("upsert-iggy");
        ResolvedSchema schema = upsert ? PK_SCHEMA : SCHEMA;
        Map<String, String> all =
                with(
                        with(upsert ? upsertOptions() : appendOptions(), options),
                        "password",
                        SECRET_PASSWORD,
                        "personal-access-token",
                        SECRET_TOKEN);
        boolean sinkOnly = String.join(" ", options).contains("sink.");
        Throwable failure =
                catchFailure(
                        () -> {
                            if (!sinkOnly) {
                                FactoryMocks.createTableSource(schema, all);
                            }
                            FactoryMocks.createTableSink(schema, all);
                        });
        String messages = messages(failure);
        for (String part : expected) {
            assertThat(messages).contains(part);
        }
        assertThat(messages).doesNotContain(SECRET_PASSWORD).doesNotContain(SECRET_TOKEN);
    }

    @Test
    void upsertNeedsAPrimaryKey() {
        assertThat(
                        messages(
                                catchFailure(
                                        () ->
                                                FactoryMocks.createTableSource(
                                                        SCHEMA, upsertOptions()))))
                .contains("upsert-iggy needs a PRIMARY KEY");
    }

    /** The connection of a source table with {@code options} in a session of that configuration. */
    private static IggyConnectionConfig connection(
            Map<String, String> options, Configuration flinkConfiguration) {
        return sourceConfig(
                        (IggyDynamicSource)
                                FactoryMocks.createTableSource(SCHEMA, options, flinkConfiguration))
                .connection();
    }

    /** Keeps secrets out of DDL: SHOW CREATE TABLE prints every option in clear. */
    @Test
    void credentialsMissingFromTheOptionsComeFromTheFlinkConfiguration() {
        Map<String, String> noCredentials =
                with(appendOptions(), "username", null, "password", null);
        Configuration flinkConfiguration = new Configuration();
        flinkConfiguration.setString("iggy.username", "from-config");
        flinkConfiguration.setString("iggy.password", SECRET_PASSWORD);

        IggyConnectionConfig connection = connection(noCredentials, flinkConfiguration);

        assertThat(connection.username()).contains("from-config");
        assertThat(connection.password()).contains(SECRET_PASSWORD);
    }

    @Test
    void aUsernameInTheOptionsTakesItsPasswordFromTheFlinkConfiguration() {
        Configuration flinkConfiguration = new Configuration();
        flinkConfiguration.setString("iggy.username", "ignored-user");
        flinkConfiguration.setString("iggy.password", SECRET_PASSWORD);

        IggyConnectionConfig connection =
                connection(
                        with(appendOptions(), "username", "reader", "password", null),
                        flinkConfiguration);

        assertThat(connection.username()).contains("reader");
        assertThat(connection.password()).contains(SECRET_PASSWORD);
    }

    @Test
    void aTokenInTheFlinkConfigurationIsUsedWhenTheOptionsNameNoCredentials() {
        Configuration flinkConfiguration = new Configuration();
        flinkConfiguration.setString("iggy.personal-access-token", SECRET_TOKEN);

        IggyConnectionConfig connection =
                connection(
                        with(appendOptions(), "username", null, "password", null),
                        flinkConfiguration);

        assertThat(connection.personalAccessToken()).contains(SECRET_TOKEN);
        assertThat(connection.toString()).doesNotContain(SECRET_TOKEN);
    }

    @Test
    void secretsAreMaskedInErrorsPlansAndToString() {
        Map<String, String> options =
                with(
                        appendOptions(),
                        "password",
                        SECRET_PASSWORD,
                        "personal-access-token",
                        SECRET_TOKEN);
        DynamicTableSource source = FactoryMocks.createTableSource(SCHEMA, options);
        DynamicTableSink sink = FactoryMocks.createTableSink(SCHEMA, options);
        for (Object shown :
                List.of(
                        source.asSummaryString(),
                        source.toString(),
                        sink.asSummaryString(),
                        sink.toString(),
                        sourceConfig((IggyDynamicSource) source).toString())) {
            assertThat(shown.toString())
                    .doesNotContain(SECRET_PASSWORD)
                    .doesNotContain(SECRET_TOKEN);
        }
        String error =
                messages(
                        catchFailure(
                                () ->
                                        FactoryMocks.createTableSource(
                                                SCHEMA, with(options, "unknown.option", "x"))));
        assertThat(error)
                .contains("unknown.option")
                .contains("'password'='******'")
                .contains("'personal-access-token'='******'")
                .doesNotContain(SECRET_PASSWORD)
                .doesNotContain(SECRET_TOKEN);
    }

    private static Throwable catchFailure(ThrowingRunnable action) {
        try {
            action.run();
        } catch (Throwable t) {
            return t;
        }
        throw new AssertionError("Expected a validation failure, but there was none");
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static String messages(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append('\n');
        }
        return all.toString();
    }
}

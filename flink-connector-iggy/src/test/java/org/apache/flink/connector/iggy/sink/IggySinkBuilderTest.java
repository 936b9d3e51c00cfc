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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.testutils.formats.DummyInitializationContext;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the sink builders make of their options, and how they report wrong ones. */
public class IggySinkBuilderTest {

    public static final IggyConnectionConfig CONNECTION =
            IggyConnectionConfig.builder()
                    .setAddress("127.0.0.1:8090")
                    .setCredentials("iggy", "iggy")
                    .build();

    /** A stream sink builder with everything required except the record's encoding. */
    public static <T> IggySinkBuilder<T> sinkTo(String stream, String topic) {
        return IggySink.<T>builder().setConnection(CONNECTION).setStream(stream).setTopic(topic);
    }

    @Test
    void defaultsToPayloadOnlyOnPartitionZeroWithServerIds() throws Exception {
        IggyRecordSerializationSchema<String> schema =
                IggySinkBuilderTest.<String>sinkTo("s", "t")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .build()
                        .recordSerializer();
        schema.open(new DummyInitializationContext(), new TestSinkContext(0, 2, 3, null));
        IggySinkRecord record = schema.serialize("héllo", new TestSinkContext(0, 2, 3, 1234L));
        assertThat(record.partition()).isZero();
        assertThat(new String(record.payload(), StandardCharsets.UTF_8)).isEqualTo("héllo");
        assertThat(record.headers().isEmpty()).isTrue();
        assertThat(record.messageId()).isNull();
        assertThat(record.originTimestampMicros()).isEqualTo(1_234_000L);
    }

    @Test
    void writesKeyHeaderHeadersIdAndKeyPartition() throws Exception {
        IggyRecordSerializationSchema<String> schema =
                IggySinkBuilderTest.<String>sinkTo("s", "t")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .setKeySerializationSchema(
                                s -> s.split("=")[0].getBytes(StandardCharsets.UTF_8))
                        .setKeyHeader("key")
                        .setPartitionByKey()
                        .setHeadersFunction(
                                s ->
                                        IggyHeaders.builder()
                                                .put("len", IggyHeaderValue.ofInt32(s.length()))
                                                .build())
                        .setMessageIdFunction(s -> BigInteger.valueOf(s.hashCode() & 0xFFFF))
                        .build()
                        .recordSerializer();
        schema.open(new DummyInitializationContext(), new TestSinkContext(0, 2, 3, null));
        IggySinkRecord record = schema.serialize("key-1=v", new TestSinkContext(0, 2, 3, null));
        assertThat(record.partition())
                .isEqualTo(
                        IggyPartitioner.partitionForKey(
                                "key-1".getBytes(StandardCharsets.UTF_8), 3));
        IggyHeaderValue key = record.headers().get("key").orElseThrow();
        assertThat(key.kind()).isEqualTo(IggyHeaderValue.Kind.RAW);
        assertThat(new String(key.bytes(), StandardCharsets.UTF_8)).isEqualTo("key-1");
        assertThat(record.headers().get("len").orElseThrow().asInt32()).isEqualTo(7);
        assertThat(record.messageId()).isEqualTo(BigInteger.valueOf("key-1=v".hashCode() & 0xFFFF));
        assertThat(record.originTimestampMicros()).isPositive();
    }

    @Test
    void buildNamesEveryMissingOrInconsistentOptionAtOnce() {
        assertThatThrownBy(() -> IggySink.<String>builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("setConnection")
                .hasMessageContaining("setStream")
                .hasMessageContaining("setTopic")
                .hasMessageContaining("setValueSerializationSchema");
        assertThatThrownBy(
                        () ->
                                IggySinkBuilderTest.<String>sinkTo("s", "t")
                                        .setValueSerializationSchema(new SimpleStringSchema())
                                        .setPartitionByKey()
                                        .setKeyHeader("k")
                                        .setBatchSize(0)
                                        .build())
                .hasMessageContaining("partitioning by key needs key bytes")
                .hasMessageContaining("the key header 'k' needs key bytes")
                .hasMessageContaining("the batch size must be at least 1, but is 0");
        assertThatThrownBy(
                        () ->
                                IggySinkBuilderTest.<String>sinkTo("s", "t")
                                        .setValueSerializationSchema(new SimpleStringSchema())
                                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                                        .setMessageIdFunction(s -> BigInteger.ONE)
                                        .build())
                .hasMessageContaining("chooses every message id itself")
                .hasMessageContaining("drop setMessageIdFunction");
        assertThatThrownBy(
                        () ->
                                IggySinkBuilderTest.<String>sinkTo("s", "t")
                                        .setRecordSerializer((element, context) -> null)
                                        .setValueSerializationSchema(new SimpleStringSchema())
                                        .setPartition(2)
                                        .build())
                .hasMessageContaining("setValueSerializationSchema")
                .hasMessageContaining("setPartition");
    }

    @Test
    void anExactlyOnceJobInBatchModeIsRefusedWhenBuilt() {
        IggySink<String> sink =
                IggySinkBuilderTest.<String>sinkTo("s", "t")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .setExactlyOnceWriteAheadDir("file:///shared/iggy-wal")
                        .build();
        StreamExecutionEnvironment batch = StreamExecutionEnvironment.getExecutionEnvironment();
        batch.setRuntimeMode(RuntimeExecutionMode.BATCH);
        batch.enableCheckpointing(1000);
        batch.fromData("a", "b").sinkTo(sink);
        assertThatThrownBy(batch::getStreamGraph)
                .hasMessageContaining("cannot run in BATCH mode")
                .hasMessageContaining("execution.runtime-mode: STREAMING");

        StreamExecutionEnvironment bounded = StreamExecutionEnvironment.getExecutionEnvironment();
        bounded.setRuntimeMode(RuntimeExecutionMode.AUTOMATIC);
        bounded.enableCheckpointing(1000);
        bounded.fromData("a", "b").sinkTo(sink);
        assertThatThrownBy(bounded::getStreamGraph)
                .hasMessageContaining("every source of the sink is bounded");

        StreamExecutionEnvironment streaming = StreamExecutionEnvironment.getExecutionEnvironment();
        streaming.enableCheckpointing(1000);
        streaming.fromData("a", "b").sinkTo(sink);
        assertThat(streaming.getStreamGraph().getStreamNodes()).isNotEmpty();
    }

    @Test
    void keyedMapBuilderNamesEveryProblemAtOnce() {
        assertThatThrownBy(
                        () ->
                                IggySink.<String, String>keyedMap()
                                        .setConnection(CONNECTION)
                                        .setStream("s")
                                        .setStateTtl(Duration.ZERO)
                                        .setMessageIdNamespace("x")
                                        .setPartition(-1)
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("setValueSerializationSchema")
                .hasMessageContaining("setTopic")
                .hasMessageContaining("state TTL")
                .hasMessageContaining("setIdempotentWrites")
                .hasMessageContaining("partition must be an unsigned 32-bit");
    }

    @Test
    void aTopicSelectorRoutesEachRecordAndItsPartitionerSeesThatTopicsPartitions()
            throws Exception {
        IggySinkTarget orders = IggySinkTarget.of("s", "orders");
        IggyRecordSerializationSchema<String> schema =
                IggySink.<String>builder()
                        .setConnection(CONNECTION)
                        .setStream("s")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .setKeySerializationSchema(new SimpleStringSchema())
                        .setPartitionByKey()
                        .setTopicSelector(
                                (record, context) ->
                                        record.startsWith("o") ? context.topic("orders") : null)
                        .build()
                        .recordSerializer();
        TestSinkContext context = TestSinkContext.partitions(3).withTopic(orders, 7);
        schema.open(new DummyInitializationContext(), context);
        IggySinkRecord routed = schema.serialize("o-42", context);
        assertThat(routed.target()).isEqualTo(orders);
        assertThat(routed.partition()).isEqualTo(IggyPartitioner.partitionForKey(bytes("o-42"), 7));
        IggySinkRecord unrouted = schema.serialize("x-42", context);
        assertThat(unrouted.target()).isNull();
        assertThat(unrouted.partition())
                .isEqualTo(IggyPartitioner.partitionForKey(bytes("x-42"), 3));
    }

    @Test
    void theTopicIsOptionalOnlyWhenRecordsAreRouted() {
        assertThatThrownBy(
                        () ->
                                IggySink.<String>builder()
                                        .setConnection(CONNECTION)
                                        .setStream("s")
                                        .setValueSerializationSchema(new SimpleStringSchema())
                                        .build())
                .hasMessageContaining("the topic is not set (setTopic, or setTopicSelector)");
        assertThat(
                        IggySink.<String>builder()
                                .setConnection(CONNECTION)
                                .setStream("s")
                                .setRecordSerializer((element, context) -> null)
                                .build()
                                .toString())
                .contains("stream 's' (topics chosen per record)");
        assertThatThrownBy(
                        () ->
                                sinkTo("s", "t")
                                        .setRecordSerializer((element, context) -> null)
                                        .setTopicSelector((element, context) -> null)
                                        .build())
                .hasMessageContaining("setTopicSelector would be ignored");
        assertThat(
                        IggySink.<String, String>keyedMap()
                                .setConnection(CONNECTION)
                                .setStream("s")
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .setTopicSelector((change, context) -> context.topic("t"))
                                .build())
                .isNotNull();
    }

    @Test
    void keyPartitioningHasTheSameNameInBothModes() throws Exception {
        IggyRecordSerializationSchema<String> schema =
                IggySinkBuilderTest.<String>sinkTo("s", "t")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .setKeySerializationSchema(new SimpleStringSchema())
                        .setPartitionByKey()
                        .build()
                        .recordSerializer();
        schema.open(new DummyInitializationContext(), TestSinkContext.partitions(5));
        assertThat(schema.serialize("k7", TestSinkContext.partitions(5)).partition())
                .isEqualTo(IggyPartitioner.partitionForKey(bytes("k7"), 5));
        assertThat(
                        IggySink.<String, String>keyedMap()
                                .setConnection(CONNECTION)
                                .setStream("s")
                                .setTopic("t")
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .setPartitionByKey()
                                .build()
                                .toString())
                .contains("partition=by key");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void rejectsIdsOutsideU128() {
        assertThatThrownBy(
                        () ->
                                new IggySinkRecord(
                                        0,
                                        new byte[0],
                                        IggyHeaders.empty(),
                                        BigInteger.ONE.shiftLeft(128),
                                        0))
                .hasMessageContaining("128-bit");
        assertThatThrownBy(() -> IggySinkRecord.of(-1, new byte[0], 0)).hasMessageContaining("-1");
    }
}

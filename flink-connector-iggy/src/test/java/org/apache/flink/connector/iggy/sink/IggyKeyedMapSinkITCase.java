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

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.connector.testframe.source.FromElementsSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.apache.flink.connector.iggy.sink.testutils.IggySinkExternalContext.connection;
import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The keyed-map sink's behaviour (docs/datastream-sink.md) as Flink jobs against Iggy. */
class IggyKeyedMapSinkITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    static final TypeInformation<IggyMapChange<String, String>> CHANGES =
            TypeInformation.of(new TypeHint<IggyMapChange<String, String>>() {});

    private String stream;
    private final String topic = "map";

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("keyed");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, topic, 3);
    }

    @Test
    void scenario8NewKeyIsSentUnchangedValueIsNotChangedValueIs() throws Exception {
        run(sink().build(), upsert("k1", "v1"), upsert("k1", "v1"), upsert("k1", "v2"));
        assertThat(payloads(0)).containsExactly("v1", "v2");
    }

    @Test
    void scenario9DeleteWithoutDeletionFunctionFailsTheJobWithTheTombstoneMessage() {
        assertThatThrownBy(() -> run(sink().build(), upsert("k1", "v1"), delete("k1")))
                .satisfies(
                        e ->
                                assertThat(
                                                ExceptionUtils.findThrowableWithMessage(
                                                        e,
                                                        KeyedMapSinks.tombstoneError(
                                                                "setDeletionValueFunction")))
                                        .isPresent());
        assertThat(KeyedMapSinks.tombstoneError("setDeletionValueFunction"))
                .isEqualTo(
                        "Iggy does not support Kafka-style tombstones. Provide"
                                + " setDeletionValueFunction or encode deletes in the payload.");
    }

    @Test
    void scenario10DeletionFunctionPayloadIsSentAndUnknownKeyDeleteSendsNothing() throws Exception {
        run(
                sink().setDeletionValueFunction(k -> bytes(k + "=DELETE")).build(),
                upsert("k1", "v1"),
                delete("k1"),
                delete("unknown"),
                upsert("k1", "v1"));
        assertThat(payloads(0)).containsExactly("v1", "k1=DELETE", "v1");
    }

    @Test
    void scenario11FingerprintsSurviveStopWithSavepointAndRestore(
            @InjectClusterClient ClusterClient<?> client, @TempDir Path savepoints)
            throws Exception {
        List<IggyMapChange<String, String>> input =
                List.of(upsert("k1", "v1"), upsert("k2", "v2"), upsert("k3", "v3"));

        StreamExecutionEnvironment first = StreamExecutionEnvironment.getExecutionEnvironment();
        first.setParallelism(2);
        first.enableCheckpointing(100);
        first.fromSource(
                        new FromElementsSource<>(
                                Boundedness.CONTINUOUS_UNBOUNDED, input, input.size()),
                        WatermarkStrategy.noWatermarks(),
                        "changes")
                .returns(CHANGES)
                .uid("changes")
                .sinkTo(sink().setReconcileUid("fingerprints").build())
                .uid("map-sink");
        JobClient job = first.executeAsync("keyed map before savepoint");
        waitUntil(
                "the first three changes are in partition 0",
                Duration.ofSeconds(60),
                () -> payloads(0).size() == 3,
                () -> ": " + payloads(0));
        assertThat(payloads(0)).containsExactlyInAnyOrder("v1", "v2", "v3");
        String savepoint =
                job.stopWithSavepoint(
                                false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(60, TimeUnit.SECONDS);
        waitForStatus(client, job.getJobID(), JobStatus.FINISHED);

        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        restore.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, true);
        StreamExecutionEnvironment second =
                StreamExecutionEnvironment.getExecutionEnvironment(restore);
        second.setParallelism(2);
        second.fromData(CHANGES, input.toArray(IggyMapChange[]::new))
                .uid("replayed-changes")
                .sinkTo(sink().setReconcileUid("fingerprints").build())
                .uid("map-sink");
        second.execute("keyed map after restore");

        assertThat(payloads(0)).containsExactlyInAnyOrder("v1", "v2", "v3");
    }

    @Test
    void scenario12SeveralActionsInOneBatchAreSentInOrderPayloadOnlyToTheConfiguredPartition()
            throws Exception {
        run(
                sink().setPartition(2)
                        .setDeletionValueFunction(k -> bytes("deleted " + k))
                        .setMaxBatchMessages(100)
                        .setLinger(Duration.ofSeconds(10))
                        .build(),
                upsert("k1", "a"),
                upsert("k2", "b"),
                upsert("k1", "c"),
                delete("k2"),
                upsert("k3", "d"));
        assertThat(payloads(2)).containsExactly("a", "b", "c", "deleted k2", "d");
        assertThat(IGGY.readAll(stream, topic, 2))
                .allSatisfy(m -> assertThat(m.userHeaders()).isEmpty());
        assertThat(payloads(0)).isEmpty();
        assertThat(payloads(1)).isEmpty();
    }

    @Test
    void keyPartitioningAndKeyHeaderLetReadersRecoverTheKey() throws Exception {
        run(
                sink().setPartitionByKey().setKeyHeader("key").build(),
                upsert("key-1", "x"),
                upsert("test-key", "y"));
        assertThat(payloads(IggyPartitioner.partitionForKey(bytes("key-1"), 3))).contains("x");
        assertThat(payloads(IggyPartitioner.partitionForKey(bytes("test-key"), 3))).contains("y");
        assertThat(IGGY.readAll(stream, topic, IggyPartitioner.partitionForKey(bytes("key-1"), 3)))
                .anySatisfy(
                        m ->
                                assertThat(m.userHeaders().values())
                                        .anySatisfy(
                                                v ->
                                                        assertThat(v.value())
                                                                .isEqualTo(bytes("key-1"))));
    }

    @Test
    void userHeadersArriveOnUpsertsAndDeletes() throws Exception {
        run(
                sink().setKeyHeader("key")
                        .setDeletionValueFunction(k -> new byte[0])
                        .setHeadersFunction(
                                c -> IggyHeaders.of("op", c.isDelete() ? "d" : "u:" + c.value()))
                        .build(),
                upsert("k", "v1"),
                delete("k"));
        List<Map<String, String>> headers =
                IGGY.readAll(stream, topic, 0).stream()
                        .map(
                                m -> {
                                    Map<String, String> h = new HashMap<>();
                                    m.userHeaders()
                                            .forEach(
                                                    (k, v) ->
                                                            h.put(
                                                                    k.toString(),
                                                                    new String(
                                                                            v.value(),
                                                                            StandardCharsets
                                                                                    .UTF_8)));
                                    return h;
                                })
                        .collect(Collectors.toList());
        assertThat(headers)
                .containsExactly(Map.of("key", "k", "op", "u:v1"), Map.of("key", "k", "op", "d"));
        assertThat(payloads(0)).containsExactly("v1", "");
    }

    @Test
    void buildNamesMissingOrInvalidProperties() {
        assertThatThrownBy(
                        () ->
                                IggySink.<String, String>keyedMap()
                                        .setStream("s")
                                        .setTopic("t")
                                        .build())
                .hasMessageContaining("setValueSerializationSchema")
                .hasMessageContaining("setConnection");
        assertThatThrownBy(() -> sink().setStateTtl(Duration.ZERO).build())
                .hasMessageContaining("state TTL");
        assertThatThrownBy(() -> sink().setMessageIdNamespace("x").build())
                .hasMessageContaining("setIdempotentWrites");
        assertThatThrownBy(
                        () ->
                                sink().setDeliveryGuarantee(
                                                org.apache.flink.connector.base.DeliveryGuarantee
                                                        .EXACTLY_ONCE)
                                        .setIdempotentWrites(true)
                                        .build())
                .hasMessageContaining("drop setIdempotentWrites");
    }

    @Test
    void keysWithoutDefaultBytesFailTheJobNamingTheFix() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromData(
                        TypeInformation.of(new TypeHint<IggyMapChange<Long, String>>() {}),
                        IggyMapChange.upsert(1L, "v"))
                .sinkTo(
                        IggySink.<Long, String>keyedMap()
                                .setConnection(connection(IGGY))
                                .setStream(stream)
                                .setTopic(topic)
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .build());
        assertThatThrownBy(() -> env.execute("long keys"))
                .satisfies(
                        e ->
                                assertThat(
                                                ExceptionUtils.findThrowableWithMessage(
                                                        e, "call setKeySerializationSchema"))
                                        .isPresent());
    }

    /** Issue: a key serializer returning null ended in a bare NullPointerException. */
    @Test
    void aNullKeyFailsTheJobNamingTheKeySerializerAndTheChange() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromData(CHANGES, upsert("fine", "a"), upsert("no-bytes", "b"))
                .sinkTo(sink().setKeySerializationSchema(new NullForNoBytes()).build());
        assertThatThrownBy(() -> env.execute("null key"))
                .satisfies(
                        e ->
                                assertThat(
                                                ExceptionUtils.findThrowableWithMessage(
                                                        e,
                                                        "key serialization schema "
                                                                + NullForNoBytes.class.getName()
                                                                + " returned null for the change"
                                                                + " UPSERT(no-bytes -> b)"))
                                        .isPresent());
    }

    /** UTF-8, but nothing for the key "no-bytes". */
    static final class NullForNoBytes implements SerializationSchema<String> {
        @Override
        public byte[] serialize(String key) {
            return key.equals("no-bytes") ? null : bytes(key);
        }
    }

    @SafeVarargs
    private void run(
            Sink<IggyMapChange<String, String>> sink, IggyMapChange<String, String>... changes)
            throws Exception {
        // Without Kryo: every type on the keyed-map path has serializers of its own.
        Configuration noGenericTypes = new Configuration();
        noGenericTypes.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(noGenericTypes);
        env.setParallelism(1);
        env.fromData(CHANGES, changes).sinkTo(sink);
        env.execute("keyed map sink");
    }

    private IggyKeyedMapSinkBuilder<String, String> sink() {
        return IggySink.<String, String>keyedMap()
                .setConnection(connection(IGGY))
                .setStream(stream)
                .setTopic(topic)
                .setValueSerializationSchema(new SimpleStringSchema());
    }

    private List<String> payloads(long partition) {
        return IGGY.readAll(stream, topic, partition).stream()
                .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }

    static IggyMapChange<String, String> upsert(String k, String v) {
        return IggyMapChange.upsert(k, v);
    }

    static IggyMapChange<String, String> delete(String k) {
        return IggyMapChange.delete(k);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static void waitForStatus(ClusterClient<?> client, JobID job, JobStatus status)
            throws Exception {
        waitUntil(
                "job " + job + " is " + status,
                Duration.ofSeconds(60),
                () -> client.getJobStatus(job).get() == status,
                () -> ", it is " + client.getJobStatus(job).join());
    }
}

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

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.RestartStrategyUtils;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;

import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.apache.flink.connector.iggy.sink.testutils.IggySinkExternalContext.connection;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sinks that route each record to its own topic: a field chooses one of three topics with different
 * partition counts, key partitioning holds per topic as the server itself partitions, and the
 * keyed-map sink keeps its fingerprints per (topic, key).
 */
class IggySinkRoutingITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    /** The exactly-once sinks' write-ahead directory. */
    @TempDir static Path writeAhead;

    /** Each topic's partition count: key partitioning must use the record's own topic's. */
    private static final Map<String, Integer> TOPICS =
            Map.of("orders", 2, "payments", 3, "refunds", 5);

    private static final List<String> TABLES = List.of("orders", "payments", "refunds");

    /** How many more commits the hook fails between two sends. */
    private static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

    private String stream;

    @BeforeEach
    void createTopics() {
        stream = IGGY.uniqueName("routing");
        IGGY.createStream(stream);
        TOPICS.forEach(
                (topic, partitions) -> {
                    IGGY.createTopic(stream, topic, partitions);
                    // the server's own key partitioning places the same keys here
                    IGGY.createTopic(stream, "reference-" + topic, partitions);
                });
        FAILURES_LEFT.set(0);
    }

    /**
     * Record i is "table:key:i" with table {@code i mod 3} and key {@code k(i mod 50)}: it goes to
     * the table's topic, in the partition of its key there. Exactly-once also fails one commit
     * between two sends of a committable, so its committables of several topics are read back.
     */
    @ParameterizedTest
    @EnumSource(
            value = DeliveryGuarantee.class,
            names = {"AT_LEAST_ONCE", "EXACTLY_ONCE"})
    void aFieldRoutesEveryRecordOnceToItsTopicInItsKeysPartition(DeliveryGuarantee guarantee)
            throws Exception {
        int records = 900;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(200);
        RestartStrategyUtils.configureFixedDelayRestartStrategy(env, 5, 50L);
        IggySink<String> sink =
                IggySink.<String>builder()
                        .setConnection(connection(IGGY))
                        .setStream(stream)
                        .setDeliveryGuarantee(guarantee)
                        .setExactlyOnceWriteAheadDir(writeAhead.toUri().toString())
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .setKeySerializationSchema(record -> bytes(record.split(":")[1]))
                        .setPartitionByKey()
                        .setTopicSelector((record, context) -> context.topic(record.split(":")[0]))
                        .setBatchSize(20)
                        .build();
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            FAILURES_LEFT.set(1);
        }
        Sink<String> withFailures =
                guarantee == DeliveryGuarantee.EXACTLY_ONCE ? failingCommits(sink) : sink;
        env.fromSource(
                        new DataGeneratorSource<>(
                                (GeneratorFunction<Long, String>)
                                        i -> TABLES.get((int) (i % 3)) + ":k" + (i % 50) + ":" + i,
                                records,
                                RateLimiterStrategy.perSecond(1500),
                                Types.STRING),
                        WatermarkStrategy.noWatermarks(),
                        "records")
                .sinkTo(withFailures);
        env.execute("routing sink " + guarantee);

        assertThat(FAILURES_LEFT).hasValue(0);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            expected.add(TABLES.get(i % 3) + ":k" + (i % 50) + ":" + i);
        }
        List<String> stored = new ArrayList<>();
        Map<String, Long> partitionOfKey = new HashMap<>();
        for (String topic : TABLES) {
            for (long p = 0; p < TOPICS.get(topic); p++) {
                for (String payload : payloads(topic, p)) {
                    String[] parts = payload.split(":");
                    assertThat(parts[0])
                            .as("table of %s in topic %s", payload, topic)
                            .isEqualTo(topic);
                    partitionOfKey.put(topic + ":" + parts[1], p);
                    stored.add(payload);
                }
            }
        }
        assertThat(stored).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(partitionOfKey).hasSize(150);
        partitionOfKey.forEach(
                (topicAndKey, partition) -> {
                    String topic = topicAndKey.split(":")[0];
                    String key = topicAndKey.split(":")[1];
                    assertThat(partition)
                            .as("partition of key %s in %s", key, topic)
                            .isEqualTo(serverPartitionOf(topic, key));
                });
    }

    /** The partition the server's own messages-key partitioning gives {@code key} in a twin. */
    private long serverPartitionOf(String topic, String key) {
        String reference = "reference-" + topic;
        IGGY.client()
                .messages()
                .sendMessages(
                        StreamId.of(stream),
                        TopicId.of(reference),
                        Partitioning.messagesKey(key),
                        List.of(Message.of(key)));
        for (long p = 0; p < TOPICS.get(topic); p++) {
            if (payloads(reference, p).contains(key)) {
                return p;
            }
        }
        throw new AssertionError("The server placed key " + key + " in no partition of " + topic);
    }

    /**
     * The same key in two topics holds two values, each skipped when unchanged in its own topic,
     * and a deletion goes to its key's topic; exactly-once also commits across the two topics.
     */
    @ParameterizedTest
    @EnumSource(
            value = DeliveryGuarantee.class,
            names = {"AT_LEAST_ONCE", "EXACTLY_ONCE"})
    void keyedMapKeepsFingerprintsPerTopicAndKeyAndDeletesInTheKeysTopic(
            DeliveryGuarantee guarantee) throws Exception {
        // keys "orders/k" and "payments/k": the same key k in two topics
        List<IggyMapChange<String, String>> changes =
                List.of(
                        IggyMapChange.upsert("orders/k", "v1"),
                        IggyMapChange.upsert("payments/k", "v1"),
                        IggyMapChange.upsert("orders/k", "v1"),
                        IggyMapChange.upsert("payments/k", "v2"),
                        IggyMapChange.upsert("orders/j", "v1"),
                        IggyMapChange.delete("orders/k"),
                        IggyMapChange.upsert("payments/k", "v2"));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        // exactly-once commits at checkpoints; the last one, at the end of the input, commits all
        env.enableCheckpointing(100);
        env.fromData(changes)
                .sinkTo(
                        IggySink.<String, String>keyedMap()
                                .setConnection(connection(IGGY))
                                .setStream(stream)
                                .setDeliveryGuarantee(guarantee)
                                .setExactlyOnceWriteAheadDir(writeAhead.toUri().toString())
                                .setKeySerializationSchema(key -> bytes(key.split("/")[1]))
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .setDeletionValueFunction(key -> bytes(key + "=DELETE"))
                                .setPartitionByKey()
                                .setKeyHeader("key")
                                .setTopicSelector(
                                        (change, context) ->
                                                context.topic(change.key().split("/")[0]))
                                .build());
        env.execute("routed keyed map " + guarantee);

        assertThat(allPayloads("orders")).containsExactlyInAnyOrder("v1", "v1", "orders/k=DELETE");
        assertThat(allPayloads("payments")).containsExactly("v1", "v2");
        assertThat(allPayloads("refunds")).isEmpty();
    }

    @Test
    void aRecordRoutedToAMissingTopicFailsTheJobNamingItAndTheFix() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromData("orders:k:1", "ordres:k:2")
                .sinkTo(
                        IggySink.<String>builder()
                                .setConnection(connection(IGGY))
                                .setStream(stream)
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .setTopicSelector(
                                        (record, context) -> context.topic(record.split(":")[0]))
                                .build());
        assertThatThrownBy(() -> env.execute("routing to a missing topic"))
                .satisfies(
                        e -> {
                            Optional<IggyConfigurationException> cause =
                                    ExceptionUtils.findThrowable(
                                            e, IggyConfigurationException.class);
                            assertThat(cause).isPresent();
                            assertThat(cause.get())
                                    .hasMessageContaining("'ordres'")
                                    .hasMessageContaining(stream)
                                    .hasMessageContaining("create it first");
                        });
    }

    private static <T> Sink<T> failingCommits(IggySink<T> sink) {
        return ExactlyOnceIggySink.withBetweenSends(
                sink,
                (committable, sent) -> {
                    if (FAILURES_LEFT.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        throw new IllegalStateException(
                                "test failure after " + sent + " of the " + committable);
                    }
                });
    }

    private List<String> allPayloads(String topic) {
        List<String> all = new ArrayList<>();
        for (long p = 0; p < TOPICS.get(topic); p++) {
            all.addAll(payloads(topic, p));
        }
        return all;
    }

    private List<String> payloads(String topic, long partition) {
        List<String> payloads = new ArrayList<>();
        for (Message m : IGGY.readAll(stream, topic, partition)) {
            payloads.add(new String(m.payload(), StandardCharsets.UTF_8));
        }
        return payloads;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

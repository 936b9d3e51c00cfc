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
package org.apache.flink.connector.iggy.source;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;

import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.connection;
import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.numbered;
import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.utf8;
import static org.assertj.core.api.Assertions.assertThat;

/** The source's documented behaviour (docs/datastream-source.md), as MiniCluster jobs. */
class IggySourceScenariosITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(4);

    private String stream;
    private String topic;
    private String consumer;

    @BeforeEach
    void names() {
        stream = IGGY.uniqueName("scenario");
        topic = "t";
        consumer = IGGY.uniqueName("consumer");
        IGGY.createStream(stream);
    }

    private <T> IggySourceBuilder<T> source(IggyRecordDeserializationSchema<T> deserializer) {
        return IggySource.<T>builder()
                .setConnection(connection(IGGY))
                .setStream(stream)
                .setTopic(topic)
                .setConsumerName(consumer)
                .setDeserializer(deserializer);
    }

    private static StreamExecutionEnvironment env(int parallelism) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        env.enableCheckpointing(100);
        return env;
    }

    private static <T> List<T> collect(DataStream<T> stream) throws Exception {
        List<T> result = new ArrayList<>();
        try (CloseableIterator<T> it = stream.executeAndCollect()) {
            it.forEachRemaining(result::add);
        }
        return result;
    }

    private List<String> readBounded(IggyStartingOffsets start) throws Exception {
        IggySource<String> source =
                source(IggyRecordDeserializationSchema.valueOnly(new SimpleStringSchema()))
                        .setStartingOffsets(start)
                        .setBounded(IggyStoppingOffsets.latest())
                        .build();
        return collect(env(1).fromSource(source, WatermarkStrategy.noWatermarks(), "iggy"));
    }

    private Optional<Long> stored(long partition) {
        return IGGY.storedOffset(stream, topic, partition, consumer);
    }

    @Test
    void scenario1_twoMessagesInOrder_offsetStoredAfterCheckpoint_boundedReadFinishes()
            throws Exception {
        IGGY.createTopic(stream, topic, 1);
        IGGY.send(stream, topic, 0, utf8("v1", "v2"));

        assertThat(readBounded(IggyStartingOffsets.committed())).containsExactly("v1", "v2");
        assertThat(stored(0)).contains(1L);
    }

    @Test
    void scenario2_storedOffsetResumes_andBoundedReadOfConsumedTopicFinishesAtOnce()
            throws Exception {
        IGGY.createTopic(stream, topic, 1);
        IGGY.send(stream, topic, 0, numbered("m", 0, 3));
        IGGY.client()
                .consumerOffsets()
                .storeConsumerOffset(
                        StreamId.of(stream),
                        TopicId.of(topic),
                        Optional.of(0L),
                        Consumer.of(ConsumerId.of(consumer)),
                        BigInteger.valueOf(2));

        assertThat(readBounded(IggyStartingOffsets.committed()))
                .as("everything up to the stored offset is consumed: nothing, and no hang")
                .isEmpty();

        IGGY.send(stream, topic, 0, numbered("m", 3, 5));
        assertThat(readBounded(IggyStartingOffsets.committed())).containsExactly("m3", "m4");
        assertThat(stored(0)).contains(4L);
    }

    @Test
    void scenario3_payloadsViewDeliversRawBytesIncludingEmptyPayloads() throws Exception {
        IGGY.createTopic(stream, topic, 1);
        List<byte[]> payloads =
                List.of(
                        "a".getBytes(StandardCharsets.UTF_8),
                        new byte[0],
                        new byte[] {0, (byte) 0xff, 7});
        IGGY.send(stream, topic, 0, payloads);

        IggySource<byte[]> source =
                source(IggyRecordDeserializationSchema.payloads())
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setBounded(IggyStoppingOffsets.latest())
                        .build();
        List<byte[]> read =
                collect(env(1).fromSource(source, WatermarkStrategy.noWatermarks(), "iggy"));

        assertThat(read).containsExactlyElementsOf(payloads);
    }

    /** Sends one more message to every partition when the first record passes. */
    private static final class SendMoreOnFirstRecord implements MapFunction<String, String> {
        private static final Set<String> SENT = ConcurrentHashMap.newKeySet();
        private final String stream;
        private final String topic;
        private final int partitions;

        SendMoreOnFirstRecord(String stream, String topic, int partitions) {
            this.stream = stream;
            this.topic = topic;
            this.partitions = partitions;
        }

        @Override
        public String map(String value) {
            if (SENT.add(stream)) {
                for (long p = 0; p < partitions; p++) {
                    IGGY.send(stream, topic, p, utf8("late-" + p));
                }
            }
            return value;
        }
    }

    @Test
    void scenario4_multiPartitionBoundedReadStopsEachPartitionAtItsStartHighWatermark()
            throws Exception {
        IGGY.createTopic(stream, topic, 3);
        IGGY.send(stream, topic, 0, numbered("p0-", 0, 2));
        IGGY.send(stream, topic, 2, numbered("p2-", 0, 5));
        IggySource<String> source =
                source(IggyRecordDeserializationSchema.valueOnly(new SimpleStringSchema()))
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setBounded(IggyStoppingOffsets.latest())
                        .build();

        List<String> read =
                collect(
                        env(3).fromSource(source, WatermarkStrategy.noWatermarks(), "iggy")
                                .map(new SendMoreOnFirstRecord(stream, topic, 3)));

        assertThat(read)
                .containsExactlyInAnyOrder("p0-0", "p0-1", "p2-0", "p2-1", "p2-2", "p2-3", "p2-4");
        assertThat(IGGY.readAll(stream, topic, 1)).as("the late messages arrived").hasSize(1);
    }

    private static IggyRecordDeserializationSchema<IggyMapChange<String, String>> keyBeforeColon() {
        return IggyRecordDeserializationSchema.keyedMap(
                message -> {
                    String text = new String(message.payload(), StandardCharsets.UTF_8);
                    int colon = text.indexOf(':');
                    return colon < 0 ? null : text.substring(0, colon);
                },
                message -> new String(message.payload(), StandardCharsets.UTF_8).endsWith("DELETE"),
                new SimpleStringSchema());
    }

    private List<IggyMapChange<String, String>> readKeyedMapBounded() throws Exception {
        IggySource<IggyMapChange<String, String>> source =
                source(keyBeforeColon())
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setBounded(IggyStoppingOffsets.latest())
                        .build();
        return collect(env(1).fromSource(source, WatermarkStrategy.noWatermarks(), "iggy"));
    }

    @Test
    void scenario5_keyedMapUpsertThenDelete() throws Exception {
        IGGY.createTopic(stream, topic, 1);
        IGGY.send(stream, topic, 0, utf8("k1:v1", "k1:DELETE"));

        List<IggyMapChange<String, String>> changes = readKeyedMapBounded();

        assertThat(changes)
                .containsExactly(IggyMapChange.upsert("k1", "k1:v1"), IggyMapChange.delete("k1"));
    }

    @Test
    void scenario5b_deleteOfANeverSeenKeyIsEmittedForDownstreamUpsertSemanticsToIgnore()
            throws Exception {
        IGGY.createTopic(stream, topic, 1);
        IGGY.send(stream, topic, 0, utf8("ghost:DELETE", ":empty-key", "0:zero"));

        List<IggyMapChange<String, String>> changes = readKeyedMapBounded();

        // The source keeps no per-key state: it emits the delete, and a keyed materialization
        // (as the keyed-map sink and upsert tables do) turns it into nothing.
        assertThat(changes)
                .containsExactly(
                        IggyMapChange.delete("ghost"),
                        IggyMapChange.upsert("", ":empty-key"),
                        IggyMapChange.upsert("0", "0:zero"));
        Map<String, String> materialized = new HashMap<>();
        for (IggyMapChange<String, String> change : changes) {
            if (change.isDelete()) {
                materialized.remove(change.key());
            } else {
                materialized.put(change.key(), change.value());
            }
        }
        assertThat(materialized).containsOnlyKeys("", "0");
    }

    @Test
    void scenario6_nullKeyIsSkippedAndLaterOffsetsAreStillStored() throws Exception {
        IGGY.createTopic(stream, topic, 1);
        IGGY.send(stream, topic, 0, utf8("k1:v1", "no key here", "k2:v2"));

        List<IggyMapChange<String, String>> changes = readKeyedMapBounded();

        assertThat(changes)
                .containsExactly(
                        IggyMapChange.upsert("k1", "k1:v1"), IggyMapChange.upsert("k2", "k2:v2"));
        assertThat(stored(0)).contains(2L);
    }

    @Test
    void partitionsAddedWhileRunningAreDiscoveredAndReadFromTheStart() throws Exception {
        IGGY.createTopic(stream, topic, 1);
        IggySource<String> source =
                source(IggyRecordDeserializationSchema.valueOnly(new SimpleStringSchema()))
                        .setStartingOffsets(IggyStartingOffsets.latest())
                        .setPartitionDiscoveryInterval(java.time.Duration.ofMillis(200))
                        .build();
        java.util.concurrent.ScheduledExecutorService ticker =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        List<String> fromNewPartition = new ArrayList<>();
        try (CloseableIterator<String> it =
                env(2).fromSource(source, WatermarkStrategy.noWatermarks(), "iggy")
                        .executeAndCollect()) {
            // Ticks on partition 0 until one arrives: then the job runs and has listed partitions.
            ticker.scheduleWithFixedDelay(
                    () -> IGGY.send(stream, topic, 0, utf8("tick")),
                    0,
                    200,
                    java.util.concurrent.TimeUnit.MILLISECONDS);
            assertThat(it.next()).isEqualTo("tick");

            IGGY.client().partitions().createPartitions(StreamId.of(stream), TopicId.of(topic), 1L);
            // Sent before the source can have found the partition: still read, from offset 0.
            IGGY.send(stream, topic, 1, utf8("p1-a", "p1-b"));
            while (fromNewPartition.size() < 2) {
                String next = it.next();
                if (!next.equals("tick")) {
                    fromNewPartition.add(next);
                }
            }
        } finally {
            ticker.shutdownNow();
        }
        assertThat(fromNewPartition).containsExactly("p1-a", "p1-b");
    }

    /** Tags each record with the subtask that read it. */
    private static final class TagWithSubtask
            extends org.apache.flink.api.common.functions.RichMapFunction<String, String> {
        @Override
        public String map(String value) {
            return getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() + "/" + value;
        }
    }

    @Test
    void scenario7_aPartitionIsNeverReadByTwoReadersAtOnce() throws Exception {
        IGGY.createTopic(stream, topic, 4);
        for (long p = 0; p < 4; p++) {
            IGGY.send(stream, topic, p, numbered("p" + p + "-", 0, 20));
        }
        IggySource<String> source =
                source(IggyRecordDeserializationSchema.valueOnly(new SimpleStringSchema()))
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setBounded(IggyStoppingOffsets.latest())
                        .setMessagesPerPoll(3)
                        .build();

        List<String> read =
                collect(
                        env(3).fromSource(source, WatermarkStrategy.noWatermarks(), "iggy")
                                .map(new TagWithSubtask()));

        assertThat(read).hasSize(80);
        Map<String, Set<String>> readersByPartition = new HashMap<>();
        for (String tagged : read) {
            String subtask = tagged.substring(0, tagged.indexOf('/'));
            String partition = tagged.substring(tagged.indexOf('/') + 1, tagged.indexOf('-'));
            readersByPartition
                    .computeIfAbsent(partition, k -> ConcurrentHashMap.newKeySet())
                    .add(subtask);
        }
        assertThat(readersByPartition).hasSize(4);
        readersByPartition.forEach(
                (partition, readers) -> assertThat(readers).as(partition).hasSize(1));
    }
}

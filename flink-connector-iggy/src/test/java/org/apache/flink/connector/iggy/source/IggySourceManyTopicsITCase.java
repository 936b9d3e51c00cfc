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
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.RestartStrategyUtils;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;

import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.connection;
import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.numbered;
import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.ourFailure;
import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.take;
import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.utf8;
import static org.assertj.core.api.Assertions.assertThat;

/** One source over several topics and streams, against the server, in a job. */
class IggySourceManyTopicsITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    private String stream;

    @BeforeEach
    void createStream() {
        stream = IGGY.uniqueName("many");
        IGGY.createStream(stream);
    }

    private IggySourceBuilder<String> source() {
        return IggySource.<String>builder()
                .setConnection(connection(IGGY))
                .setConsumerName("many")
                .setStartingOffsets(IggyStartingOffsets.earliest())
                .setPollInterval(Duration.ofMillis(20))
                .setValueOnlyDeserializer(new SimpleStringSchema());
    }

    private static CloseableIterator<String> run(IggySource<String> source, int parallelism)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        RestartStrategyUtils.configureNoRestartStrategy(env);
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "iggy").executeAndCollect();
    }

    private CloseableIterator<String> run(UnaryOperator<IggySourceBuilder<String>> topics)
            throws Exception {
        return run(topics.apply(source()).build(), 2);
    }

    @Test
    void readsAListOfThreeTopicsWithTwoReaders() throws Exception {
        List<String> expected = new ArrayList<>();
        for (String topic : List.of("orders", "payments", "refunds")) {
            IGGY.createTopic(stream, topic, 2);
            for (int p = 0; p < 2; p++) {
                IGGY.send(stream, topic, p, numbered(topic + "-" + p + "-", 0, 50));
                for (int i = 0; i < 50; i++) {
                    expected.add(topic + "-" + p + "-" + i);
                }
            }
        }
        IggySource<String> source =
                source().setStream(stream)
                        .setTopics("orders", "payments", "refunds")
                        .setBounded(IggyStoppingOffsets.latest())
                        .build();

        List<String> read = new ArrayList<>();
        try (CloseableIterator<String> it = run(source, 2)) {
            it.forEachRemaining(read::add);
        }

        assertThat(read).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** The key is the user's; which topic a message came from is the message's to say. */
    @Test
    void keyedMapModeReadsSeveralTopicsWithTheUsersKey() throws Exception {
        IGGY.createTopic(stream, "prices", 1);
        IGGY.createTopic(stream, "stock", 1);
        IGGY.send(stream, "prices", 0, utf8("apple=1", "apple=2"));
        IGGY.send(stream, "stock", 0, utf8("apple=7"));
        IggySource<IggyMapChange<String, String>> source =
                IggySource.<IggyMapChange<String, String>>builder()
                        .setConnection(connection(IGGY))
                        .setStream(stream)
                        .setTopics("prices", "stock")
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setBounded(IggyStoppingOffsets.latest())
                        .setDeserializer(
                                IggyRecordDeserializationSchema.keyedMap(
                                        message ->
                                                message.topic().name()
                                                        + "/"
                                                        + new String(
                                                                        message.payload(),
                                                                        StandardCharsets.UTF_8)
                                                                .split("=")[0],
                                        new SimpleStringSchema()))
                        .build();

        List<IggyMapChange<String, String>> changes = new ArrayList<>();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        try (CloseableIterator<IggyMapChange<String, String>> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "iggy")
                        .executeAndCollect()) {
            it.forEachRemaining(changes::add);
        }

        assertThat(changes)
                .containsExactlyInAnyOrder(
                        IggyMapChange.upsert("prices/apple", "apple=1"),
                        IggyMapChange.upsert("prices/apple", "apple=2"),
                        IggyMapChange.upsert("stock/apple", "apple=7"));
    }

    @Test
    void aTopicPatternReadsATopicCreatedWhileTheJobRunsFromItsStart() throws Exception {
        IGGY.createTopic(stream, "orders-eu", 1);
        IGGY.createTopic(stream, "audit", 1);
        IGGY.send(stream, "orders-eu", 0, utf8("eu-0"));
        IGGY.send(stream, "audit", 0, utf8("audit-0"));
        try (CloseableIterator<String> it =
                run(
                        b ->
                                b.setStream(stream)
                                        .setTopicPattern(Pattern.compile("orders-.*"))
                                        .setStartingOffsets(IggyStartingOffsets.earliest())
                                        .setPartitionDiscoveryInterval(Duration.ofMillis(200)))) {
            assertThat(take(it, 1)).containsExactly("eu-0");

            IGGY.createTopic(stream, "orders-us", 2);
            IGGY.send(stream, "orders-us", 1, utf8("us-0", "us-1"));
            IGGY.send(stream, "orders-eu", 0, utf8("eu-1"));

            assertThat(take(it, 3)).containsExactlyInAnyOrder("us-0", "us-1", "eu-1");
        }
    }

    @Test
    void aStreamPatternReadsAStreamCreatedWhileTheJobRuns() throws Exception {
        String prefix = stream + "-tenant-";
        IGGY.createStream(prefix + "1");
        IGGY.createTopic(prefix + "1", "events", 1);
        IGGY.createTopic(prefix + "1", "other", 1);
        IGGY.send(prefix + "1", "events", 0, utf8("t1-0"));
        IGGY.send(prefix + "1", "other", 0, utf8("not-read"));
        try (CloseableIterator<String> it =
                run(
                        b ->
                                b.setStreamPattern(Pattern.compile(Pattern.quote(prefix) + ".*"))
                                        .setTopic("events")
                                        .setPartitionDiscoveryInterval(Duration.ofMillis(200)))) {
            assertThat(take(it, 1)).as("only the topic 'events'").containsExactly("t1-0");

            IGGY.createStream(prefix + "2");
            IGGY.createTopic(prefix + "2", "events", 1);
            IGGY.send(prefix + "2", "events", 0, utf8("t2-0", "t2-1"));

            assertThat(take(it, 2)).containsExactly("t2-0", "t2-1");
        } finally {
            deleteIfPresent(prefix + "1");
            deleteIfPresent(prefix + "2");
        }
    }

    /**
     * A reader over topics of several streams checks its quiet topics with the list of streams: a
     * message in any stream, sent once the others are quiet, is read, and a stream deleted fails
     * the job naming its topic.
     */
    @Test
    void aStreamPatternOverQuietStreamsReadsEachMessageAndNoticesADeletedStream() throws Exception {
        String prefix = stream + "-quiet-";
        List<String> streams = List.of(prefix + "1", prefix + "2", prefix + "3");
        for (String s : streams) {
            IGGY.createStream(s);
            IGGY.createTopic(s, "events", 1);
        }
        try (CloseableIterator<String> it =
                run(
                        b ->
                                b.setStreamPattern(Pattern.compile(Pattern.quote(prefix) + ".*"))
                                        .setTopic("events"))) {
            for (String s : List.of(prefix + "2", prefix + "3", prefix + "1", prefix + "2")) {
                IGGY.send(s, "events", 0, utf8("in " + s));
                assertThat(take(it, 1)).containsExactly("in " + s);
            }
            IGGY.deleteStream(prefix + "3");

            assertThat(ourFailure(it).getMessage())
                    .contains("topic 'events' of stream '" + prefix + "3'")
                    .contains("no longer exists");
        } finally {
            streams.forEach(IggySourceManyTopicsITCase::deleteIfPresent);
        }
    }

    private static void deleteIfPresent(String stream) {
        try {
            IGGY.deleteStream(stream);
        } catch (RuntimeException notCreated) {
            // the test failed before it created the stream
        }
    }

    @Test
    void aTopicDeletedWhileTheJobRunsFailsItNamingTheTopicByDefault() throws Exception {
        IGGY.createTopic(stream, "a", 1);
        IGGY.createTopic(stream, "b", 1);
        IGGY.send(stream, "a", 0, utf8("a-0"));
        IGGY.send(stream, "b", 0, utf8("b-0"));
        try (CloseableIterator<String> it = run(b -> b.setStream(stream).setTopics("a", "b"))) {
            assertThat(take(it, 2)).containsExactlyInAnyOrder("a-0", "b-0");
            IGGY.client().topics().deleteTopic(StreamId.of(stream), TopicId.of("b"));

            assertThat(ourFailure(it).getMessage())
                    .contains("topic 'b' of stream '" + stream + "'")
                    .contains("no longer exists")
                    .contains("setDeletedTopicSkip");
        }
    }

    @Test
    void aTopicDeletedWhileTheJobRunsIsSkippedWhenAskedAndTheOthersAreReadOn() throws Exception {
        IGGY.createTopic(stream, "a", 1);
        IGGY.createTopic(stream, "b", 1);
        IGGY.send(stream, "a", 0, utf8("a-0"));
        IGGY.send(stream, "b", 0, utf8("b-0"));
        try (CloseableIterator<String> it =
                run(b -> b.setStream(stream).setTopics("a", "b").setDeletedTopicSkip(true))) {
            assertThat(take(it, 2)).containsExactlyInAnyOrder("a-0", "b-0");
            IGGY.client().topics().deleteTopic(StreamId.of(stream), TopicId.of("b"));
            IGGY.send(stream, "a", 0, utf8("a-1", "a-2"));

            assertThat(take(it, 2)).containsExactly("a-1", "a-2");
        }
    }
}

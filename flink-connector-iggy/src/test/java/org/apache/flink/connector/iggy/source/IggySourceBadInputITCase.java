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
import org.apache.flink.api.common.serialization.AbstractDeserializationSchema;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.connector.testutils.source.reader.TestingReaderContext;
import org.apache.flink.connector.testutils.source.reader.TestingReaderOutput;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.runtime.metrics.groups.InternalSourceReaderMetricGroup;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.RestartStrategyUtils;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.connection;
import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.utf8;
import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad input fails clearly at start (or at the bad message), never hangs, never loses silently. */
class IggySourceBadInputITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    private String stream;
    private String topic;

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("bad");
        topic = "t";
        IGGY.createStream(stream);
        IGGY.createTopic(stream, topic, 1);
    }

    private IggySourceBuilder<String> source(IggyConnectionConfig connection) {
        return IggySource.<String>builder()
                .setConnection(connection)
                .setStream(stream)
                .setTopic(topic)
                .setConsumerName("c")
                .setStartingOffsets(IggyStartingOffsets.earliest())
                .setValueOnlyDeserializer(new SimpleStringSchema());
    }

    /** Starts an enumerator and runs its discovery, which start() leaves to a worker thread. */
    private static void startEnumerator(IggySource<String> source) throws Throwable {
        TestingSplitEnumeratorContext<IggyPartitionSplit> context =
                new TestingSplitEnumeratorContext<>(1);
        SplitEnumerator<IggyPartitionSplit, ?> enumerator = source.createEnumerator(context);
        enumerator.start();
        try {
            context.triggerAllActions();
            // a failed start fails the job once a reader has registered
            context.registerReader(0, "localhost");
            enumerator.addReader(0);
        } catch (Throwable t) {
            Optional<IggyConnectorException> ours =
                    ExceptionUtils.findThrowable(t, IggyConnectorException.class);
            throw ours.isPresent() ? ours.get() : t;
        }
    }

    @Test
    void missingStreamFailsTheJobAtStartNamingAddressStreamTopicAndFix() {
        IggySource<String> source = source(connection(IGGY)).setStream("no-such-stream").build();
        assertJobFailsWith(
                source, "stream 'no-such-stream'", "topic 't'", IGGY.address(), "create it first");
    }

    @Test
    void missingTopicNamesTheTopicAndTheFix() {
        assertThatThrownBy(() -> startEnumerator(source(connection(IGGY)).setTopic("nope").build()))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("topic 'nope'")
                .hasMessageContaining("stream '" + stream + "'")
                .hasMessageContaining(IGGY.address())
                .hasMessageContaining("create it first");
    }

    @Test
    void wrongPasswordNamesTheUserButNeverThePassword() {
        IggyConnectionConfig wrong =
                IggyConnectionConfig.builder()
                        .setAddress(IGGY.address())
                        .setCredentials(IGGY.username(), "not-the-password")
                        .build();
        assertThatThrownBy(() -> startEnumerator(source(wrong).build()))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("Cannot log in")
                .hasMessageContaining("user '" + IGGY.username() + "'")
                .hasMessageContaining("topic 't' of stream '" + stream + "'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("not-the-password"));
    }

    @Test
    void unreachableAddressFailsWithinTheConnectTimeout() throws IOException {
        String address = closedAddress();
        IggyConnectionConfig unreachable = unreachable(address);
        long start = System.nanoTime();
        assertThatThrownBy(() -> startEnumerator(source(unreachable).build()))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining(address)
                .hasMessageContaining("topic 't' of stream '" + stream + "'")
                .hasMessageContaining("Check that the server is running");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
    }

    /**
     * Nothing connects while tasks start (a failure there can take a TaskManager down): the job
     * starts, then fails normally with the connector's message.
     */
    @Test
    void unreachableAddressFailsTheStartedJobWithTheConnectorMessage() throws IOException {
        String address = closedAddress();
        assertJobFailsWith(
                source(unreachable(address)).build(),
                "Cannot connect to Iggy at " + address,
                "Check that the server is running");
    }

    /** A loopback address whose port nothing listens on. */
    private static String closedAddress() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        }
    }

    private static IggyConnectionConfig unreachable(String address) {
        return IggyConnectionConfig.builder()
                .setAddress(address)
                .setCredentials(IGGY.username(), IGGY.password())
                .setConnectTimeout(Duration.ofSeconds(2))
                .build();
    }

    /** Fails on payloads that are not numbers. */
    private static final class NumberSchema extends AbstractDeserializationSchema<Long> {
        @Override
        public Long deserialize(byte[] message) throws IOException {
            try {
                return Long.parseLong(new String(message, StandardCharsets.UTF_8));
            } catch (NumberFormatException e) {
                throw new IOException("not a number", e);
            }
        }
    }

    @Test
    void undecodablePayloadFailsTheJobNamingPartitionAndOffset() {
        IGGY.send(stream, topic, 0, utf8("1", "2", "oops", "4"));
        IggySource<Long> source =
                IggySource.<Long>builder()
                        .setConnection(connection(IGGY))
                        .setStream(stream)
                        .setTopic(topic)
                        .setConsumerName("c")
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setBounded(IggyStoppingOffsets.latest())
                        .setValueOnlyDeserializer(new NumberSchema())
                        .build();
        assertJobFailsWith(
                source,
                "Cannot deserialize the message at offset 2 of partition 0",
                "topic 't'",
                "setSkipUndecodableRecords(true)");
    }

    /** Runs the source to its end and expects the job to fail with all of {@code messages}. */
    private static void assertJobFailsWith(IggySource<?> source, String... messages) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        RestartStrategyUtils.configureNoRestartStrategy(env);
        assertThatThrownBy(
                        () -> {
                            try (CloseableIterator<?> it =
                                    env.fromSource(source, WatermarkStrategy.noWatermarks(), "s")
                                            .executeAndCollect()) {
                                it.forEachRemaining(x -> {});
                            }
                        })
                .satisfies(
                        e ->
                                assertThat(ExceptionUtils.findThrowableWithMessage(e, messages[0]))
                                        .get()
                                        .extracting(Throwable::getMessage)
                                        .asString()
                                        .contains(messages));
    }

    @Test
    void withSkipOptionUndecodablePayloadsAreCountedAndSkipped() throws Exception {
        IGGY.send(stream, topic, 0, utf8("1", "2", "oops", "4"));
        IggySource<Long> source =
                IggySource.<Long>builder()
                        .setConnection(connection(IGGY))
                        .setStream(stream)
                        .setTopic(topic)
                        .setConsumerName("c")
                        .setSkipUndecodableRecords(true)
                        .setValueOnlyDeserializer(new NumberSchema())
                        .build();
        MetricListener metrics = new MetricListener();
        try (SourceReader<Long, IggyPartitionSplit> reader =
                source.createReader(
                        new TestingReaderContext(
                                new Configuration(),
                                InternalSourceReaderMetricGroup.mock(metrics.getMetricGroup())))) {
            reader.start();
            reader.addSplits(
                    List.of(
                            new IggyPartitionSplit(
                                    IggyId.of(stream),
                                    IggyId.of(topic),
                                    0,
                                    0,
                                    IggyPartitionSplit.NO_STOPPING_OFFSET)));
            TestingReaderOutput<Long> output = new TestingReaderOutput<>();
            waitUntil(
                    "three records are emitted",
                    Duration.ofSeconds(20),
                    () -> {
                        if (reader.pollNext(output) == InputStatus.NOTHING_AVAILABLE) {
                            try {
                                reader.isAvailable().get(100, TimeUnit.MILLISECONDS);
                            } catch (java.util.concurrent.TimeoutException e) {
                                // nothing yet
                            }
                        }
                        return output.getEmittedRecords().size() >= 3;
                    },
                    () -> ", but only " + output.getEmittedRecords() + " are");
            assertThat(new ArrayList<>(output.getEmittedRecords())).containsExactly(1L, 2L, 4L);
            assertThat(metrics.getCounter("numRecordsSkipped").map(Counter::getCount))
                    .isEqualTo(Optional.of(1L));
            assertThat(reader.snapshotState(1))
                    .extracting(IggyPartitionSplit::startingOffset)
                    .as("the skipped message counts as processed")
                    .containsExactly(4L);
        }
    }
}

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

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.connector.base.sink.writer.TestSinkInitContext;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.connector.iggy.testutils.server.EmbeddedIggyServer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;

import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.apache.flink.connector.iggy.sink.testutils.IggySinkExternalContext.connection;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The stream-mode sink against an Iggy server: partitioning, bad input, send failures. */
class IggySinkITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    private static final int PARTITIONS = 5;
    private String stream;
    private final String topic = "out";

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("sink");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, topic, PARTITIONS);
    }

    @Test
    void aJobWritesEveryRecordInOrderToTheConfiguredPartition() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        List<String> records = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            records.add("r" + i);
        }
        env.fromData(records).sinkTo(strings().setPartition(3).build());
        env.execute("iggy sink");
        assertThat(payloads(3)).containsExactlyElementsOf(records);
        assertThat(payloads(0)).isEmpty();
    }

    @Test
    void keyPartitioningMatchesIggysOwnMessagesKeyPartitioning() throws Exception {
        List<String> keys = List.of("test-key", "key-1", "user-123", "a", "b", "c", "d", "e");
        for (String key : keys) {
            IGGY.client()
                    .messages()
                    .sendMessages(
                            StreamId.of(stream),
                            TopicId.of(topic),
                            Partitioning.messagesKey(key),
                            List.of(Message.of(key)));
        }
        for (String key : keys) {
            assertThat(payloads(IggyPartitioner.partitionForKey(bytes(key), PARTITIONS)))
                    .as("server placed key %s", key)
                    .contains(key);
        }
    }

    /**
     * The writer registers its client's {@code reconnects} counter in its own metric group (the
     * counting itself is IggyClientsITCase's): 0 while its connection stays open.
     */
    @Test
    void theWriterRegistersReconnectsInItsMetricGroup() throws Exception {
        MetricRecordingInitContext context = new MetricRecordingInitContext();
        try (SinkWriter<String> writer = strings().setPartition(0).build().createWriter(context)) {
            writer.write("one", NO_CONTEXT);
            writer.flush(true);
        }
        assertThat(payloads(0)).containsExactly("one");
        assertThat(context.metrics().registeredCounter(IggyClients.RECONNECTS).getCount()).isZero();
    }

    @Test
    void oneBatchWithMixedKeysLandsEveryRecordInItsKeysPartition() throws Exception {
        IggySink<String> sink =
                strings()
                        .setKeySerializationSchema(s -> bytes(s.split("=")[0]))
                        .setPartitionByKey()
                        .build();
        List<String> records = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            records.add("key-" + i + "=v");
        }
        try (SinkWriter<String> writer = sink.createWriter(new TestSinkInitContext())) {
            for (String r : records) {
                writer.write(r, NO_CONTEXT);
            }
            writer.flush(true);
        }
        int seen = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            for (String payload : payloads(p)) {
                String key = payload.split("=")[0];
                assertThat(IggyPartitioner.partitionForKey(bytes(key), PARTITIONS))
                        .as("partition of %s", key)
                        .isEqualTo(p);
                seen++;
            }
        }
        assertThat(seen).isEqualTo(records.size());
    }

    @Test
    void manySmallBatchesInFlightAtOnceAreAppendedInOrder() throws Exception {
        IggySink<String> sink =
                strings().setMaxBatchMessages(3).setMaxInFlightRequests(8).setPartition(1).build();
        List<String> records = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            records.add("r" + i);
        }
        try (SinkWriter<String> writer = sink.createWriter(new TestSinkInitContext())) {
            for (String r : records) {
                writer.write(r, NO_CONTEXT);
            }
            writer.flush(true);
        }
        assertThat(payloads(1)).containsExactlyElementsOf(records);
    }

    @Test
    void messagesCarryHeadersIdsAndOriginTimestamps() throws Exception {
        IggySink<String> sink =
                strings()
                        .setKeySerializationSchema(s -> bytes("k-" + s))
                        .setKeyHeader("key")
                        .setMessageIdFunction(s -> java.math.BigInteger.valueOf(1000 + s.length()))
                        .build();
        try (SinkWriter<String> writer = sink.createWriter(new TestSinkInitContext())) {
            writer.write(
                    "abc",
                    new SinkWriter.Context() {
                        @Override
                        public long currentWatermark() {
                            return 0;
                        }

                        @Override
                        public Long timestamp() {
                            return 1_700_000_000_000L;
                        }
                    });
            writer.flush(true);
        }
        Message m = IGGY.readAll(stream, topic, 0).get(0);
        assertThat(m.header().id().toBigInteger()).hasToString("1003");
        assertThat(m.header().originTimestamp().longValueExact()).isEqualTo(1_700_000_000_000_000L);
        assertThat(m.userHeaders().values())
                .anySatisfy(
                        v ->
                                assertThat(new String(v.value(), StandardCharsets.UTF_8))
                                        .isEqualTo("k-abc"));
    }

    @Test
    void missingStreamIsAClearErrorOnTheFirstRecord() throws Exception {
        IggySink<String> sink = strings().setStream("no-such-stream-" + stream).build();
        assertThatThrownBy(() -> writeOne(sink))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("no-such-stream-" + stream)
                .hasMessageContaining(IGGY.address())
                .hasMessageContaining("create it first");
    }

    @Test
    void missingTopicIsAClearErrorOnTheFirstRecord() throws Exception {
        IggySink<String> sink = strings().setTopic("no-such-topic").build();
        assertThatThrownBy(() -> writeOne(sink))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("'no-such-topic'")
                .hasMessageContaining(stream)
                .hasMessageContaining("create it first");
    }

    @Test
    void wrongPasswordIsAClearErrorOnTheFirstRecord() throws Exception {
        IggySink<String> sink =
                strings()
                        .setConnection(
                                IggyConnectionConfig.builder()
                                        .setAddress(IGGY.address())
                                        .setCredentials(IGGY.username(), "wrong-password")
                                        .build())
                        .build();
        assertThatThrownBy(() -> writeOne(sink))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("Cannot log in")
                .hasMessageContaining("username and password")
                .hasMessageNotContaining("wrong-password");
    }

    /**
     * A writer connects on its first record, not while its task starts (Flink 2.2's SQL client
     * loses the TaskManager when a task fails while starting, FLINK-39330).
     */
    @Test
    void aWriterConnectsOnItsFirstRecordNotWhenMade() throws Exception {
        int closedPort = closedPort();
        IggySink<String> sink = sinkTo(closedPort);
        try (SinkWriter<String> writer = sink.createWriter(new TestSinkInitContext())) {
            writer.flush(false); // nothing to send: still no connection
            assertThatThrownBy(() -> writer.write("a", NO_CONTEXT))
                    .isInstanceOf(IggyConnectorException.class)
                    .hasMessageContaining("Cannot connect to Iggy at 127.0.0.1:" + closedPort);
        }
    }

    @Test
    void aBadAddressFailsTheJobWithTheConnectMessage() throws Exception {
        int closedPort = closedPort();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromData("a", "b").sinkTo(sinkTo(closedPort));
        assertThatThrownBy(() -> env.execute("bad address"))
                .satisfies(
                        e ->
                                assertThat(
                                                ExceptionUtils.findThrowableWithMessage(
                                                        e,
                                                        "Cannot connect to Iggy at 127.0.0.1:"
                                                                + closedPort))
                                        .isPresent());
    }

    /** A payload above the server's limit fails before it is sent, naming the limit. */
    @Test
    void anOversizedMessageFailsBeforeSendingNamingTheLimit() throws Exception {
        IggySink<String> sink =
                IggySink.<String>builder()
                        .setConnection(connection(IGGY))
                        .setStream(stream)
                        .setTopic(topic)
                        .setPartition(1)
                        .setValueSerializationSchema(s -> new byte[Integer.parseInt(s)])
                        .build();
        try (SinkWriter<String> writer = sink.createWriter(new TestSinkInitContext())) {
            writer.write("10", NO_CONTEXT);
            assertThatThrownBy(() -> writer.write("64000001", NO_CONTEXT))
                    .isInstanceOf(IggyConnectorException.class)
                    .hasMessageContaining("partition 1 of topic")
                    .hasMessageContaining("64,000,001 bytes of payload")
                    .hasMessageContaining("at most 64,000,000 bytes")
                    .hasMessageContaining("4022");
            writer.flush(true);
        }
        assertThat(IGGY.readAll(stream, topic, 1)).hasSize(1);
    }

    @Test
    void aPartitionThatDoesNotExistFailsTheJobWithTheCause() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromData("a", "b", "c").sinkTo(strings().setPartition(PARTITIONS + 2).build());
        assertThatThrownBy(() -> env.execute("bad partition"))
                .satisfies(
                        e ->
                                assertThat(
                                                ExceptionUtils.findThrowableWithMessage(
                                                        e,
                                                        "partition "
                                                                + (PARTITIONS + 2)
                                                                + " does not exist"))
                                        .isPresent());
    }

    @Test
    void aStoppedServerFailsFlushWithTheCauseInsteadOfLosingRecords() throws Exception {
        Optional<EmbeddedIggyServer> server = IGGY.embeddedServer();
        Assumptions.assumeTrue(server.isPresent(), "needs the embedded server to stop it");
        IggySink<String> sink =
                strings()
                        .setConnection(
                                IggyConnectionConfig.builder()
                                        .setAddress(IGGY.address())
                                        .setCredentials(IGGY.username(), IGGY.password())
                                        .setRequestTimeout(Duration.ofSeconds(2))
                                        .setConnectTimeout(Duration.ofSeconds(2))
                                        .build())
                        .build();
        SinkWriter<String> writer = sink.createWriter(new TestSinkInitContext());
        try {
            writer.write("before", NO_CONTEXT);
            writer.flush(false);
            server.get().stop();
            writer.write("lost?", NO_CONTEXT);
            assertThatThrownBy(() -> writer.flush(false)).isInstanceOf(IOException.class);
        } finally {
            server.get().start();
            writer.close();
        }
        assertThat(payloads(0)).containsExactly("before");
    }

    @Test
    void buildNamesInvalidProperties() {
        assertThatThrownBy(() -> IggySink.<String>builder().setTopic("t").build())
                .hasMessageContaining("setStream");
        assertThatThrownBy(() -> IggySink.<String>builder().setStream("s").build())
                .hasMessageContaining("setTopic");
        assertThatThrownBy(() -> IggySink.<String>builder().setStream("s").setTopic("t").build())
                .hasMessageContaining("setRecordSerializer")
                .hasMessageContaining("setConnection");
        assertThatThrownBy(() -> base().setMaxBatchMessages(0).build())
                .hasMessageContaining("max batch messages");
        assertThatThrownBy(() -> base().setMaxBatchBytes(0).build())
                .hasMessageContaining("max batch bytes");
        assertThatThrownBy(() -> base().setLinger(Duration.ofMillis(-1)).build())
                .hasMessageContaining("linger");
        assertThatThrownBy(() -> base().setMaxInFlightRequests(0).build())
                .hasMessageContaining("in-flight");
    }

    private static IggySinkBuilder<String> base() {
        return IggySinkBuilderTest.<String>sinkTo("s", "t")
                .setValueSerializationSchema(new SimpleStringSchema());
    }

    /** Strings to this test's topic, partition 0 unless changed. */
    private IggySinkBuilder<String> strings() {
        return IggySink.<String>builder()
                .setConnection(connection(IGGY))
                .setStream(stream)
                .setTopic(topic)
                .setValueSerializationSchema(new SimpleStringSchema());
    }

    /** Strings to a loopback port, giving up connecting after 2 s. */
    private IggySink<String> sinkTo(int port) {
        return strings()
                .setConnection(
                        IggyConnectionConfig.builder()
                                .setAddress("127.0.0.1:" + port)
                                .setCredentials(IGGY.username(), IGGY.password())
                                .setConnectTimeout(Duration.ofSeconds(2))
                                .build())
                .build();
    }

    /** A loopback port nobody listens on any more. */
    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void writeOne(IggySink<String> sink) throws Exception {
        try (SinkWriter<String> writer = sink.createWriter(new TestSinkInitContext())) {
            writer.write("a", NO_CONTEXT);
        }
    }

    private List<String> payloads(long partition) {
        return IGGY.readAll(stream, topic, partition).stream()
                .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static final SinkWriter.Context NO_CONTEXT =
            new SinkWriter.Context() {
                @Override
                public long currentWatermark() {
                    return 0;
                }

                @Override
                public Long timestamp() {
                    return null;
                }
            };
}

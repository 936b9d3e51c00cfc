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
package org.apache.flink.connector.iggy.examples;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.connector.iggy.testutils.server.EmbeddedIggyServer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;
import org.apache.iggy.message.PollingStrategy;
import org.apache.iggy.topic.CompressionAlgorithm;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The README's example job: a topic of {@code key=value} lines read as a keyed map and written,
 * reconciled, to a second topic that keeps one message per change.
 *
 * <p>Without {@code IGGY_TCP_ADDRESS} (or {@code --address host:port}) it starts an in-JVM Iggy
 * server and logs in as its root user; with it, it uses that Iggy 0.8 server, with the credentials
 * of {@code IGGY_USERNAME}/{@code IGGY_PASSWORD} (no default: it fails naming them when they are
 * missing), where it recreates the stream {@code flink-iggy-example}. It writes {@link #INPUT} to
 * {@code events}, runs the job once over what exists (bounded), and prints the input, the changes
 * the source derived from it (a line {@code key=} deletes its key) and what reached {@code latest}:
 * an unchanged value is not written again, and a delete is written as {@code key=}.
 */
public final class KeyedMapExample {

    static final String STREAM = "flink-iggy-example";
    static final String EVENTS = "events";
    static final String LATEST = "latest";

    /** An upsert of k1 and k2, k1's value again (unchanged), a change of k1, a delete of k2. */
    static final List<String> INPUT = List.of("k1=v1", "k2=v2", "k1=v1", "k1=v1b", "k2=");

    /** What one run read, derived and wrote. */
    record Result(
            List<String> input, List<IggyMapChange<String, String>> changes, List<String> output) {}

    private KeyedMapExample() {}

    public static void main(String[] args) throws Exception {
        String address = JobArgs.orDefault(args, "--address", System.getenv("IGGY_TCP_ADDRESS"));
        IggyConnectionConfig.Builder connection = IggyConnectionConfig.builder();

        EmbeddedIggyServer server = null;
        if (address == null || address.isBlank()) {
            EmbeddedIggyServer.Config config = EmbeddedIggyServer.Config.defaults();
            server = EmbeddedIggyServer.start(config);
            address = server.address();
            // The server this example started: its root user, whose credentials it chose.
            connection.setCredentials(config.rootUsername(), config.rootPassword());
            System.out.println(
                    "Started an in-JVM Iggy server at "
                            + address
                            + " (set IGGY_TCP_ADDRESS=host:port to use a real one)");
        } else {
            // Someone else's server: the credentials come from IGGY_USERNAME and IGGY_PASSWORD
            // only; build() names them when they are missing.
            System.out.println("Using the Iggy server at " + address);
        }
        try {
            print(run(connection.setAddress(address).build(), STREAM));
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    private static void print(Result result) {
        System.out.println();
        System.out.println(
                "Input: "
                        + count(result.input().size(), "message")
                        + " in topic '"
                        + EVENTS
                        + "' of stream '"
                        + STREAM
                        + "'");
        result.input().forEach(line -> System.out.println("  " + line));

        long deletes = result.changes().stream().filter(IggyMapChange::isDelete).count();
        System.out.println(
                "Changelog the source derived (key = the text before '='; 'key=' deletes the key): "
                        + count(result.changes().size() - deletes, "upsert")
                        + ", "
                        + count(deletes, "delete"));
        for (IggyMapChange<String, String> change : result.changes()) {
            System.out.println(
                    change.isDelete()
                            ? "  DELETE " + change.key()
                            : "  UPSERT " + change.key() + " -> " + change.value());
        }

        System.out.println(
                "Output: "
                        + count(result.output().size(), "message")
                        + " in topic '"
                        + LATEST
                        + "', one per change ("
                        + count(result.changes().size() - result.output().size(), "unchanged value")
                        + " skipped by the sink; a delete is written as 'key=')");
        result.output().forEach(line -> System.out.println("  " + line));
    }

    private static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /** Prepares the topics, runs the job, and returns what it read, derived and wrote. */
    static Result run(IggyConnectionConfig connection, String stream) throws Exception {
        try (IggyTcpClient client = newClient(connection)) {
            recreateTopics(client, stream);
            client.messages()
                    .sendMessages(
                            StreamId.of(stream),
                            TopicId.of(EVENTS),
                            Partitioning.partitionId(0L),
                            INPUT.stream().map(Message::of).toList());

            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(1);
            List<IggyMapChange<String, String>> changes = new ArrayList<>();
            try (CloseableIterator<IggyMapChange<String, String>> derived =
                    buildPipeline(env, connection, stream, IggyStoppingOffsets.latest())
                            .collectAsync()) {
                env.execute("Iggy keyed-map example");
                derived.forEachRemaining(changes::add);
            }

            List<String> output =
                    client
                            .messages()
                            .pollMessages(
                                    StreamId.of(stream),
                                    TopicId.of(LATEST),
                                    Optional.of(0L),
                                    Consumer.of(ConsumerId.of("example-reader")),
                                    PollingStrategy.offset(BigInteger.ZERO),
                                    100L,
                                    false)
                            .messages()
                            .stream()
                            .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                            .toList();
            return new Result(INPUT, changes, output);
        }
    }

    /**
     * {@code events} as a keyed map (key = the text before '=', {@code key=} a delete) into {@code
     * latest}, reconciled: bounded at {@code stop}, or live when it is {@code null}. Returns the
     * changes the source derives.
     */
    static DataStream<IggyMapChange<String, String>> buildPipeline(
            StreamExecutionEnvironment env,
            IggyConnectionConfig connection,
            String stream,
            @Nullable IggyStoppingOffsets stop) {
        IggySourceBuilder<IggyMapChange<String, String>> source =
                IggySource.<IggyMapChange<String, String>>builder()
                        .setConnection(connection)
                        .setStream(stream)
                        .setTopic(EVENTS)
                        .setConsumerName("keyed-map-example")
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setDeserializer(
                                IggyRecordDeserializationSchema.keyedMap(
                                        KeyedMapExample::keyBeforeEquals,
                                        KeyedMapExample::endsWithEquals,
                                        new SimpleStringSchema()));
        if (stop != null) {
            source.setBounded(stop);
        }
        DataStream<IggyMapChange<String, String>> changes =
                env.fromSource(source.build(), WatermarkStrategy.noWatermarks(), "iggy-events")
                        .uid("iggy-events");
        changes.sinkTo(
                        IggySink.<String, String>keyedMap()
                                .setConnection(connection)
                                .setStream(stream)
                                .setTopic(LATEST)
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .setDeletionValueFunction(
                                        key -> (key + "=").getBytes(StandardCharsets.UTF_8))
                                .setReconcileUid("fingerprints")
                                .build())
                .name("iggy-latest")
                .uid("iggy-latest");
        return changes;
    }

    /** {@code k1} for {@code k1=v1}; a line without '=' has no key and is skipped. */
    @Nullable
    static String keyBeforeEquals(IggyMessage message) {
        String line = new String(message.payload(), StandardCharsets.UTF_8);
        int eq = line.indexOf('=');
        return eq < 0 ? null : line.substring(0, eq);
    }

    /** {@code k2=}: the key without a value, a delete. */
    static boolean endsWithEquals(IggyMessage message) {
        byte[] payload = message.payload();
        return payload.length > 0 && payload[payload.length - 1] == '=';
    }

    private static IggyTcpClient newClient(IggyConnectionConfig connection) {
        if (connection.username().isEmpty()) {
            throw new IllegalArgumentException(
                    "The example prepares its topics as a user with a password: set IGGY_USERNAME"
                            + " and IGGY_PASSWORD (a personal access token is not enough here)");
        }
        return IggyTcpClient.builder()
                .host(connection.host())
                .port(connection.port())
                .credentials(
                        connection.username().orElseThrow(), connection.password().orElseThrow())
                .buildAndLogin();
    }

    /** Starts from empty topics so that the example prints the same on every run. */
    private static void recreateTopics(IggyTcpClient client, String stream) {
        if (client.streams().getStream(StreamId.of(stream)).isPresent()) {
            client.streams().deleteStream(StreamId.of(stream));
        }
        client.streams().createStream(stream);
        for (String topic : List.of(EVENTS, LATEST)) {
            client.topics()
                    .createTopic(
                            StreamId.of(stream),
                            1L,
                            CompressionAlgorithm.None,
                            BigInteger.ZERO,
                            BigInteger.ZERO,
                            Optional.empty(),
                            topic);
        }
    }
}

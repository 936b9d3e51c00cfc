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
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

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
 * <p>Without arguments it starts an in-JVM Iggy server; {@code --address host:port} (with {@code
 * --username}, {@code --password}) uses a running Iggy 0.8 server instead. It writes {@code k1=v1},
 * {@code k2=v2}, {@code k1=v1} (unchanged) and {@code k1=v1b} to {@code events}, runs the job once
 * over what exists (bounded), and prints what reached {@code latest}: three messages, since the
 * repeated {@code k1=v1} changes nothing.
 */
public final class KeyedMapExample {

    static final String STREAM = "flink-iggy-example";
    static final String EVENTS = "events";
    static final String LATEST = "latest";

    private KeyedMapExample() {}

    public static void main(String[] args) throws Exception {
        String address = JobArgs.option(args, "--address");
        String username = JobArgs.orDefault(args, "--username", "iggy");
        String password = JobArgs.orDefault(args, "--password", "iggy");

        EmbeddedIggyServer server = null;
        if (address == null) {
            server = EmbeddedIggyServer.start(EmbeddedIggyServer.Config.defaults());
            address = server.address();
            System.out.println("Started an in-JVM Iggy server at " + address);
        }
        try {
            IggyConnectionConfig connection =
                    IggyConnectionConfig.builder()
                            .setAddress(address)
                            .setCredentials(username, password)
                            .build();
            List<String> latest = run(connection, STREAM);
            System.out.println("Messages in topic '" + LATEST + "':");
            latest.forEach(line -> System.out.println("  " + line));
            System.out.println(
                    "Example finished: "
                            + latest.size()
                            + " changes written for 4 input messages.");
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    /** Prepares the topics, runs the job, and returns the payloads that reached {@code latest}. */
    static List<String> run(IggyConnectionConfig connection, String stream) throws Exception {
        try (IggyTcpClient client = newClient(connection)) {
            recreateTopics(client, stream);
            List<Message> input = new ArrayList<>();
            for (String line : List.of("k1=v1", "k2=v2", "k1=v1", "k1=v1b")) {
                input.add(Message.of(line));
            }
            client.messages()
                    .sendMessages(
                            StreamId.of(stream),
                            TopicId.of(EVENTS),
                            Partitioning.partitionId(0L),
                            input);

            runJob(connection, stream);

            return client
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
        }
    }

    private static void runJob(IggyConnectionConfig connection, String stream) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        buildPipeline(env, connection, stream, IggyStoppingOffsets.latest());
        env.execute("Iggy keyed-map example");
    }

    /**
     * {@code events} as a keyed map (key = the text before '=') into {@code latest}, reconciled:
     * bounded at {@code stop}, or live when it is {@code null}.
     */
    static void buildPipeline(
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
                                        new SimpleStringSchema()));
        if (stop != null) {
            source.setBounded(stop);
        }
        env.fromSource(source.build(), WatermarkStrategy.noWatermarks(), "iggy-events")
                .sinkTo(
                        IggySink.<String, String>keyedMap()
                                .setConnection(connection)
                                .setStream(stream)
                                .setTopic(LATEST)
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .build())
                .name("iggy-latest");
    }

    /** {@code k1} for {@code k1=v1}; a line without '=' has no key and is skipped. */
    @Nullable
    static String keyBeforeEquals(IggyMessage message) {
        String line = new String(message.payload(), StandardCharsets.UTF_8);
        int eq = line.indexOf('=');
        return eq < 0 ? null : line.substring(0, eq);
    }

    private static IggyTcpClient newClient(IggyConnectionConfig connection) {
        return IggyTcpClient.builder()
                .host(connection.host())
                .port(connection.port())
                .credentials(connection.username(), connection.password())
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

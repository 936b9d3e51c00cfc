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
package org.apache.flink.connector.iggy.testutils.server;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.testutils.TestClients;

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.topic.CompressionAlgorithm;

import java.io.PrintStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * Runs {@link EmbeddedIggyServer} standalone until the process is killed, optionally with streams
 * and topics created up front (the connector never creates them). See {@link #USAGE}.
 *
 * <p>Prints {@code Embedded Iggy server listening on HOST:PORT} once the streams and topics exist,
 * so a script can wait for that line. With {@code send}, {@code poll} or {@code topic} as first
 * argument it runs {@link IggyCli} instead.
 */
@Internal
public final class EmbeddedIggyServerMain {
    static final int DEFAULT_PORT = 8090;

    static final String USAGE =
            String.join(
                    "\n",
                    "Usage: java -jar flink-connector-iggy-test-utils-<version>.jar [options]",
                    "An in-memory Iggy 0.8 server for tests and local trials; runs until killed.",
                    "",
                    "  --host HOST            address to listen on (default 127.0.0.1)",
                    "  --port PORT            TCP port (default 8090; 0 picks a free one)",
                    "  --username NAME        root user's name (default iggy)",
                    "  --password PASSWORD    root user's password (default iggy)",
                    "  --deduplication        drop a message whose id the partition saw in the"
                            + " last minute",
                    "  --segment-size BYTES   seal a partition's segment at this size"
                            + " (default 1073741824)",
                    "  --delete-oldest-segments",
                    "                         delete the oldest segments of a topic that reached"
                            + " its max size",
                    "  --stream NAME          create this stream at start; repeatable",
                    "  --topic STREAM/TOPIC[:PARTITIONS]",
                    "                         create this topic with PARTITIONS partitions"
                            + " (default 1),",
                    "                         and its stream if missing; repeatable",
                    "  --help                 print this help and exit",
                    "",
                    "Example: --stream shop --topic shop/orders:3 --topic shop/payments",
                    "",
                    "The jar also sends and polls messages, and creates topics, on any Iggy 0.8"
                            + " server:",
                    "  java -jar flink-connector-iggy-test-utils-<version>.jar send|poll STREAM/TOPIC"
                            + " ... (send --help)",
                    "  java -jar flink-connector-iggy-test-utils-<version>.jar topic create"
                            + " STREAM/TOPIC [PARTITIONS]");

    private EmbeddedIggyServerMain() {}

    /** A topic to create: {@code STREAM/TOPIC[:PARTITIONS]}. */
    record TopicSpec(String stream, String topic, int partitions) {
        /** The real server refuses more partitions than this (error 2015). */
        static final int MAX_PARTITIONS = 1000;

        static TopicSpec parse(String value) {
            int slash = value.indexOf('/');
            if (slash <= 0 || slash == value.length() - 1) {
                throw new IllegalArgumentException(
                        "--topic needs STREAM/TOPIC[:PARTITIONS], e.g. shop/orders:3; got '"
                                + value
                                + "'");
            }
            String stream = value.substring(0, slash);
            String rest = value.substring(slash + 1);
            int colon = rest.lastIndexOf(':');
            if (colon < 0) {
                return new TopicSpec(stream, rest, 1);
            }
            String topic = rest.substring(0, colon);
            String count = rest.substring(colon + 1);
            int partitions;
            try {
                partitions = Integer.parseInt(count);
            } catch (NumberFormatException e) {
                partitions = -1;
            }
            if (topic.isEmpty() || partitions < 1 || partitions > MAX_PARTITIONS) {
                throw new IllegalArgumentException(
                        "--topic '"
                                + value
                                + "': the partition count after ':' must be 1.."
                                + MAX_PARTITIONS
                                + ", e.g. shop/orders:3");
            }
            return new TopicSpec(stream, topic, partitions);
        }

        @Override
        public String toString() {
            return stream + "/" + topic + ":" + partitions;
        }
    }

    /** What the command line asked for. {@code streams} includes the streams of the topics. */
    record Options(
            EmbeddedIggyServer.Config config,
            List<String> streams,
            List<TopicSpec> topics,
            boolean help) {

        static Options parse(String... args) {
            EmbeddedIggyServer.Config.Builder config =
                    EmbeddedIggyServer.Config.builder().port(DEFAULT_PORT);
            String username = "iggy";
            String password = "iggy";
            Set<String> streams = new LinkedHashSet<>();
            List<TopicSpec> topics = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                switch (option) {
                    case "--help":
                    case "-h":
                        return new Options(config.build(), List.of(), List.of(), true);
                    case "--host":
                        config.host(valueOf(args, ++i, option));
                        break;
                    case "--port":
                        config.port(portOf(valueOf(args, ++i, option)));
                        break;
                    case "--username":
                        username = valueOf(args, ++i, option);
                        break;
                    case "--password":
                        password = valueOf(args, ++i, option);
                        break;
                    case "--deduplication":
                        config.deduplicationEnabled();
                        break;
                    case "--segment-size":
                        config.segmentSize(bytesOf(valueOf(args, ++i, option), option));
                        break;
                    case "--delete-oldest-segments":
                        config.deleteOldestSegments(true);
                        break;
                    case "--stream":
                        streams.add(nameOf(valueOf(args, ++i, option), option));
                        break;
                    case "--topic":
                        TopicSpec topic = TopicSpec.parse(valueOf(args, ++i, option));
                        boolean duplicate =
                                topics.stream()
                                        .anyMatch(
                                                t ->
                                                        t.stream().equals(topic.stream())
                                                                && t.topic().equals(topic.topic()));
                        if (duplicate) {
                            throw new IllegalArgumentException(
                                    "--topic " + topic.stream() + "/" + topic.topic() + " twice");
                        }
                        streams.add(topic.stream());
                        topics.add(topic);
                        break;
                    default:
                        throw new IllegalArgumentException("Unknown option '" + option + "'");
                }
            }
            config.rootCredentials(username, password);
            return new Options(config.build(), List.copyOf(streams), List.copyOf(topics), false);
        }

        /** The value after {@code option}, or why there is none. */
        static String valueOf(String[] args, int index, String option) {
            if (index >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[index];
        }

        private static int portOf(String value) {
            try {
                int port = Integer.parseInt(value);
                if (port >= 0 && port <= 65535) {
                    return port;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException("--port must be 0..65535, got '" + value + "'");
        }

        private static long bytesOf(String value, String option) {
            try {
                long bytes = Long.parseLong(value);
                if (bytes > 0) {
                    return bytes;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(
                    option + " must be a positive number of bytes, got '" + value + "'");
        }

        private static String nameOf(String value, String option) {
            if (value.isEmpty() || value.startsWith("--")) {
                throw new IllegalArgumentException(option + " needs a name, got '" + value + "'");
            }
            return value;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && List.of("send", "poll", "topic").contains(args[0])) {
            System.exit(IggyCli.run(args, System.getenv(), System.in, System.out));
            return;
        }
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println();
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.println(USAGE);
            return;
        }
        EmbeddedIggyServer server = EmbeddedIggyServer.start(options.config());
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "iggy-embedded-shutdown"));
        createStreamsAndTopics(server, options, System.out);
        System.out.println("Embedded Iggy server listening on " + server.address());
        System.out.flush();
        new CountDownLatch(1).await(); // until the process is killed
    }

    /** Through the SDK, as a user would: the server's own checks apply. */
    static void createStreamsAndTopics(
            EmbeddedIggyServer server, Options options, PrintStream log) {
        if (options.streams().isEmpty()) {
            return;
        }
        EmbeddedIggyServer.Config config = options.config();
        try (IggyTcpClient client =
                TestClients.buildAndLogin(
                        IggyTcpClient.builder()
                                .host(server.host())
                                .port(server.port())
                                .credentials(config.rootUsername(), config.rootPassword()))) {
            for (String stream : options.streams()) {
                client.streams().createStream(stream);
                log.println("Created stream " + stream);
            }
            for (TopicSpec topic : options.topics()) {
                client.topics()
                        .createTopic(
                                StreamId.of(topic.stream()),
                                (long) topic.partitions(),
                                CompressionAlgorithm.None,
                                BigInteger.ZERO,
                                BigInteger.ZERO,
                                Optional.empty(),
                                topic.topic());
                log.println("Created topic " + topic);
            }
        }
    }
}

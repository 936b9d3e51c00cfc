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

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderValue;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;
import org.apache.iggy.message.PollingStrategy;
import org.apache.iggy.topic.CompressionAlgorithm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code send}, {@code poll} and {@code topic create}: put text messages into a topic of any Iggy
 * 0.8 server, print what a partition holds and create a topic, through the official SDK, so that
 * trying the connector needs no Iggy CLI. See {@link #USAGE}. Single-threaded: everything runs on
 * the caller's thread.
 */
final class IggyCli {

    static final String USAGE =
            String.join(
                    "\n",
                    "Usage: java -jar flink-connector-iggy-test-utils-<version>.jar send STREAM/TOPIC"
                            + " [options] [MESSAGE...]",
                    "       java -jar flink-connector-iggy-test-utils-<version>.jar poll STREAM/TOPIC"
                            + " [options]",
                    "       java -jar flink-connector-iggy-test-utils-<version>.jar topic create"
                            + " STREAM/TOPIC [PARTITIONS] [options]",
                    "",
                    "send: one message per MESSAGE argument, or per line of standard input when"
                            + " none is given.",
                    "poll: prints 'offset=N key=K payload=P' per message (key= only when the"
                            + " message has the key header).",
                    "topic create: creates the topic with PARTITIONS partitions (default 1), and"
                            + " its stream if missing; takes only the first three options.",
                    "",
                    "  --address HOST:PORT    server (default: $IGGY_TCP_ADDRESS, else"
                            + " 127.0.0.1:8090)",
                    "  --username NAME        (default: $IGGY_USERNAME, else iggy)",
                    "  --password PASSWORD    (default: $IGGY_PASSWORD, else iggy)",
                    "  --partition N          send: to this partition (default: balanced);"
                            + " poll: from it (default 0)",
                    "  --header NAME=VALUE    send: a string header on every message; repeatable",
                    "  --offset N             poll: first offset (default 0)",
                    "  --count N              poll: at most N messages (default 100)",
                    "  --key-header NAME      poll: header printed as key= (default flink.key)",
                    "",
                    "Examples: send shop/events k1=v1 k2=v2",
                    "          poll shop/latest --offset 0");

    static final String DEFAULT_ADDRESS = "127.0.0.1:8090";
    static final String TOPIC_CREATE = "topic create";

    /** The options of every command; {@code topic create} takes only these. */
    private static final List<String> CONNECTION_OPTIONS =
            List.of("--address", "--username", "--password");

    static final String DEFAULT_KEY_HEADER = "flink.key";

    private IggyCli() {}

    /** What the command line asked for. */
    record Options(
            String command,
            String stream,
            String topic,
            String address,
            String username,
            String password,
            Optional<Long> partition,
            Map<String, String> headers,
            long offset,
            int count,
            String keyHeader,
            List<String> messages,
            int partitions) {

        static Options parse(Map<String, String> env, String... args) {
            boolean createTopic = args.length > 0 && args[0].equals("topic");
            if (createTopic && (args.length < 2 || !args[1].equals("create"))) {
                throw new IllegalArgumentException(
                        "topic takes create: topic create STREAM/TOPIC [PARTITIONS]");
            }
            int targetAt = createTopic ? 2 : 1;
            String command = createTopic ? TOPIC_CREATE : args.length > 0 ? args[0] : "";
            if (args.length <= targetAt
                    || !List.of("send", "poll", TOPIC_CREATE).contains(command)) {
                throw new IllegalArgumentException("send, poll or topic create needs STREAM/TOPIC");
            }
            String target = args[targetAt];
            int slash = target.indexOf('/');
            if (slash <= 0 || slash == target.length() - 1) {
                throw new IllegalArgumentException(
                        command + " needs STREAM/TOPIC, e.g. shop/events; got '" + target + "'");
            }
            String address = env.getOrDefault("IGGY_TCP_ADDRESS", DEFAULT_ADDRESS);
            String username = env.getOrDefault("IGGY_USERNAME", "iggy");
            String password = env.getOrDefault("IGGY_PASSWORD", "iggy");
            Optional<Long> partition = Optional.empty();
            Map<String, String> headers = new LinkedHashMap<>();
            long offset = 0;
            int count = 100;
            String keyHeader = DEFAULT_KEY_HEADER;
            List<String> messages = new ArrayList<>();
            for (int i = targetAt + 1; i < args.length; i++) {
                String option = args[i];
                if (createTopic
                        && option.startsWith("--")
                        && !CONNECTION_OPTIONS.contains(option)) {
                    throw new IllegalArgumentException(
                            option
                                    + " is not an option of topic create: it takes "
                                    + CONNECTION_OPTIONS);
                }
                switch (option) {
                    case "--address":
                        address = EmbeddedIggyServerMain.Options.valueOf(args, ++i, option);
                        break;
                    case "--username":
                        username = EmbeddedIggyServerMain.Options.valueOf(args, ++i, option);
                        break;
                    case "--password":
                        password = EmbeddedIggyServerMain.Options.valueOf(args, ++i, option);
                        break;
                    case "--partition":
                        partition =
                                Optional.of(
                                        numberOf(
                                                EmbeddedIggyServerMain.Options.valueOf(
                                                        args, ++i, option),
                                                option));
                        break;
                    case "--header":
                        String header = EmbeddedIggyServerMain.Options.valueOf(args, ++i, option);
                        int eq = header.indexOf('=');
                        if (eq <= 0) {
                            throw new IllegalArgumentException(
                                    "--header needs NAME=VALUE, got '" + header + "'");
                        }
                        headers.put(header.substring(0, eq), header.substring(eq + 1));
                        break;
                    case "--offset":
                        offset =
                                numberOf(
                                        EmbeddedIggyServerMain.Options.valueOf(args, ++i, option),
                                        option);
                        break;
                    case "--count":
                        count =
                                (int)
                                        Math.min(
                                                numberOf(
                                                        EmbeddedIggyServerMain.Options.valueOf(
                                                                args, ++i, option),
                                                        option),
                                                1_000_000);
                        break;
                    case "--key-header":
                        keyHeader = EmbeddedIggyServerMain.Options.valueOf(args, ++i, option);
                        break;
                    default:
                        if (option.startsWith("--")) {
                            throw new IllegalArgumentException("Unknown option '" + option + "'");
                        }
                        if (command.equals("poll")) {
                            throw new IllegalArgumentException(
                                    "poll takes no messages, got '" + option + "'");
                        }
                        messages.add(option);
                }
            }
            if (command.equals("poll") && !headers.isEmpty()) {
                throw new IllegalArgumentException("--header is an option of send, not poll");
            }
            int partitions = createTopic ? partitionsOf(messages) : 0;
            int colon = address.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(
                        "--address needs HOST:PORT, e.g. 127.0.0.1:8090; got '" + address + "'");
            }
            numberOf(address.substring(colon + 1), "the port of --address");
            return new Options(
                    command,
                    target.substring(0, slash),
                    target.substring(slash + 1),
                    address,
                    username,
                    password,
                    partition,
                    Map.copyOf(headers),
                    offset,
                    count,
                    keyHeader,
                    createTopic ? List.of() : List.copyOf(messages),
                    partitions);
        }

        /** The PARTITIONS argument of {@code topic create}: 1 when none is given. */
        private static int partitionsOf(List<String> arguments) {
            if (arguments.isEmpty()) {
                return 1;
            }
            long max = EmbeddedIggyServerMain.TopicSpec.MAX_PARTITIONS;
            if (arguments.size() == 1 && arguments.get(0).matches("[0-9]{1,4}")) {
                long partitions = Long.parseLong(arguments.get(0));
                if (partitions >= 1 && partitions <= max) {
                    return (int) partitions;
                }
            }
            throw new IllegalArgumentException(
                    "topic create takes STREAM/TOPIC and a number of partitions, 1.."
                            + max
                            + "; got "
                            + arguments);
        }

        String host() {
            return address.substring(0, address.lastIndexOf(':'));
        }

        int port() {
            return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        }

        private static long numberOf(String value, String option) {
            try {
                long number = Long.parseLong(value);
                if (number >= 0) {
                    return number;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(
                    option + " must be a number of 0 or more, got '" + value + "'");
        }
    }

    /** Runs {@code args} ({@code send ...} or {@code poll ...}); returns the exit code. */
    static int run(String[] args, Map<String, String> env, InputStream in, PrintStream out) {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            out.println(USAGE);
            return 0;
        }
        Options options;
        try {
            options = Options.parse(env, args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println();
            System.err.println(USAGE);
            return 2;
        }
        try (IggyTcpClient client =
                IggyTcpClient.builder()
                        .host(options.host())
                        .port(options.port())
                        .credentials(options.username(), options.password())
                        .buildAndLogin()) {
            if (options.command().equals(TOPIC_CREATE)) {
                return createTopic(client, options, out);
            }
            if (options.command().equals("send")) {
                List<String> messages =
                        options.messages().isEmpty() ? lines(in) : options.messages();
                send(client, options, messages);
                out.println(
                        "Sent "
                                + messages.size()
                                + " messages to "
                                + options.stream()
                                + "/"
                                + options.topic());
            } else {
                poll(client, options, out);
            }
            return 0;
        } catch (IOException | RuntimeException e) {
            System.err.println(
                    options.command()
                            + " "
                            + options.stream()
                            + "/"
                            + options.topic()
                            + " at "
                            + options.address()
                            + " failed: "
                            + e);
            return 1;
        }
    }

    /**
     * Creates the topic, and its stream if missing; 1 when the topic exists already, which it
     * leaves as it is.
     */
    private static int createTopic(IggyTcpClient client, Options options, PrintStream out) {
        StreamId stream = StreamId.of(options.stream());
        String target = options.stream() + "/" + options.topic();
        if (client.streams().getStream(stream).isEmpty()) {
            client.streams().createStream(options.stream());
            out.println("Created stream " + options.stream());
        } else if (client.topics().getTopic(stream, TopicId.of(options.topic())).isPresent()) {
            System.err.println("Topic " + target + " exists already at " + options.address());
            return 1;
        }
        client.topics()
                .createTopic(
                        stream,
                        (long) options.partitions(),
                        CompressionAlgorithm.None,
                        BigInteger.ZERO,
                        BigInteger.ZERO,
                        Optional.empty(),
                        options.topic());
        out.println("Created topic " + target + " with " + options.partitions() + " partition(s)");
        return 0;
    }

    private static List<String> lines(InputStream in) throws IOException {
        BufferedReader reader =
                new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        return reader.lines().toList();
    }

    private static void send(IggyTcpClient client, Options options, List<String> messages) {
        Map<HeaderKey, HeaderValue> headers = new LinkedHashMap<>();
        options.headers()
                .forEach((k, v) -> headers.put(HeaderKey.fromString(k), HeaderValue.fromString(v)));
        List<Message> batch = new ArrayList<>(messages.size());
        for (String message : messages) {
            batch.add(headers.isEmpty() ? Message.of(message) : Message.of(message, headers));
        }
        if (batch.isEmpty()) {
            return;
        }
        client.messages()
                .sendMessages(
                        StreamId.of(options.stream()),
                        TopicId.of(options.topic()),
                        options.partition()
                                .map(Partitioning::partitionId)
                                .orElseGet(Partitioning::balanced),
                        batch);
    }

    private static void poll(IggyTcpClient client, Options options, PrintStream out) {
        List<Message> polled =
                client.messages()
                        .pollMessages(
                                StreamId.of(options.stream()),
                                TopicId.of(options.topic()),
                                Optional.of(options.partition().orElse(0L)),
                                Consumer.of(0L),
                                PollingStrategy.offset(BigInteger.valueOf(options.offset())),
                                (long) options.count(),
                                false)
                        .messages();
        HeaderKey keyHeader = HeaderKey.fromString(options.keyHeader());
        for (Message message : polled) {
            StringBuilder line = new StringBuilder("offset=").append(message.header().offset());
            HeaderValue key = message.userHeaders().get(keyHeader);
            if (key != null) {
                line.append(" key=").append(text(key.value()));
            }
            line.append(" payload=").append(text(message.payload()));
            out.println(line);
        }
    }

    /** UTF-8 text as it is; anything else as {@code 0x} and hex digits. */
    static String text(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return "0x" + HexFormat.of().formatHex(bytes);
        }
    }
}

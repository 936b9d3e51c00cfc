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
package org.apache.flink.connector.iggy.testutils;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.iggy.testutils.server.EmbeddedIggyServer;
import org.apache.flink.connector.iggy.testutils.server.SelfSignedCertificate;

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.client.blocking.tcp.IggyTcpClientBuilder;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.consumeroffset.ConsumerOffsetInfo;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.MessageHeader;
import org.apache.iggy.message.MessageId;
import org.apache.iggy.message.Partitioning;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.message.PollingStrategy;
import org.apache.iggy.partition.Partition;
import org.apache.iggy.topic.CompressionAlgorithm;
import org.apache.iggy.topic.TopicDetails;
import org.apache.iggy.user.GlobalPermissions;
import org.apache.iggy.user.Permissions;
import org.apache.iggy.user.StreamPermissions;
import org.apache.iggy.user.UserStatus;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * JUnit 5 extension that gives a test class an Iggy server: a fresh {@link EmbeddedIggyServer} per
 * class, or, when the environment variable {@code IGGY_TCP_ADDRESS=host:port} is set, a real server
 * at that address (credentials from {@code IGGY_USERNAME}/{@code IGGY_PASSWORD}, default {@code
 * iggy}/{@code iggy}).
 *
 * <pre>{@code
 * @RegisterExtension
 * static final IggyServerExtension IGGY = new IggyServerExtension();
 * }</pre>
 *
 * <p>Tests on a shared real server should name their streams with {@link #uniqueName(String)}.
 * Tests that need the embedded server itself (restart, deduplication, segment settings) should skip
 * when {@link #embeddedServer()} is empty.
 */
@PublicEvolving
public class IggyServerExtension implements BeforeAllCallback, AfterAllCallback {
    public static final String ADDRESS_ENV = "IGGY_TCP_ADDRESS";
    public static final String USERNAME_ENV = "IGGY_USERNAME";
    public static final String PASSWORD_ENV = "IGGY_PASSWORD";
    public static final String DEFAULT_CREDENTIAL = "iggy";

    /** Large enough for any partition a test fills; readAll polls in pages of this size. */
    private static final int READ_ALL_PAGE = 10_000;

    private static final long AWAIT_POLL_INTERVAL_NANOS = 10_000_000L;

    private static final AtomicLong NAME_COUNTER = new AtomicLong();
    private static final String RUN_ID = UUID.randomUUID().toString().substring(0, 8);

    private EmbeddedIggyServer.Config config;
    private final String externalAddress;
    private Path tlsCertificatePath; // null: plain TCP

    private int activations;
    private EmbeddedIggyServer server;
    private String host;
    private int port;
    private String username;
    private String password;
    private IggyTcpClient client;

    /** Uses the default server configuration. */
    public IggyServerExtension() {
        this(EmbeddedIggyServer.Config.defaults());
    }

    /**
     * Uses {@code config} for the embedded server (e.g. deduplication on). Ignored when {@code
     * IGGY_TCP_ADDRESS} points at a real server, whose configuration is its own.
     */
    public IggyServerExtension(EmbeddedIggyServer.Config config) {
        this.config = config;
        String address = System.getenv(ADDRESS_ENV);
        this.externalAddress = address == null || address.isBlank() ? null : address.trim();
    }

    /**
     * Makes the server listen with TLS only, presenting a {@link SelfSignedCertificate} made for
     * this extension; clients trust it through {@link #tlsCertificatePath()}. Always the in-JVM
     * server, also when {@code IGGY_TCP_ADDRESS} is set: a real server's TLS setup is its own. Call
     * before the extension starts.
     */
    public IggyServerExtension withTls() {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();
        try {
            Path directory = Files.createTempDirectory("iggy-tls-");
            directory.toFile().deleteOnExit();
            tlsCertificatePath = certificate.writeCertificatePem(directory);
            tlsCertificatePath.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        config = config.toBuilder().tls(certificate.serverContext()).build();
        return this;
    }

    /** The PEM file of the CA certificate that a TLS client must trust; see {@link #withTls()}. */
    public Path tlsCertificatePath() {
        if (tlsCertificatePath == null) {
            throw new IllegalStateException("The server does not use TLS: call withTls()");
        }
        return tlsCertificatePath;
    }

    public boolean isTls() {
        return tlsCertificatePath != null;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stop();
    }

    /**
     * Starts the embedded server or connects to the real one, as {@link #beforeAll} does: for
     * callers outside JUnit, such as benchmarks. Pair with {@link #stop()}.
     */
    public synchronized void start() {
        if (activations++ > 0) {
            return; // nested classes share the outer class's server
        }
        if (externalAddress != null && !isTls()) {
            int colon = externalAddress.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(
                        ADDRESS_ENV + " must be host:port, was " + externalAddress);
            }
            host = externalAddress.substring(0, colon);
            port = Integer.parseInt(externalAddress.substring(colon + 1));
            username = envOrDefault(USERNAME_ENV);
            password = envOrDefault(PASSWORD_ENV);
        } else {
            server = EmbeddedIggyServer.start(config);
            host = server.host();
            port = server.port();
            username = config.rootUsername();
            password = config.rootPassword();
        }
        client = newClient();
    }

    /** Closes the client, and the embedded server if it runs one, after the last start. */
    public synchronized void stop() {
        if (--activations > 0) {
            return;
        }
        try {
            if (client != null) {
                client.close();
            }
        } finally {
            client = null;
            if (server != null) {
                server.close();
                server = null;
            }
        }
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /** {@code host:port}. */
    public String address() {
        return host + ":" + port;
    }

    public String username() {
        return username;
    }

    public String password() {
        return password;
    }

    public boolean isExternal() {
        return externalAddress != null && !isTls();
    }

    /** The in-JVM server, or empty when the tests run against a real server. */
    public Optional<EmbeddedIggyServer> embeddedServer() {
        return Optional.ofNullable(server);
    }

    /** A logged-in blocking client owned by the extension; closed after all tests. */
    public IggyTcpClient client() {
        if (client == null) {
            throw new IllegalStateException("The extension is not active (register it statically)");
        }
        return client;
    }

    /**
     * A new logged-in blocking client holding one connection, so it is one server session; the
     * caller closes it.
     *
     * <p>With the SDK's default pool of 5, a sequential caller can still hop connections: the SDK
     * releases a channel only after the caller has been woken with the reply, so the next request
     * may open a new connection (a new session, not logged in there before, not a group member).
     */
    public IggyTcpClient newClient() {
        IggyTcpClientBuilder builder =
                IggyTcpClient.builder()
                        .host(host)
                        .port(port)
                        .credentials(username, password)
                        .connectionPoolSize(1);
        if (isTls()) {
            builder.tls(true).tlsCertificate(tlsCertificatePath.toFile());
        }
        return TestClients.buildAndLogin(builder);
    }

    /** A name no other test (in this or another JVM) uses, so tests can share a real server. */
    public String uniqueName(String prefix) {
        return prefix + "-" + RUN_ID + "-" + NAME_COUNTER.incrementAndGet();
    }

    public void createStream(String stream) {
        client().streams().createStream(stream);
    }

    /** No compression, server-default expiry and size, no replication factor. */
    public void createTopic(String stream, String topic, int partitions) {
        createTopic(stream, topic, partitions, 0);
    }

    /**
     * Like {@link #createTopic(String, String, int)}, with a maximum size: 0 means the server's
     * default (unlimited). The server refuses a size below its segment size (error 1019); the
     * embedded one's is {@link EmbeddedIggyServer.Config#segmentSize()}. With {@link
     * EmbeddedIggyServer.Config#deleteOldestSegments()} on, the topic's oldest segments are deleted
     * once it is full.
     */
    public void createTopic(String stream, String topic, int partitions, long maxTopicSizeBytes) {
        if (maxTopicSizeBytes < 0) {
            throw new IllegalArgumentException("negative maxTopicSizeBytes: " + maxTopicSizeBytes);
        }
        client().topics()
                .createTopic(
                        StreamId.of(stream),
                        (long) partitions,
                        CompressionAlgorithm.None,
                        BigInteger.ZERO,
                        BigInteger.valueOf(maxTopicSizeBytes),
                        Optional.empty(),
                        topic);
    }

    /**
     * Creates an active user with {@code permissions} on {@code stream} and no global permission:
     * for tests of what a connector does when the server denies it something.
     */
    public void createUserOfStream(
            String user, String password, String stream, StreamPermissions permissions) {
        long streamId = client().streams().getStream(StreamId.of(stream)).orElseThrow().id();
        GlobalPermissions none =
                new GlobalPermissions(
                        false, false, false, false, false, false, false, false, false, false);
        client().users()
                .createUser(
                        user,
                        password,
                        UserStatus.Active,
                        Optional.of(new Permissions(none, Map.of(streamId, permissions))));
    }

    public void deleteStream(String stream) {
        client().streams().deleteStream(StreamId.of(stream));
    }

    /** Sends the payloads as one batch to one partition (server-assigned ids, no headers). */
    public void send(String stream, String topic, long partition, List<byte[]> payloads) {
        List<Message> messages = new ArrayList<>(payloads.size());
        for (byte[] payload : payloads) {
            messages.add(message(payload));
        }
        client().messages()
                .sendMessages(
                        StreamId.of(stream),
                        TopicId.of(topic),
                        Partitioning.partitionId(partition),
                        messages);
    }

    /** Polls with a plain consumer and no auto-commit, so nothing is stored on the server. */
    public List<Message> poll(
            String stream, String topic, long partition, long fromOffset, int count) {
        PolledMessages polled =
                client().messages()
                        .pollMessages(
                                StreamId.of(stream),
                                TopicId.of(topic),
                                Optional.of(partition),
                                Consumer.of(0L),
                                PollingStrategy.offset(BigInteger.valueOf(fromOffset)),
                                (long) count,
                                false);
        return polled.messages();
    }

    /**
     * Every message currently in the partition, in offset order: from offset 0, or from the first
     * offset retained if older segments were deleted.
     */
    public List<Message> readAll(String stream, String topic, long partition) {
        long messagesCount = messagesCount(stream, topic, partition);
        List<Message> all = new ArrayList<>();
        long next = 0;
        while (all.size() < messagesCount) {
            List<Message> page = poll(stream, topic, partition, next, READ_ALL_PAGE);
            if (page.isEmpty()) {
                break;
            }
            all.addAll(page);
            next = page.get(page.size() - 1).header().offset().longValueExact() + 1;
        }
        return all;
    }

    /** The offset stored for {@code Consumer.of(ConsumerId.of(consumerName))}, if any. */
    public Optional<Long> storedOffset(
            String stream, String topic, long partition, String consumerName) {
        return client().consumerOffsets()
                .getConsumerOffset(
                        StreamId.of(stream),
                        TopicId.of(topic),
                        Optional.of(partition),
                        Consumer.of(ConsumerId.of(consumerName)))
                .map(ConsumerOffsetInfo::storedOffset)
                .map(BigInteger::longValueExact);
    }

    /**
     * Waits until the partition holds at least {@code atLeast} messages, then returns all of them.
     * For tests whose writer runs asynchronously (e.g. a Flink sink).
     *
     * @throws AssertionError if they do not arrive within {@code timeout}
     */
    public List<Message> awaitMessages(
            String stream, String topic, long partition, int atLeast, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long count = messagesCount(stream, topic, partition);
        while (count < atLeast) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(
                        "Expected at least "
                                + atLeast
                                + " messages in "
                                + stream
                                + "/"
                                + topic
                                + "/"
                                + partition
                                + " within "
                                + timeout
                                + ", found "
                                + count);
            }
            LockSupport.parkNanos(AWAIT_POLL_INTERVAL_NANOS);
            count = messagesCount(stream, topic, partition);
        }
        return readAll(stream, topic, partition);
    }

    /**
     * The number of messages in one partition, from the topic's details: those retained, so fewer
     * than were sent once old segments were deleted.
     */
    public long messagesCount(String stream, String topic, long partition) {
        return partitionDetails(stream, topic, partition).messagesCount().longValueExact();
    }

    /**
     * The current offset of one partition, from the topic's details: the highest offset assigned so
     * far (0 when empty), also after older segments were deleted.
     */
    public long currentOffset(String stream, String topic, long partition) {
        return partitionDetails(stream, topic, partition).currentOffset().longValueExact();
    }

    private Partition partitionDetails(String stream, String topic, long partition) {
        TopicDetails details =
                client().topics()
                        .getTopic(StreamId.of(stream), TopicId.of(topic))
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "No topic " + topic + " in stream " + stream));
        return details.partitions().stream()
                .filter(p -> p.id() == partition)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No partition " + partition));
    }

    private static Message message(byte[] payload) {
        MessageHeader header =
                new MessageHeader(
                        BigInteger.ZERO,
                        MessageId.serverGenerated(),
                        BigInteger.ZERO,
                        BigInteger.ZERO,
                        BigInteger.ZERO,
                        0L,
                        (long) payload.length,
                        BigInteger.ZERO);
        return new Message(header, payload, Map.of());
    }

    private static String envOrDefault(String name) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? DEFAULT_CREDENTIAL : value;
    }
}

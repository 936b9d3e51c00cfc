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

import org.apache.flink.annotation.PublicEvolving;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * An Iggy server inside the JVM that speaks the binary TCP protocol of Iggy 0.8, so the unmodified
 * Java SDK ({@code org.apache.iggy:iggy:0.8.0}) can talk to it. Data lives in memory.
 *
 * <pre>{@code
 * try (EmbeddedIggyServer server = EmbeddedIggyServer.start(EmbeddedIggyServer.Config.defaults())) {
 *     IggyTcpClient client = IggyTcpClient.builder().host(server.host()).port(server.port())
 *             .credentials("iggy", "iggy").buildAndLogin();
 *     ...
 * }
 * }</pre>
 *
 * <p>{@link #restart()} drops every connection and keeps all data (streams, topics, messages,
 * stored offsets, consumer groups, users, tokens), like a restart of a real server.
 *
 * <p>Guarded by {@code this}: the listening socket, the acceptor thread and the bound port. The
 * connections are {@link ClientConnections}' own.
 */
@PublicEvolving
public final class EmbeddedIggyServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedIggyServer.class);

    private final Config config;
    private final ServerState state;
    private final ClientConnections connections;

    private ServerSocket serverSocket;
    private Thread acceptor;
    private int boundPort = -1;

    public EmbeddedIggyServer() {
        this(Config.defaults());
    }

    public EmbeddedIggyServer(Config config) {
        this.config = Objects.requireNonNull(config, "config");
        this.state = new ServerState(config);
        this.connections =
                new ClientConnections(
                        state, new CommandDispatcher(state, config.host(), this::port));
    }

    /** Creates and starts a server. */
    public static EmbeddedIggyServer start(Config config) {
        EmbeddedIggyServer server = new EmbeddedIggyServer(config);
        server.start();
        return server;
    }

    /**
     * Starts listening. After a {@link #stop()} the server listens on the same port again, so
     * clients can reconnect to the address they knew.
     */
    public synchronized void start() {
        if (serverSocket != null) {
            throw new IllegalStateException("already started");
        }
        int port = boundPort >= 0 ? boundPort : config.port();
        try {
            // With TLS, each accepted socket does its handshake on its first read, in the
            // connection's own thread, so a client that never completes one blocks nobody else.
            ServerSocket socket =
                    config.tls() == null
                            ? new ServerSocket()
                            : config.tls().getServerSocketFactory().createServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(config.host()), port), 256);
            serverSocket = socket;
            boundPort = socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "Cannot listen on " + config.host() + ":" + port + ": " + e.getMessage(), e);
        }
        ServerSocket socket = serverSocket;
        acceptor =
                ClientConnections.newThread(
                        () -> connections.acceptLoop(socket, this::listensOn),
                        "iggy-embedded-acceptor");
        acceptor.start();
        LOG.info(
                "Embedded Iggy server listening on {}{}",
                address(),
                config.tls() == null ? "" : " (TLS)");
    }

    /**
     * Stops listening and closes every connection; returns once their sessions are gone (so their
     * consumer-group memberships have been dropped). Data is kept.
     */
    public void stop() {
        Thread acceptorThread;
        synchronized (this) {
            if (serverSocket == null) {
                return;
            }
            try {
                serverSocket.close();
            } catch (IOException e) {
                LOG.debug("Closing the listening socket failed", e);
            }
            serverSocket = null;
            acceptorThread = acceptor;
            acceptor = null;
        }
        joinQuietly(acceptorThread);
        connections.closeAndAwait();
        LOG.info("Embedded Iggy server on port {} stopped", boundPort);
    }

    /**
     * Closes every client connection while the server keeps listening, like a network failure:
     * clients must reconnect (and log in again). Returns once their sessions are gone.
     */
    public void disconnectClients() {
        connections.closeAndAwait();
    }

    /**
     * The number of open client connections. Lets a test check that the code under test closed its
     * clients (each SDK client may hold several pooled connections).
     */
    public int connectionCount() {
        return connections.count();
    }

    /**
     * Every FLUSH_UNSAVED_BUFFER request (command 102) answered with success since the server was
     * made, oldest first; a restart keeps them. The server keeps messages in memory, so a flush
     * does no I/O: this is how a test sees which partitions a client asked to make durable.
     */
    public List<FlushRequest> flushRequests() {
        return state.flushRequests();
    }

    /** Simulates a server restart: connections are dropped, all data survives. */
    public void restart() {
        stop();
        start();
    }

    @Override
    public void close() {
        stop();
    }

    public synchronized boolean isRunning() {
        return serverSocket != null;
    }

    /** The port the server listens on (the actual one when the configured port is 0). */
    public synchronized int port() {
        if (boundPort < 0) {
            throw new IllegalStateException("not started");
        }
        return boundPort;
    }

    /**
     * The host clients should connect to: the configured one, or the loopback address when the
     * server listens on every interface ({@code 0.0.0.0} or {@code ::}).
     */
    public String host() {
        String host = config.host();
        return host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
    }

    /** {@code host:port}, the form of {@code IGGY_TCP_ADDRESS}. */
    public String address() {
        return host() + ":" + port();
    }

    public Config config() {
        return config;
    }

    /** Runs the server standalone; see {@link EmbeddedIggyServerMain}. */
    public static void main(String[] args) throws Exception {
        EmbeddedIggyServerMain.main(args);
    }

    private synchronized boolean listensOn(ServerSocket socket) {
        return serverSocket == socket;
    }

    private static void joinQuietly(Thread thread) {
        if (thread == null) {
            return;
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Server settings. Defaults: {@code 127.0.0.1}, an ephemeral port, root user {@code
     * iggy}/{@code iggy}, message deduplication off (as {@code system.message_deduplication} in the
     * real server's config), 1 GiB segments whose oldest are never deleted to make room (as {@code
     * system.segment.size} and {@code system.topic.delete_oldest_segments}).
     */
    public static final class Config {
        private final String host;
        private final int port;
        private final String rootUsername;
        private final String rootPassword;
        private final Deduplication deduplication;
        private final Duration consumerGroupRebalancingTimeout;
        private final SSLContext tls; // null: plain TCP
        private final int maxRequestPayload;
        private final long segmentSize;
        private final boolean deleteOldestSegments;

        private Config(Builder builder) {
            this.host = builder.host;
            this.port = builder.port;
            this.rootUsername = builder.rootUsername;
            this.rootPassword = builder.rootPassword;
            this.deduplication = builder.deduplication;
            this.consumerGroupRebalancingTimeout = builder.consumerGroupRebalancingTimeout;
            this.tls = builder.tls;
            this.maxRequestPayload = builder.maxRequestPayload;
            this.segmentSize = builder.segmentSize;
            this.deleteOldestSegments = builder.deleteOldestSegments;
        }

        public static Config defaults() {
            return builder().build();
        }

        public static Builder builder() {
            return new Builder();
        }

        /** A builder holding this configuration, to derive another from it. */
        public Builder toBuilder() {
            Builder builder =
                    builder()
                            .host(host)
                            .port(port)
                            .rootCredentials(rootUsername, rootPassword)
                            .deduplication(deduplication)
                            .consumerGroupRebalancingTimeout(consumerGroupRebalancingTimeout)
                            .maxRequestPayload(maxRequestPayload)
                            .segmentSize(segmentSize)
                            .deleteOldestSegments(deleteOldestSegments);
            builder.tls = tls;
            return builder;
        }

        public String host() {
            return host;
        }

        /** 0 means an ephemeral port chosen at the first start. */
        public int port() {
            return port;
        }

        public String rootUsername() {
            return rootUsername;
        }

        public String rootPassword() {
            return rootPassword;
        }

        public Deduplication deduplication() {
            return deduplication;
        }

        /**
         * How long a partition that a consumer-group rebalance takes from a member waits for that
         * member to commit what it polled before it moves anyway (server default 30 s).
         */
        public Duration consumerGroupRebalancingTimeout() {
            return consumerGroupRebalancingTimeout;
        }

        /** The TLS context of the listener, or {@code null} for plain TCP. */
        public SSLContext tls() {
            return tls;
        }

        /**
         * The largest request payload accepted, in bytes (default 256 MiB). The real server has no
         * limit for SendMessages; this one has, so a hostile length cannot exhaust the heap of the
         * JVM it shares with the tests. Other commands are limited to 10 MiB, as in the real
         * server.
         */
        public int maxRequestPayload() {
            return maxRequestPayload;
        }

        /**
         * The size in bytes at which a partition's active segment is sealed and a new one begins
         * (the real server's {@code system.segment.size}, default 1 GiB). A topic's custom maximum
         * size may not be smaller (error 1019 on create).
         */
        public long segmentSize() {
            return segmentSize;
        }

        /**
         * Whether a topic with a maximum size deletes its oldest sealed segments once full (the
         * real server's {@code system.topic.delete_oldest_segments}, default false). The real
         * server does so in a periodic cleaner; this one right after the append that filled it.
         */
        public boolean deleteOldestSegments() {
            return deleteOldestSegments;
        }

        @Override
        public String toString() {
            return "Config{host="
                    + host
                    + ", port="
                    + port
                    + ", rootUsername="
                    + rootUsername
                    + ", deduplication="
                    + deduplication
                    + ", tls="
                    + (tls != null)
                    + ", segmentSize="
                    + segmentSize
                    + ", deleteOldestSegments="
                    + deleteOldestSegments
                    + '}';
        }

        /**
         * Message deduplication by message id: a message whose id was appended to the same
         * partition within {@code expiry} (and is among the last {@code maxEntries} ids) is dropped
         * silently, and the send still succeeds. Server defaults: off, 10000, 1 minute.
         */
        public record Deduplication(boolean enabled, int maxEntries, Duration expiry) {
            public static final Deduplication DISABLED =
                    new Deduplication(false, 10_000, Duration.ofMinutes(1));

            public Deduplication {
                if (maxEntries <= 0) {
                    throw new IllegalArgumentException("maxEntries must be positive");
                }
                Objects.requireNonNull(expiry, "expiry");
            }

            /** Deduplication on, with the server's default window. */
            public static Deduplication enabledWithDefaults() {
                return new Deduplication(true, 10_000, Duration.ofMinutes(1));
            }
        }

        /** Builds a {@link Config}. */
        public static final class Builder {
            /** The largest byte array a JVM reliably allocates. */
            private static final int MAX_ARRAY_SIZE = Integer.MAX_VALUE - 16;

            private String host = "127.0.0.1";
            private int port = 0;
            private String rootUsername = "iggy";
            private String rootPassword = "iggy";
            private Deduplication deduplication = Deduplication.DISABLED;
            private Duration consumerGroupRebalancingTimeout = Duration.ofSeconds(30);
            private SSLContext tls;
            private int maxRequestPayload = 256 * 1024 * 1024;
            private long segmentSize = 1L << 30;
            private boolean deleteOldestSegments;

            private Builder() {}

            /** The address to listen on, also the host clients are told to use. */
            public Builder host(String host) {
                this.host = Objects.requireNonNull(host, "host");
                return this;
            }

            public Builder port(int port) {
                if (port < 0 || port > 65535) {
                    throw new IllegalArgumentException("port out of range: " + port);
                }
                this.port = port;
                return this;
            }

            public Builder rootCredentials(String username, String password) {
                this.rootUsername = Objects.requireNonNull(username, "username");
                this.rootPassword = Objects.requireNonNull(password, "password");
                return this;
            }

            public Builder deduplication(Deduplication deduplication) {
                this.deduplication = Objects.requireNonNull(deduplication, "deduplication");
                return this;
            }

            /** Deduplication on with the server's default window (10000 ids, 1 minute). */
            public Builder deduplicationEnabled() {
                return deduplication(Deduplication.enabledWithDefaults());
            }

            public Builder consumerGroupRebalancingTimeout(Duration timeout) {
                if (timeout.isNegative()) {
                    throw new IllegalArgumentException("negative timeout: " + timeout);
                }
                this.consumerGroupRebalancingTimeout = timeout;
                return this;
            }

            /**
             * Listen with TLS only (as a real server with TLS on), presenting the certificate of
             * {@code context}; e.g. {@link SelfSignedCertificate#serverContext()}.
             */
            public Builder tls(SSLContext context) {
                this.tls = Objects.requireNonNull(context, "context");
                return this;
            }

            /** See {@link Config#maxRequestPayload()}. */
            public Builder maxRequestPayload(int bytes) {
                if (bytes < 0 || bytes > MAX_ARRAY_SIZE) {
                    throw new IllegalArgumentException(
                            "maxRequestPayload must be within 0.." + MAX_ARRAY_SIZE + ": " + bytes);
                }
                this.maxRequestPayload = bytes;
                return this;
            }

            /** See {@link Config#segmentSize()}; must be positive. */
            public Builder segmentSize(long bytes) {
                if (bytes <= 0) {
                    throw new IllegalArgumentException("segmentSize must be positive: " + bytes);
                }
                this.segmentSize = bytes;
                return this;
            }

            /** See {@link Config#deleteOldestSegments()}. */
            public Builder deleteOldestSegments(boolean delete) {
                this.deleteOldestSegments = delete;
                return this;
            }

            public Config build() {
                return new Config(this);
            }
        }
    }
}

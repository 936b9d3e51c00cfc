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
package org.apache.flink.connector.iggy.common.client;

import org.apache.flink.connector.iggy.common.IggyConnectorException;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLHandshakeException;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Netty side of {@link IggySdk}'s connection workarounds (closed connections, TLS handshake,
 * close without a pause), reaching the connections behind an SDK client through {@link
 * SdkInternals}. A handler placed in front of the SDK's response handler turns a close into the
 * failure event that handler reacts to, so every request waiting on the connection fails at once.
 * Should a client's members be out of reach, {@link #watch} and {@link #close} log a warning and
 * the client works as the plain SDK does.
 */
final class SdkChannels {

    private static final Logger LOG = LoggerFactory.getLogger(SdkChannels.class);

    static final String WATCHER_NAME = "iggy-connector-closed-connection";

    /** Quiet time before a closing client's loops end: enough for answers already handed on. */
    private static final long CLOSING_QUIET_MILLIS = 100;

    /** The TLS handshake of a connection, kept there: a closed connection loses its handlers. */
    private static final AttributeKey<Future<Channel>> HANDSHAKE =
            AttributeKey.valueOf("iggy-connector-tls-handshake");

    /** How often {@link #watch} looks whether {@code connect()} has given its connection back. */
    private static final long RELEASE_CHECK_MICROS = 50;

    private SdkChannels() {}

    /**
     * See {@link IggySdk#watchConnections}; with TLS, the connection {@code connect()} opened is
     * replaced by one whose handshake is watched from the start.
     */
    static CompletableFuture<Void> watch(
            SdkInternals sdk,
            AsyncIggyTcpClient client,
            String address,
            boolean tls,
            Runnable onReconnect,
            boolean replaceClosed) {
        FixedChannelPool pool;
        Bootstrap bootstrap;
        try {
            pool = sdk.pool(client);
            if (pool == null) {
                throw new IllegalStateException("the client has no connection");
            }
            bootstrap = sdk.bootstrap(pool);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn(
                    "Cannot reach the connections of the Iggy SDK client ({}): a connection to {}"
                            + " that closes with a request in flight fails only at the request"
                            + " timeout.",
                    e.toString(),
                    address);
            return CompletableFuture.completedFuture(null);
        }
        WatchingInitializer watching =
                new WatchingInitializer(
                        bootstrap,
                        pool,
                        address,
                        sdk.responseHandler(),
                        new Reconnects(onReconnect, replaceClosed));
        bootstrap.handler(watching);
        CompletableFuture<Void> handshake = new CompletableFuture<>();
        watchOpenConnection(watching, tls, handshake, true);
        return handshake;
    }

    /**
     * Sets up each connection the pool opens (the SDK's handlers, then the watcher) and keeps every
     * watched connection for {@link #close}.
     */
    private static final class WatchingInitializer extends ChannelInitializer<Channel> {
        private final ChannelHandler poolInitializer;
        private final String address;
        private final Class<? extends ChannelHandler> responseHandler;
        private final Reconnects reconnects;
        final FixedChannelPool pool;
        final EventLoopGroup loops;
        final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

        WatchingInitializer(
                Bootstrap bootstrap,
                FixedChannelPool pool,
                String address,
                Class<? extends ChannelHandler> responseHandler,
                Reconnects reconnects) {
            this.poolInitializer = bootstrap.config().handler();
            this.loops = bootstrap.config().group();
            this.pool = pool;
            this.address = address;
            this.responseHandler = responseHandler;
            this.reconnects = reconnects;
        }

        @Override
        protected void initChannel(Channel channel) {
            if (!reconnects.opening()) {
                channel.close();
                return;
            }
            channel.pipeline().addLast(poolInitializer);
            SslHandler ssl = channel.pipeline().get(SslHandler.class);
            if (ssl != null) {
                channel.attr(HANDSHAKE).set(ssl.handshakeFuture());
            }
            watch(channel);
        }

        /**
         * Adds the watcher to a connection the SDK has set up, after the frame decoder so that the
         * answers that arrived before a close are delivered first; keeps it for the close.
         */
        void watch(Channel channel) {
            ChannelPipeline pipeline = channel.pipeline();
            ChannelHandlerContext responses = pipeline.context(responseHandler);
            if (responses != null && pipeline.get(WATCHER_NAME) == null) {
                pipeline.addBefore(responses.name(), WATCHER_NAME, new ClosedConnectionWatcher());
            }
            connections.add(channel);
        }

        /** Fails the requests waiting on a connection that closed and notes the close. */
        private final class ClosedConnectionWatcher extends ChannelInboundHandlerAdapter {
            @Override
            public void channelInactive(ChannelHandlerContext ctx) throws Exception {
                reconnects.closed();
                ctx.fireExceptionCaught(new IggyConnectorException(closedMessage(address)));
                super.channelInactive(ctx);
            }
        }
    }

    /**
     * Tells which connections replace one that closed: each close allows one reconnect, used up by
     * the next connection the pool opens (a failed attempt too, so a server that is down counts
     * once); connections opened to serve more requests at once are none. Without replacements,
     * every connection after a close is refused. Thread-safe: the client's event loops call it.
     */
    private static final class Reconnects {
        private final AtomicInteger closedNotReplaced = new AtomicInteger();
        private final Runnable onReconnect;
        private final boolean replaceClosed;

        Reconnects(Runnable onReconnect, boolean replaceClosed) {
            this.onReconnect = onReconnect;
            this.replaceClosed = replaceClosed;
        }

        void closed() {
            closedNotReplaced.incrementAndGet();
        }

        /** Whether the connection being opened may be used. */
        boolean opening() {
            if (!replaceClosed) {
                return closedNotReplaced.get() == 0;
            }
            if (closedNotReplaced.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                onReconnect.run();
            }
            return true;
        }
    }

    /**
     * See {@link IggySdk#close}; false, having done nothing, when the client's members are out of
     * reach. A loop may only end when no other loop will hand it work (a request moves between the
     * pool's loop and its connection's), so the pool closes first, then the watched connections
     * (their requests fail, saying so), then the loops after {@link #CLOSING_QUIET_MILLIS} without
     * work. The SDK's own close comes last and only lets go of what the client holds.
     */
    static boolean close(SdkInternals sdk, AsyncIggyTcpClient client, Duration timeout) {
        FixedChannelPool pool;
        Bootstrap bootstrap;
        try {
            pool = sdk.pool(client);
            bootstrap = pool == null ? null : sdk.bootstrap(pool);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn(
                    "Cannot reach the threads of an Iggy SDK client ({}): closing it takes Netty's"
                            + " quiet period of 2 s.",
                    e.toString());
            return false;
        }
        if (pool == null) {
            client.close(); // it never connected: it has no threads
            return true;
        }
        ChannelHandler handler = bootstrap.config().handler();
        ChannelGroup watched =
                handler instanceof WatchingInitializer
                        ? ((WatchingInitializer) handler).connections
                        : null;
        EventLoopGroup loops = bootstrap.config().group();
        long deadline = System.nanoTime() + timeout.toNanos();
        // Not cut short by an interrupt: the threads must end before the class loader goes.
        try {
            pool.closeAsync().awaitUninterruptibly(remainingMillis(deadline));
            if (watched != null) {
                watched.close().awaitUninterruptibly(remainingMillis(deadline));
            }
        } finally {
            // Even when the above failed, the threads must end.
            loops.shutdownGracefully(
                            CLOSING_QUIET_MILLIS,
                            Math.max(CLOSING_QUIET_MILLIS, remainingMillis(deadline)),
                            TimeUnit.MILLISECONDS)
                    .awaitUninterruptibly(remainingMillis(deadline));
            try {
                client.close();
            } catch (RejectedExecutionException expected) {
                // The pool's loop has ended, and the pool was closed before.
            }
        }
        return true;
    }

    private static long remainingMillis(long deadlineNanos) {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }

    /**
     * Borrows the connection {@code connect()} opened to watch it, once the pool has it back (the
     * SDK's {@code connect()} completes before; borrowing earlier would open a second connection
     * and leave the first unwatched). With TLS that first connection's handshake may be lost with
     * its handlers, so it is closed and the look repeated on the one the pool opens instead.
     */
    private static void watchOpenConnection(
            WatchingInitializer watching,
            boolean tls,
            CompletableFuture<Void> handshake,
            boolean firstLook) {
        FixedChannelPool pool = watching.pool;
        if (pool.acquiredChannelCount() > 0) {
            try {
                watching.loops.schedule(
                        () -> watchOpenConnection(watching, tls, handshake, firstLook),
                        RELEASE_CHECK_MICROS,
                        TimeUnit.MICROSECONDS);
            } catch (RejectedExecutionException e) {
                handshake.completeExceptionally(e); // the client was closed
            }
            return;
        }
        pool.acquire()
                .addListener(
                        (Future<Channel> acquired) -> {
                            if (!acquired.isSuccess()) {
                                handshake.completeExceptionally(acquired.cause());
                                return;
                            }
                            Channel channel = acquired.getNow();
                            Future<Channel> shake = channel.attr(HANDSHAKE).get();
                            boolean lookAgain = tls && shake == null && firstLook;
                            try {
                                if (lookAgain) {
                                    channel.close();
                                } else {
                                    watching.watch(channel);
                                }
                            } finally {
                                pool.release(channel);
                            }
                            if (lookAgain) {
                                watchOpenConnection(watching, true, handshake, false);
                            } else if (!tls) {
                                handshake.complete(null);
                            } else if (shake == null) {
                                handshake.completeExceptionally(
                                        new SSLHandshakeException(
                                                "the connection has no TLS handler"));
                            } else {
                                shake.addListener(
                                        done -> {
                                            if (done.isSuccess()) {
                                                handshake.complete(null);
                                            } else {
                                                handshake.completeExceptionally(done.cause());
                                            }
                                        });
                            }
                        });
    }

    /** What a request learns when its connection closed before the answer came. */
    static String closedMessage(String address) {
        return "The connection to Iggy at "
                + address
                + " closed (by the server or the network) before the answer to a request arrived";
    }
}

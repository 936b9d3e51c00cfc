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
 * Reaches the Netty connections behind an SDK client, which SDK 0.8.0 does not expose, for three
 * things it lacks.
 *
 * <p><b>A closed connection fails its requests in flight.</b> The SDK's response handler does not
 * react when a connection closes, so a request whose answer was lost waited for the whole request
 * timeout. A handler placed in front of it turns the close into the failure event the SDK's handler
 * does react to: it fails every request waiting on that connection at once, with a message saying
 * that the connection closed. The pool then opens (and logs in) a new connection for the next
 * request, unless the client was watched without replacements: then the pool's every later
 * connection is closed as it opens, so the requests queued behind the lost ones fail too instead of
 * overtaking them.
 *
 * <p><b>The TLS handshake is part of connecting.</b> The SDK reports a connection as open once TCP
 * is up, so a failed handshake would otherwise surface as a failed login. {@link #watch} returns
 * the handshake of a connection it watched from the start, so that the caller can wait for it and
 * name its failure.
 *
 * <p><b>A close without a pause.</b> {@link #close} ends the client's threads in a tenth of a
 * second, not after Netty's 2 s quiet period.
 *
 * <p>The SDK's members come from {@link SdkInternals}. Should a client's be out of reach all the
 * same, {@link #watch} and {@link #close} log a warning and the client works as it would without
 * these additions (see {@link IggySdk}).
 */
final class SdkChannels {

    private static final Logger LOG = LoggerFactory.getLogger(SdkChannels.class);

    static final String WATCHER_NAME = "iggy-connector-closed-connection";

    /**
     * How long a closing client's event loops must have been without work before they end: long
     * enough for answers already handed between the SDK's threads, far below Netty's 2 s.
     */
    private static final long CLOSING_QUIET_MILLIS = 100;

    /**
     * The TLS handshake of a connection this class set up, kept on the connection because a
     * connection that closes loses its handlers, the TLS one with its handshake too.
     */
    private static final AttributeKey<Future<Channel>> HANDSHAKE =
            AttributeKey.valueOf("iggy-connector-tls-handshake");

    /** How often {@link #watch} looks whether {@code connect()} has given its connection back. */
    private static final long RELEASE_CHECK_MICROS = 50;

    private SdkChannels() {}

    /**
     * Makes every connection of {@code client}, the open one and those the pool opens later, fail
     * its requests in flight when it closes. Call right after the client connected, before anything
     * else uses it.
     *
     * @param tls whether the client speaks TLS: then the connection {@code connect()} opened is
     *     replaced by one whose handshake is watched from the start
     * @return completes when the TLS handshake of the open connection has (at once without TLS),
     *     exceptionally with the handshake's failure
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
     * Sets up each connection the pool opens: the pool's own initializer (the SDK's handlers) and
     * then the watcher; keeps what {@link #close} needs: the pool, its event loops and every
     * connection, the one already open when watching began included.
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

        /** Adds the watcher to a connection the SDK has set up, and keeps it for the close. */
        void watch(Channel channel) {
            addWatcher(channel.pipeline(), address, responseHandler, reconnects);
            connections.add(channel);
        }
    }

    /**
     * Tells which connections the pool opens to replace one that closed: each connection that
     * closes while the client is in use allows one reconnect, and the next connection the pool
     * opens uses it up (a failed attempt too, so attempts against a server that is down count
     * once). Connections the pool opens to serve more requests at once are no reconnects. Closing
     * the client closes its connections too, but then nothing is opened any more.
     *
     * <p>Without replacements, once a connection closed every later one is refused.
     *
     * <p>Thread-safe: the client's event loops call it.
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

        /**
         * @return whether the connection being opened may be used
         */
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
     * Closes {@code client} within {@code timeout} and ends its threads, whether it connected, is
     * {@link #watch watched} or neither; false, having done nothing, when its members are out of
     * reach. The SDK's own close ends its Netty event loops with Netty's default quiet period, 2 s
     * in which they wait for more work, and nothing of the client may run on once its owner has
     * closed (a job's class loader goes then, see {@link IggySdk#close}).
     *
     * <p>A loop may only end when no other loop will hand it work: each request moves between the
     * pool's loop and its connection's. So the pool is closed first (requests waiting for a
     * connection fail, no new ones are taken, idle connections close), then the watched connections
     * with a request in flight (those requests fail, saying the connection closed), and only then
     * are the loops ended, after {@link #CLOSING_QUIET_MILLIS} without work instead of 2 s; that
     * closes whatever connection is left. The SDK's own close comes last and only lets go of what
     * the client holds: its attempt to close the pool again on a loop that has ended is refused,
     * which is expected.
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
        // Not cut short by an interrupt: returning before the threads ended would let them run
        // into the release of the job's class loader.
        try {
            pool.closeAsync().awaitUninterruptibly(remainingMillis(deadline));
            if (watched != null) {
                watched.close().awaitUninterruptibly(remainingMillis(deadline));
            }
        } finally {
            // Even when the above failed (a job manager may release the class loader while its
            // coordinators still close), the threads must end.
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
     * The connection {@code connect()} opened sits idle in the pool: borrow it briefly. The SDK's
     * {@code connect()} completes as soon as it asked the pool to take that connection back, and
     * the pool does so on the connection's event loop, later. Borrowing before then would make the
     * pool open a second connection, watched, and leave the first one unwatched, so wait until no
     * connection is borrowed (the caller's deadline bounds the wait; closing the client ends it).
     *
     * <p>With TLS, the handshake of the connection the SDK opened cannot be relied on to be seen: a
     * failed handshake closes its connection, and a closed connection loses its handlers, the TLS
     * one with the failure, possibly before this look. So that connection is closed, and the look
     * repeated on the connection the pool opens instead, set up by this class, which keeps its
     * handshake from the start.
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

    private static void addWatcher(
            ChannelPipeline pipeline,
            String address,
            Class<? extends ChannelHandler> responseHandler,
            Reconnects reconnects) {
        ChannelHandlerContext responses = pipeline.context(responseHandler);
        if (responses == null || pipeline.get(WATCHER_NAME) != null) {
            return;
        }
        pipeline.addBefore(
                responses.name(), WATCHER_NAME, new ClosedConnectionWatcher(address, reconnects));
    }

    /**
     * Fails the requests waiting on a connection that closed, and notes the close for {@link
     * Reconnects}. Sits after the frame decoder, so the answers that did arrive before the close
     * are delivered first.
     */
    private static final class ClosedConnectionWatcher extends ChannelInboundHandlerAdapter {
        private final String address;
        private final Reconnects reconnects;

        ClosedConnectionWatcher(String address, Reconnects reconnects) {
            this.address = address;
            this.reconnects = reconnects;
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            reconnects.closed();
            ctx.fireExceptionCaught(new IggyConnectorException(closedMessage(address)));
            super.channelInactive(ctx);
        }
    }

    /** What a request learns when its connection closed before the answer came. */
    static String closedMessage(String address) {
        return "The connection to Iggy at "
                + address
                + " closed (by the server or the network) before the answer to a request arrived";
    }
}

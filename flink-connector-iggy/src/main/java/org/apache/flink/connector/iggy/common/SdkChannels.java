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
package org.apache.flink.connector.iggy.common;

import org.apache.flink.annotation.Internal;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.channel.pool.SimpleChannelPool;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.client.async.tcp.AsyncTcpConnection;
import org.apache.iggy.client.async.tcp.AsyncTcpConnection.IggyResponseHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLHandshakeException;

import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Reaches the Netty connections behind an SDK client, which SDK 0.8.0 does not expose, for two
 * things it lacks.
 *
 * <p><b>A closed connection fails its requests in flight.</b> The SDK's response handler does not
 * react when a connection closes, so a request whose answer was lost waited for the whole request
 * timeout. A handler placed in front of it turns the close into the failure event the SDK's handler
 * does react to: it fails every request waiting on that connection at once, with a message saying
 * that the connection closed. The pool then opens (and logs in) a new connection for the next
 * request.
 *
 * <p><b>The TLS handshake is part of connecting.</b> The SDK reports a connection as open once TCP
 * is up, so a failed handshake used to surface as a failed login. {@link #watch} returns the
 * handshake of the first connection so that the caller can wait for it and name it.
 *
 * <p>The SDK's fields are read by name (its client's {@code connection}, the connection's {@code
 * channelPool}, Netty's pool {@code bootstrap}). Should a later SDK rename them, {@link #watch}
 * logs that and the client works as before, without these two additions.
 */
@Internal
final class SdkChannels {

    private static final Logger LOG = LoggerFactory.getLogger(SdkChannels.class);

    static final String WATCHER_NAME = "iggy-connector-closed-connection";

    /** How often {@link #watch} looks whether {@code connect()} has given its connection back. */
    private static final long RELEASE_CHECK_MICROS = 50;

    private SdkChannels() {}

    /**
     * Makes every connection of {@code client}, the open one and those the pool opens later, fail
     * its requests in flight when it closes. Call right after the client connected, before anything
     * else uses it.
     *
     * @param tls whether the client speaks TLS, so that an open connection found closed (its
     *     handlers, the TLS one too, removed) counts as a failed handshake
     * @return completes when the TLS handshake of the open connection has (at once without TLS),
     *     exceptionally with the handshake's failure
     */
    static CompletableFuture<Void> watch(AsyncIggyTcpClient client, String address, boolean tls) {
        FixedChannelPool pool;
        Bootstrap bootstrap;
        try {
            pool = pool(client);
            bootstrap = (Bootstrap) read(SimpleChannelPool.class, "bootstrap", pool);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn(
                    "Cannot reach the connections of the Iggy SDK client ({}): a connection to {}"
                            + " that closes with a request in flight fails only at the request"
                            + " timeout.",
                    e.toString(),
                    address);
            return CompletableFuture.completedFuture(null);
        }
        ChannelHandler poolInitializer = bootstrap.config().handler();
        bootstrap.handler(
                new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        // Runs the pool's own initializer (it adds the SDK's handlers) first.
                        channel.pipeline().addLast(poolInitializer);
                        addWatcher(channel.pipeline(), address);
                    }
                });
        CompletableFuture<Void> handshake = new CompletableFuture<>();
        watchOpenConnection(pool, bootstrap.config().group(), address, tls, handshake);
        return handshake;
    }

    /** The Netty pool behind {@code client}, which connected already. */
    static FixedChannelPool pool(AsyncIggyTcpClient client) throws ReflectiveOperationException {
        Object connection = read(AsyncIggyTcpClient.class, "connection", client);
        return (FixedChannelPool) read(AsyncTcpConnection.class, "channelPool", connection);
    }

    /**
     * The connection {@code connect()} opened sits idle in the pool: borrow it briefly. The SDK's
     * {@code connect()} completes as soon as it asked the pool to take that connection back, and
     * the pool does so on the connection's event loop, later. Borrowing before then would make the
     * pool open a second connection, watched, and leave the first one unwatched, so wait until no
     * connection is borrowed (the caller's deadline bounds the wait; closing the client ends it).
     */
    private static void watchOpenConnection(
            FixedChannelPool pool,
            EventLoopGroup loops,
            String address,
            boolean tls,
            CompletableFuture<Void> handshake) {
        if (pool.acquiredChannelCount() > 0) {
            try {
                loops.schedule(
                        () -> watchOpenConnection(pool, loops, address, tls, handshake),
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
                            try {
                                addWatcher(channel.pipeline(), address);
                                SslHandler ssl = channel.pipeline().get(SslHandler.class);
                                if (ssl == null && tls) {
                                    // Netty removes a closed connection's handlers: the handshake
                                    // failed and the connection closed before this look.
                                    handshake.completeExceptionally(
                                            new SSLHandshakeException(
                                                    "the connection closed before the TLS"
                                                            + " handshake completed"));
                                } else if (ssl == null) {
                                    handshake.complete(null);
                                } else {
                                    ssl.handshakeFuture()
                                            .addListener(
                                                    done -> {
                                                        if (done.isSuccess()) {
                                                            handshake.complete(null);
                                                        } else {
                                                            handshake.completeExceptionally(
                                                                    done.cause());
                                                        }
                                                    });
                                }
                            } finally {
                                pool.release(channel);
                            }
                        });
    }

    private static void addWatcher(ChannelPipeline pipeline, String address) {
        ChannelHandlerContext responses = pipeline.context(IggyResponseHandler.class);
        if (responses == null || pipeline.get(WATCHER_NAME) != null) {
            return;
        }
        pipeline.addBefore(responses.name(), WATCHER_NAME, new ClosedConnectionWatcher(address));
    }

    private static Object read(Class<?> owner, String name, Object target)
            throws ReflectiveOperationException {
        Field field = owner.getDeclaredField(name);
        field.setAccessible(true);
        Object value = field.get(target);
        if (value == null) {
            throw new NoSuchFieldException(owner.getSimpleName() + "." + name + " is null");
        }
        return value;
    }

    /**
     * Fails the requests waiting on a connection that closed. Sits after the frame decoder, so the
     * answers that did arrive before the close are delivered first.
     */
    private static final class ClosedConnectionWatcher extends ChannelInboundHandlerAdapter {
        private final String address;

        ClosedConnectionWatcher(String address) {
            this.address = address;
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
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

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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy on loopback in front of a server, for faults a server does not make on its own: it
 * can close a connection while a request on it waits for its answer ({@link
 * #closeOnNextRequest()}), as a network cut or a crashing peer would, deliver a request late
 * ({@link #holdNextRequest}, {@link #holdNextRequestUntil}), or stop forwarding without closing
 * anything, as a host that vanished leaves its half-open connections ({@link #stopForwarding}).
 *
 * <pre>{@code
 * try (TcpProxy proxy = TcpProxy.start(IGGY.host(), IGGY.port())) {
 *     // connect a client to proxy.address(), then:
 *     proxy.closeOnNextRequest();
 *     // the client's next request is dropped and its connection closed
 * }
 * }</pre>
 */
@PublicEvolving
public final class TcpProxy implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TcpProxy.class);
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closeOnNextRequest = new AtomicBoolean();
    private final AtomicInteger closedWithRequest = new AtomicInteger();
    private final AtomicReference<CompletableFuture<?>> holdNextRequest = new AtomicReference<>();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    private TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    /** Listens on an ephemeral loopback port and forwards to {@code host:port}. */
    public static TcpProxy start(String host, int port) {
        try {
            TcpProxy proxy = new TcpProxy(host, port);
            daemon(proxy::acceptLoop, "tcp-proxy-acceptor").start();
            return proxy;
        } catch (IOException e) {
            throw new IllegalStateException("Cannot start a TCP proxy", e);
        }
    }

    /** {@code host:port} for clients. */
    public String address() {
        return listener.getInetAddress().getHostAddress() + ":" + listener.getLocalPort();
    }

    /**
     * The next bytes any client sends are not forwarded: their connection (both sides) is closed
     * instead, so that request never gets an answer. Once.
     */
    public void closeOnNextRequest() {
        closeOnNextRequest.set(true);
    }

    /**
     * The next bytes any client sends are forwarded only after {@code hold}, as a congested network
     * or a stalled server would deliver them: the client's request times out first, and the server
     * applies it later all the same. Once. The connection to the server stays open until the held
     * bytes are delivered, whatever the client does meanwhile.
     */
    public void holdNextRequest(Duration hold) {
        holdNextRequestUntil(
                CompletableFuture.runAsync(
                        () -> {},
                        CompletableFuture.delayedExecutor(hold.toMillis(), TimeUnit.MILLISECONDS)));
    }

    /**
     * Like {@link #holdNextRequest(Duration)}, but the held bytes are forwarded once {@code
     * release} completes (or the proxy closes, which drops them).
     */
    public void holdNextRequestUntil(CompletableFuture<?> release) {
        holdNextRequest.set(release);
    }

    /**
     * From now on nothing is forwarded in either direction and no connection is closed, not even
     * when a client closes its side: the server keeps each connection open and idle, as it would
     * after the client's host vanished, until TCP keepalive (or {@link #close}) ends it.
     */
    public void stopForwarding() {
        stopped.set(true);
    }

    /** How many connections {@link #closeOnNextRequest()} has closed so far. */
    public int connectionsClosedWithARequest() {
        return closedWithRequest.get();
    }

    @Override
    public void close() {
        closed.complete(null);
        closeQuietly(listener);
        sockets.forEach(TcpProxy::closeQuietly);
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            Socket client;
            Socket upstream;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            try {
                upstream = new Socket(targetHost, targetPort);
            } catch (IOException e) {
                LOG.debug("Proxy cannot reach {}:{}: {}", targetHost, targetPort, e.toString());
                closeQuietly(client);
                continue;
            }
            sockets.add(client);
            sockets.add(upstream);
            int id = THREAD_IDS.incrementAndGet();
            daemon(() -> pump(client, upstream, true), "tcp-proxy-up-" + id).start();
            daemon(() -> pump(upstream, client, false), "tcp-proxy-down-" + id).start();
        }
    }

    private void pump(Socket from, Socket to, boolean requests) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (requests && closeOnNextRequest.compareAndSet(true, false)) {
                    closedWithRequest.incrementAndGet();
                    break;
                }
                CompletableFuture<?> hold = requests ? holdNextRequest.getAndSet(null) : null;
                if (hold != null) {
                    CompletableFuture.anyOf(hold, closed).exceptionally(e -> null).get();
                }
                if (stopped.get() || closed.isDone()) {
                    break;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
            if (stopped.get()) {
                // half-open: both sides stay open, silent, until the proxy closes
                closed.join();
            }
        } catch (IOException e) {
            LOG.debug("Proxy connection ended: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.debug("Proxy hold failed: {}", e.toString());
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            sockets.remove(from);
            sockets.remove(to);
        }
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.debug("Closing {} failed: {}", closeable, e.toString());
        }
    }
}

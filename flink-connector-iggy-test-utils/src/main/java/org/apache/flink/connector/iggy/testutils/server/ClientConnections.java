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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The client connections of one {@link EmbeddedIggyServer}: the loop that accepts them, each on a
 * thread of its own, and closing them.
 *
 * <p>Thread-safe: the set of open connections is concurrent, and its monitor only wakes {@link
 * #closeAndAwait} when a connection's thread ends. Kept apart from the server so that {@link
 * EmbeddedIggyServer} stays a short class about its lifecycle and configuration.
 */
final class ClientConnections {
    private static final Logger LOG = LoggerFactory.getLogger(ClientConnections.class);
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();

    private final ServerState state;
    private final CommandDispatcher dispatcher;
    private final Set<ClientConnection> open = ConcurrentHashMap.newKeySet();

    ClientConnections(ServerState state, CommandDispatcher dispatcher) {
        this.state = state;
        this.dispatcher = dispatcher;
    }

    /**
     * Accepts connections on {@code socket} until it is closed.
     *
     * @param stillListening whether the server still listens on this socket; a connection accepted
     *     after the server stopped listening is closed at once (the stop may have missed it)
     */
    void acceptLoop(ServerSocket socket, Predicate<ServerSocket> stillListening) {
        while (!socket.isClosed()) {
            Socket client;
            try {
                client = socket.accept();
            } catch (SocketException e) {
                return; // closed by the server's stop()
            } catch (IOException e) {
                LOG.warn("Accepting a connection failed", e);
                continue;
            }
            ClientConnection[] holder = new ClientConnection[1];
            ClientConnection connection =
                    new ClientConnection(
                            client,
                            state,
                            dispatcher,
                            () -> {
                                open.remove(holder[0]);
                                synchronized (open) {
                                    open.notifyAll();
                                }
                            });
            holder[0] = connection;
            open.add(connection);
            if (!stillListening.test(socket)) {
                connection.close();
            }
            newThread(connection, "iggy-embedded-connection-" + THREAD_IDS.incrementAndGet())
                    .start();
        }
    }

    /** The number of open connections. */
    int count() {
        return open.size();
    }

    /**
     * Closes every open connection and waits (10 s at most) until their threads have ended their
     * sessions.
     */
    void closeAndAwait() {
        List<ClientConnection> closing = List.copyOf(open);
        for (ClientConnection connection : closing) {
            connection.close();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (closing.stream().anyMatch(open::contains) && System.nanoTime() < deadline) {
            synchronized (open) {
                try {
                    open.wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
    }

    static Thread newThread(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}

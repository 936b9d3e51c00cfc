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
package org.apache.flink.connector.iggy.sink.internal.committer;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.common.client.IggyErrorCode;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Keeps a committer from reading back or sending while a request of an earlier connection, its own
 * or an earlier committer's (a failed attempt, or a zombie after a failover), may still be applied.
 *
 * <p>A send that timed out, or whose connection broke, may still reach the server and be appended
 * later. Read back before that, its messages look missing and are sent again; the late original
 * then duplicates them and breaks the order. The server handles a connection's requests one after
 * the other and forgets the client only when that connection has ended, after its last request was
 * applied. So once the server's client list no longer shows an old connection's client id, nothing
 * of it can be appended any more.
 *
 * <p>The connections of earlier committers come from {@link CommitterEpochs}: on its first
 * connection this committer starts a new epoch, owes a wait to every connection an earlier one
 * recorded, and records each connection of its own before sending on it. Listing the server's
 * clients needs the permission to read servers; without it the committer refuses to start (an
 * {@link IggyConfigurationException}), since it could not fence. The wait is bounded by the request
 * timeout: past it the attempt fails naming the connection and the fix, and the retry waits again;
 * it never reads back early.
 *
 * <p>Confined to the committer's task thread.
 */
@Internal
final class ClientFence {

    private static final long POLL_MILLIS = 50;

    private final IggyConnectionConfig connection;
    private final CommitterEpochs epochs;

    /** Server-side ids of connections whose requests may still be applied. */
    private final Set<Long> pending = new HashSet<>();

    /** Whether {@link #pending} still holds connections of earlier committers. */
    private boolean earlierCommitters;

    private boolean started;

    ClientFence(IggyConnectionConfig connection, CommitterEpochs epochs) {
        this.connection = connection;
        this.epochs = epochs;
    }

    /**
     * A connection this committer opened, before anything is sent on it: on the first, checks the
     * permission to list clients and starts this committer's epoch; then records the connection.
     *
     * @throws IggyConfigurationException if the user may not list the server's clients
     * @throws IggyConnectorException if a newer committer of this subtask started
     */
    void opened(IggyServerClient client, long clientId) throws IOException {
        if (!started) {
            checkMayList(client);
            pending.addAll(epochs.start());
            earlierCommitters = true;
            started = true;
        }
        epochs.record(clientId);
    }

    /** A connection closed after a failure: its requests may still be applied. */
    void closedAfterFailure(long clientId) {
        pending.add(clientId);
    }

    /**
     * Returns once the server lists none of the connections whose requests may still be applied.
     *
     * @throws IggyConnectorException if one is still listed after the request timeout: the commit
     *     is tried again later
     */
    void await(IggyServerClient client) throws InterruptedException {
        long deadline = System.nanoTime() + connection.requestTimeout().toNanos();
        while (!pending.isEmpty()) {
            pending.retainAll(client.clientIds());
            if (pending.isEmpty()) {
                break;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IggyConnectorException(
                        "After "
                                + connection.requestTimeout()
                                + " the Iggy server at "
                                + connection.address()
                                + " still lists the connection(s) with client id(s) "
                                + pending
                                + " of an earlier attempt of this exactly-once committer, whose"
                                + " sends may still be appended: reading back now could repeat"
                                + " them, so the commit waits and is tried again. A connection"
                                + " whose host was lost stays listed until TCP keepalive ends it:"
                                + " turn it on in the server's configuration ([tcp.socket]"
                                + " override_defaults = true, keepalive = true) and keep the"
                                + " operating system's keepalive time short.");
            }
            Thread.sleep(POLL_MILLIS);
        }
        if (earlierCommitters) {
            earlierCommitters = false;
            epochs.outlasted();
        }
    }

    /**
     * The committer closed its connection with nothing unanswered: if no connection is still waited
     * for, the files of its own connections go.
     */
    void closedCleanly() {
        if (started && pending.isEmpty()) {
            epochs.closedCleanly();
        }
    }

    private void checkMayList(IggyServerClient client) {
        try {
            client.clientIds();
        } catch (RuntimeException e) {
            if (e instanceof IggyConfigurationException
                    || IggyErrorCode.UNAUTHORIZED.isCauseOf(e)) {
                String message =
                        "The exactly-once Iggy sink's committer needs to list the clients of the"
                                + " Iggy server at "
                                + connection.address()
                                + ", which "
                                + connection.principal()
                                + " may not: without it, it cannot tell when a send of an earlier"
                                + " attempt or of a lost TaskManager can no longer be appended,"
                                + " and could write messages twice. Grant the user the permission"
                                + " to read servers (global permission 'read_servers'), or use"
                                + " AT_LEAST_ONCE.";
                throw IggyClients.withOriginal(new CannotFence(message), e);
            }
            throw e;
        }
    }

    /** The committer may not list the server's clients, so it cannot fence: no retry mends it. */
    static final class CannotFence extends IggyConfigurationException {
        private static final long serialVersionUID = 1L;

        CannotFence(String message) {
            super(message);
        }
    }
}

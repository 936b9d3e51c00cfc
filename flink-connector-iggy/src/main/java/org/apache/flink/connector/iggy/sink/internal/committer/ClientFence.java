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
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.client.IggyErrorCode;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * Keeps a committer from reading a partition back while a request of one of its earlier connections
 * may still be applied.
 *
 * <p>A send that timed out, or whose connection broke, may still reach the server and be appended
 * later. Read back before that, its messages look missing and are sent again; the late original
 * then duplicates them and breaks the order. The server handles a connection's requests one after
 * the other and forgets the client only when that connection has ended, after its last request was
 * applied. So once the server's client list no longer shows the old connection's client id, nothing
 * of it can be appended any more, and a read-back sees everything it sent.
 *
 * <p>Listing clients needs the server-wide read permission; without it the fence cannot be checked,
 * which is logged once, and reading back proceeds as before. Confined to the committer's task
 * thread.
 */
@Internal
final class ClientFence {

    private static final Logger LOG = LoggerFactory.getLogger(ClientFence.class);

    private static final long POLL_MILLIS = 50;

    private final Duration timeout;

    /** Server-side ids of closed connections the server may still list. */
    private final Set<Long> pending = new HashSet<>();

    private boolean cannotList;

    /**
     * @param timeout how long {@link #await} waits for the server to forget old connections before
     *     it fails the attempt
     */
    ClientFence(Duration timeout) {
        this.timeout = timeout;
    }

    /** A connection closed after a failure: its requests may still be applied. */
    void closedAfterFailure(long clientId) {
        pending.add(clientId);
    }

    /**
     * Returns once the server lists none of the connections closed after a failure.
     *
     * @throws IggyConnectorException if one is still listed after the timeout: the commit is tried
     *     again later
     */
    void await(IggyServerClient client) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!pending.isEmpty()) {
            Set<Long> listed;
            try {
                listed = client.clientIds();
            } catch (RuntimeException e) {
                if (!IggyErrorCode.UNAUTHORIZED.isCauseOf(e)) {
                    throw e;
                }
                if (!cannotList) {
                    cannotList = true;
                    LOG.warn(
                            "The exactly-once Iggy committer's user may not list the server's"
                                    + " clients, so it cannot wait until a timed-out send can no"
                                    + " longer be applied before reading back; such a send may"
                                    + " then appear twice. Grant the user the permission to read"
                                    + " servers.");
                }
                pending.clear();
                return;
            }
            pending.retainAll(listed);
            if (pending.isEmpty()) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IggyConnectorException(
                        "After "
                                + timeout
                                + " the server still lists the committer's earlier connection(s) "
                                + pending
                                + ", whose sends may still be applied; reading back now could"
                                + " miss them.");
            }
            Thread.sleep(POLL_MILLIS);
        }
    }
}

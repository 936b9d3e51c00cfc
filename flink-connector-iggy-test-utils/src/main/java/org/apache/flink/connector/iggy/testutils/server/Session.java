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

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The state of one TCP connection. Each connection is its own Iggy client: it has its own client
 * id, its own logged-in user and its own consumer-group memberships.
 */
final class Session {
    private final long clientId;
    private final String address;
    private volatile UserAccount user;
    private volatile boolean closed;
    private final Set<ConsumerGroupState> groups = new LinkedHashSet<>();

    Session(long clientId, String address) {
        this.clientId = clientId;
        this.address = address;
    }

    long clientId() {
        return clientId;
    }

    String address() {
        return address;
    }

    UserAccount user() {
        return user;
    }

    void login(UserAccount user) {
        this.user = user;
    }

    void logout() {
        this.user = null;
    }

    boolean isClosed() {
        return closed;
    }

    void markClosed() {
        closed = true;
    }

    /** The logged-in user, or error 40 for a command that needs one. */
    UserAccount requireUser() {
        UserAccount current = user;
        if (current == null) {
            throw CommandException.of(ErrorCodes.UNAUTHENTICATED, "unauthenticated");
        }
        return current;
    }

    synchronized void joined(ConsumerGroupState group) {
        groups.add(group);
    }

    synchronized void left(ConsumerGroupState group) {
        groups.remove(group);
    }

    /** The groups this connection is still a member of (deleted groups are skipped). */
    synchronized List<ConsumerGroupState> groups() {
        List<ConsumerGroupState> result = new ArrayList<>();
        for (ConsumerGroupState group : groups) {
            if (!group.isDeleted()) {
                result.add(group);
            }
        }
        return result;
    }
}

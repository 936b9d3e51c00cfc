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

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.util.List;
import java.util.function.IntSupplier;

/** GET_STATS (10), GET_CLUSTER_METADATA (12), GET_ME (20), GET_CLIENT (21) and GET_CLIENTS (22). */
final class SystemCommands {
    private static final int TRANSPORT_TCP = 1;
    private static final String SERVER_VERSION = "0.8.0";
    private static final long SERVER_SEMVER = 8_000; // major * 1_000_000 + minor * 1_000 + patch

    /** What Iggy 0.8 reports when clustering is off, which this server never supports. */
    private static final String SINGLE_NODE_CLUSTER = "single-node";

    private static final String SINGLE_NODE_NAME = "iggy-node";
    private static final int ROLE_LEADER = 0;
    private static final int STATUS_HEALTHY = 0;

    /** The port of a transport this server does not listen on (QUIC, HTTP, WebSocket). */
    private static final int NO_PORT = 0;

    private final ServerState state;
    private final String host;
    private final IntSupplier tcpPort;

    /**
     * @param host the configured listen host, reported as the node's address as Iggy does
     * @param tcpPort the port the server listens on (asked per request: it is known once started)
     */
    SystemCommands(ServerState state, String host, IntSupplier tcpPort) {
        this.state = state;
        this.host = host;
        this.tcpPort = tcpPort;
    }

    /**
     * The metadata of a single-node "cluster", as Iggy 0.8 answers with clustering disabled: {@code
     * [name str32][nodes u32]} then per node {@code [name str32][ip str32][tcp u16][quic u16][http
     * u16][websocket u16][role u8][status u8]}. Any logged-in user may ask.
     */
    Reply getClusterMetadata() {
        ResponseWriter out = new ResponseWriter();
        out.str32(SINGLE_NODE_CLUSTER).u32(1).str32(SINGLE_NODE_NAME).str32(host);
        out.u16(tcpPort.getAsInt()).u16(NO_PORT).u16(NO_PORT).u16(NO_PORT);
        out.u8(ROLE_LEADER).u8(STATUS_HEALTHY);
        return Reply.of(out);
    }

    Reply getMe(Session session) {
        ResponseWriter out = new ResponseWriter();
        writeClientDetails(out, session);
        return Reply.of(out);
    }

    Reply getClient(UserAccount user, RequestReader request) {
        long clientId = request.u32();
        Permissioner.readServers(user);
        if (clientId == 0) {
            throw CommandException.of(ErrorCodes.INVALID_CLIENT_ID, "client id 0");
        }
        Session session = state.session(clientId);
        if (session == null) {
            return Reply.EMPTY;
        }
        ResponseWriter out = new ResponseWriter();
        writeClientDetails(out, session);
        return Reply.of(out);
    }

    Reply getClients(UserAccount user) {
        Permissioner.readServers(user);
        ResponseWriter out = new ResponseWriter();
        for (Session session : state.sessions()) {
            writeClient(out, session, session.groups().size());
        }
        return Reply.of(out);
    }

    /** Plausible process figures and exact catalog counts. */
    Reply getStats(UserAccount user) {
        Permissioner.readServers(user);
        Runtime runtime = Runtime.getRuntime();
        long now = Clock.nowMicros();
        ResponseWriter out = new ResponseWriter(256);
        out.u32(ProcessHandle.current().pid())
                .f32(0f)
                .f32(0f)
                .u64(runtime.totalMemory() - runtime.freeMemory())
                .u64(runtime.maxMemory())
                .u64(runtime.freeMemory())
                .u64(now - state.startedAtMicros())
                .u64(state.startedAtMicros())
                .u64(0)
                .u64(0);
        state.read(
                () -> {
                    long streams = 0;
                    long topics = 0;
                    long partitions = 0;
                    long messages = 0;
                    long bytes = 0;
                    long groups = 0;
                    long segments = 0;
                    for (StreamState stream : state.streams()) {
                        streams++;
                        for (TopicState topic : stream.topics.values()) {
                            topics++;
                            partitions += topic.partitions.size();
                            groups += topic.groups.size();
                            messages += topic.messagesCount();
                            bytes += topic.sizeBytes();
                            segments += topic.segmentsCount();
                        }
                    }
                    out.u64(bytes)
                            .u32(streams)
                            .u32(topics)
                            .u32(partitions)
                            .u32(segments)
                            .u64(messages)
                            .u32(state.sessions().size())
                            .u32(groups);
                    return null;
                });
        out.str32(hostname())
                .str32(System.getProperty("os.name", "unknown"))
                .str32(System.getProperty("os.version", "unknown"))
                .str32(System.getProperty("os.version", "unknown"))
                .str32(SERVER_VERSION)
                .u32(SERVER_SEMVER)
                .u32(0) // no cache metrics
                .u32(ManagementFactory.getThreadMXBean().getThreadCount())
                .u64(0)
                .u64(0);
        return Reply.of(out);
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "localhost";
        }
    }

    private static void writeClient(ResponseWriter out, Session session, int groupsCount) {
        UserAccount user = session.user();
        out.u32(session.clientId())
                .u32(user == null ? 0xFFFFFFFFL : user.id())
                .u8(TRANSPORT_TCP)
                .str32(session.address())
                .u32(groupsCount);
    }

    private static void writeClientDetails(ResponseWriter out, Session session) {
        List<ConsumerGroupState> groups = session.groups();
        writeClient(out, session, groups.size());
        for (ConsumerGroupState group : groups) {
            out.u32(group.streamId()).u32(group.topicId()).u32(group.id());
        }
    }
}

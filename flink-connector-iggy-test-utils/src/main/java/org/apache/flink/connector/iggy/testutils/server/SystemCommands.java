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

/** PING (1), GET_STATS (10), GET_ME (20), GET_CLIENT (21) and GET_CLIENTS (22). */
final class SystemCommands {
    private static final int TRANSPORT_TCP = 1;
    private static final String SERVER_VERSION = "0.8.0";
    private static final long SERVER_SEMVER = 8_000; // major * 1_000_000 + minor * 1_000 + patch

    private final ServerState state;

    SystemCommands(ServerState state) {
        this.state = state;
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
                    for (StreamState stream : state.streams()) {
                        streams++;
                        for (TopicState topic : stream.topics.values()) {
                            topics++;
                            partitions += topic.partitions.size();
                            groups += topic.groups.size();
                            messages += topic.messagesCount();
                            bytes += topic.sizeBytes();
                        }
                    }
                    out.u64(bytes)
                            .u32(streams)
                            .u32(topics)
                            .u32(partitions)
                            .u32(partitions) // one segment per partition
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

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

import static org.apache.flink.connector.iggy.testutils.server.PermissionSet.MANAGE_SERVERS;
import static org.apache.flink.connector.iggy.testutils.server.PermissionSet.MANAGE_STREAMS;
import static org.apache.flink.connector.iggy.testutils.server.PermissionSet.MANAGE_TOPICS;
import static org.apache.flink.connector.iggy.testutils.server.PermissionSet.MANAGE_USERS;
import static org.apache.flink.connector.iggy.testutils.server.PermissionSet.POLL_MESSAGES;
import static org.apache.flink.connector.iggy.testutils.server.PermissionSet.READ_SERVERS;
import static org.apache.flink.connector.iggy.testutils.server.PermissionSet.READ_STREAMS;
import static org.apache.flink.connector.iggy.testutils.server.PermissionSet.READ_TOPICS;
import static org.apache.flink.connector.iggy.testutils.server.PermissionSet.READ_USERS;
import static org.apache.flink.connector.iggy.testutils.server.PermissionSet.SEND_MESSAGES;

/**
 * Decides whether a user may run a command; a refusal is error 41 (Unauthorized).
 *
 * <p>Root may do everything. Other users need a global flag, or a flag on the stream, or a flag on
 * the topic. A "manage" flag implies the matching "read" flag, and managing or reading a stream
 * covers its topics and messages, following the real server's permissioner.
 */
final class Permissioner {
    private Permissioner() {}

    static void readServers(UserAccount user) {
        PermissionSet p = user.permissions;
        require(user, p != null && (p.global(MANAGE_SERVERS) || p.global(READ_SERVERS)));
    }

    static void manageUsers(UserAccount user) {
        PermissionSet p = user.permissions;
        require(user, p != null && p.global(MANAGE_USERS));
    }

    static void readUsers(UserAccount user) {
        PermissionSet p = user.permissions;
        require(user, p != null && (p.global(MANAGE_USERS) || p.global(READ_USERS)));
    }

    static void manageStreams(UserAccount user) {
        PermissionSet p = user.permissions;
        require(user, p != null && p.global(MANAGE_STREAMS));
    }

    static void readStreams(UserAccount user) {
        PermissionSet p = user.permissions;
        require(user, p != null && (p.global(MANAGE_STREAMS) || p.global(READ_STREAMS)));
    }

    static void manageStream(UserAccount user, int streamId) {
        PermissionSet p = user.permissions;
        PermissionSet.StreamFlags s = p == null ? null : p.stream(streamId);
        require(user, p != null && (p.global(MANAGE_STREAMS) || (s != null && s.manageStream())));
    }

    static void readStream(UserAccount user, int streamId) {
        PermissionSet p = user.permissions;
        PermissionSet.StreamFlags s = p == null ? null : p.stream(streamId);
        require(
                user,
                p != null
                        && (p.global(MANAGE_STREAMS)
                                || p.global(READ_STREAMS)
                                || (s != null && (s.manageStream() || s.readStream()))));
    }

    static void manageTopics(UserAccount user, int streamId) {
        PermissionSet p = user.permissions;
        PermissionSet.StreamFlags s = p == null ? null : p.stream(streamId);
        require(
                user,
                p != null
                        && (p.global(MANAGE_STREAMS)
                                || p.global(MANAGE_TOPICS)
                                || (s != null && (s.manageStream() || s.manageTopics()))));
    }

    static void manageTopic(UserAccount user, TopicState topic) {
        PermissionSet p = user.permissions;
        if (user.isRoot() || allowsManageTopics(p, topic.streamId())) {
            return;
        }
        PermissionSet.TopicFlags t = topicFlags(p, topic);
        require(user, t != null && t.manageTopic());
    }

    static void readTopic(UserAccount user, TopicState topic) {
        PermissionSet p = user.permissions;
        if (user.isRoot() || allowsReadTopics(p, topic.streamId())) {
            return;
        }
        PermissionSet.TopicFlags t = topicFlags(p, topic);
        require(user, t != null && (t.manageTopic() || t.readTopic()));
    }

    static void pollMessages(UserAccount user, TopicState topic) {
        PermissionSet p = user.permissions;
        if (user.isRoot() || allowsReadTopics(p, topic.streamId())) {
            return;
        }
        if (p != null && p.global(POLL_MESSAGES)) {
            return;
        }
        PermissionSet.StreamFlags s = p == null ? null : p.stream(topic.streamId());
        if (s != null && s.pollMessages()) {
            return;
        }
        PermissionSet.TopicFlags t = topicFlags(p, topic);
        require(user, t != null && (t.manageTopic() || t.readTopic() || t.pollMessages()));
    }

    static void sendMessages(UserAccount user, TopicState topic) {
        PermissionSet p = user.permissions;
        if (user.isRoot() || allowsManageTopics(p, topic.streamId())) {
            return;
        }
        if (p != null && p.global(SEND_MESSAGES)) {
            return;
        }
        PermissionSet.StreamFlags s = p == null ? null : p.stream(topic.streamId());
        if (s != null && s.sendMessages()) {
            return;
        }
        PermissionSet.TopicFlags t = topicFlags(p, topic);
        require(user, t != null && (t.manageTopic() || t.sendMessages()));
    }

    private static PermissionSet.TopicFlags topicFlags(PermissionSet p, TopicState topic) {
        return p == null ? null : p.topic(topic.streamId(), topic.id());
    }

    private static boolean allowsManageTopics(PermissionSet p, int streamId) {
        if (p == null) {
            return false;
        }
        PermissionSet.StreamFlags s = p.stream(streamId);
        return p.global(MANAGE_STREAMS)
                || p.global(MANAGE_TOPICS)
                || (s != null && (s.manageStream() || s.manageTopics()));
    }

    private static boolean allowsReadTopics(PermissionSet p, int streamId) {
        if (p == null) {
            return false;
        }
        PermissionSet.StreamFlags s = p.stream(streamId);
        return p.global(MANAGE_STREAMS)
                || p.global(READ_STREAMS)
                || p.global(MANAGE_TOPICS)
                || p.global(READ_TOPICS)
                || (s != null
                        && (s.manageStream()
                                || s.readStream()
                                || s.manageTopics()
                                || s.readTopics()));
    }

    private static void require(UserAccount user, boolean allowed) {
        if (!allowed && !user.isRoot()) {
            throw CommandException.of(
                    ErrorCodes.UNAUTHORIZED, "user " + user.username + " is not allowed");
        }
    }
}

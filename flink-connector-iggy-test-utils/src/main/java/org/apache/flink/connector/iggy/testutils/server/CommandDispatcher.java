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

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Routes a request to its command by code. PING and the two logins work without a user; every other
 * command answers 40 (Unauthenticated) until the connection has logged in. An unknown code answers
 * 3 (InvalidCommand), logged in or not.
 */
final class CommandDispatcher {

    /** A command that needs no logged-in user. */
    @FunctionalInterface
    private interface AnonymousCommand {
        Reply run(Session session, RequestReader request);
    }

    /** A command run on behalf of the connection's logged-in user. */
    @FunctionalInterface
    private interface UserCommand {
        Reply run(Session session, UserAccount user, RequestReader request);
    }

    private final Map<Integer, AnonymousCommand> commands = new HashMap<>();

    /**
     * @param host the configured listen host, which cluster metadata reports
     * @param tcpPort the port the server listens on, once started
     */
    CommandDispatcher(ServerState state, String host, IntSupplier tcpPort) {
        SystemCommands system = new SystemCommands(state, host, tcpPort);
        SnapshotCommand snapshot = new SnapshotCommand();
        StorageCommands storage = new StorageCommands(state);
        UserCommands users = new UserCommands(state);
        StreamCommands streams = new StreamCommands(state);
        MessageCommands messages = new MessageCommands(state);
        ConsumerOffsetCommands offsets = new ConsumerOffsetCommands(state);
        ConsumerGroupCommands groups = new ConsumerGroupCommands(state);

        anonymous(CommandCodes.PING, (session, request) -> Reply.EMPTY);
        anonymous(CommandCodes.LOGIN_USER, users::login);
        anonymous(CommandCodes.LOGIN_WITH_PAT, users::loginWithToken);

        authenticated(CommandCodes.GET_STATS, (session, user, request) -> system.getStats(user));
        authenticated(
                CommandCodes.GET_SNAPSHOT,
                (session, user, request) -> snapshot.getSnapshot(request));
        authenticated(
                CommandCodes.GET_CLUSTER_METADATA,
                (session, user, request) -> system.getClusterMetadata());
        authenticated(CommandCodes.GET_ME, (session, user, request) -> system.getMe(session));
        authenticated(
                CommandCodes.GET_CLIENT,
                (session, user, request) -> system.getClient(user, request));
        authenticated(
                CommandCodes.GET_CLIENTS, (session, user, request) -> system.getClients(user));

        authenticated(CommandCodes.LOGOUT_USER, (session, user, request) -> users.logout(session));
        authenticated(
                CommandCodes.GET_USER, (session, user, request) -> users.getUser(user, request));
        authenticated(CommandCodes.GET_USERS, (session, user, request) -> users.getUsers(user));
        authenticated(
                CommandCodes.CREATE_USER,
                (session, user, request) -> users.createUser(user, request));
        authenticated(
                CommandCodes.DELETE_USER,
                (session, user, request) -> users.deleteUser(user, request));
        authenticated(
                CommandCodes.UPDATE_USER,
                (session, user, request) -> users.updateUser(user, request));
        authenticated(
                CommandCodes.UPDATE_PERMISSIONS,
                (session, user, request) -> users.updatePermissions(user, request));
        authenticated(
                CommandCodes.CHANGE_PASSWORD,
                (session, user, request) -> users.changePassword(user, request));
        authenticated(CommandCodes.GET_PATS, (session, user, request) -> users.getTokens(user));
        authenticated(
                CommandCodes.CREATE_PAT,
                (session, user, request) -> users.createToken(user, request));
        authenticated(
                CommandCodes.DELETE_PAT,
                (session, user, request) -> users.deleteToken(user, request));

        authenticated(CommandCodes.POLL_MESSAGES, messages::poll);
        authenticated(
                CommandCodes.SEND_MESSAGES,
                (session, user, request) -> messages.send(user, request));
        authenticated(
                CommandCodes.FLUSH_UNSAVED_BUFFER,
                (session, user, request) -> storage.flushUnsavedBuffer(user, request));

        authenticated(
                CommandCodes.GET_CONSUMER_OFFSET,
                (session, user, request) -> offsets.get(user, request));
        authenticated(CommandCodes.STORE_CONSUMER_OFFSET, offsets::store);
        authenticated(
                CommandCodes.DELETE_CONSUMER_OFFSET,
                (session, user, request) -> offsets.delete(user, request));

        authenticated(
                CommandCodes.GET_STREAM,
                (session, user, request) -> streams.getStream(user, request));
        authenticated(
                CommandCodes.GET_STREAMS, (session, user, request) -> streams.getStreams(user));
        authenticated(
                CommandCodes.CREATE_STREAM,
                (session, user, request) -> streams.createStream(user, request));
        authenticated(
                CommandCodes.DELETE_STREAM,
                (session, user, request) -> streams.deleteStream(user, request));
        authenticated(
                CommandCodes.UPDATE_STREAM,
                (session, user, request) -> streams.updateStream(user, request));
        authenticated(
                CommandCodes.PURGE_STREAM,
                (session, user, request) -> streams.purgeStream(user, request));
        authenticated(
                CommandCodes.GET_TOPIC,
                (session, user, request) -> streams.getTopic(user, request));
        authenticated(
                CommandCodes.GET_TOPICS,
                (session, user, request) -> streams.getTopics(user, request));
        authenticated(
                CommandCodes.CREATE_TOPIC,
                (session, user, request) -> streams.createTopic(user, request));
        authenticated(
                CommandCodes.DELETE_TOPIC,
                (session, user, request) -> streams.deleteTopic(user, request));
        authenticated(
                CommandCodes.UPDATE_TOPIC,
                (session, user, request) -> streams.updateTopic(user, request));
        authenticated(
                CommandCodes.PURGE_TOPIC,
                (session, user, request) -> streams.purgeTopic(user, request));
        authenticated(
                CommandCodes.CREATE_PARTITIONS,
                (session, user, request) -> streams.createPartitions(user, request));
        authenticated(
                CommandCodes.DELETE_PARTITIONS,
                (session, user, request) -> streams.deletePartitions(user, request));
        authenticated(
                CommandCodes.DELETE_SEGMENTS,
                (session, user, request) -> storage.deleteSegments(user, request));

        authenticated(
                CommandCodes.GET_CONSUMER_GROUP,
                (session, user, request) -> groups.get(user, request));
        authenticated(
                CommandCodes.GET_CONSUMER_GROUPS,
                (session, user, request) -> groups.list(user, request));
        authenticated(
                CommandCodes.CREATE_CONSUMER_GROUP,
                (session, user, request) -> groups.create(user, request));
        authenticated(
                CommandCodes.DELETE_CONSUMER_GROUP,
                (session, user, request) -> groups.delete(user, request));
        authenticated(CommandCodes.JOIN_CONSUMER_GROUP, groups::join);
        authenticated(CommandCodes.LEAVE_CONSUMER_GROUP, groups::leave);
    }

    Reply dispatch(Session session, int code, RequestReader request) {
        AnonymousCommand command = commands.get(code);
        if (command == null) {
            throw CommandException.of(ErrorCodes.INVALID_COMMAND, "unknown command " + code);
        }
        return command.run(session, request);
    }

    private void anonymous(int code, AnonymousCommand command) {
        commands.put(code, command);
    }

    private void authenticated(int code, UserCommand command) {
        commands.put(
                code, (session, request) -> command.run(session, session.requireUser(), request));
    }
}

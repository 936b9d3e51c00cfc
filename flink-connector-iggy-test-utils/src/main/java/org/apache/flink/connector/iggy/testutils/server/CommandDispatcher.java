package org.apache.flink.connector.iggy.testutils.server;

import static org.apache.flink.connector.iggy.testutils.server.CommandCodes.*;

/**
 * Routes a request to its command. PING and the two logins work without a user; every other command
 * answers 40 (Unauthenticated) until the connection has logged in.
 */
final class CommandDispatcher {
    private final SystemCommands system;
    private final UserCommands users;
    private final StreamCommands streams;
    private final MessageCommands messages;
    private final ConsumerOffsetCommands offsets;
    private final ConsumerGroupCommands groups;

    CommandDispatcher(ServerState state) {
        this.system = new SystemCommands(state);
        this.users = new UserCommands(state);
        this.streams = new StreamCommands(state);
        this.messages = new MessageCommands(state);
        this.offsets = new ConsumerOffsetCommands(state);
        this.groups = new ConsumerGroupCommands(state);
    }

    Reply dispatch(Session session, int code, RequestReader request) {
        switch (code) {
            case PING:
                return Reply.EMPTY;
            case LOGIN_USER:
                return users.login(session, request);
            case LOGIN_WITH_PAT:
                return users.loginWithToken(session, request);
            default:
                break;
        }
        if (!isKnown(code)) {
            throw CommandException.of(ErrorCodes.INVALID_COMMAND, "unknown command " + code);
        }
        UserAccount user = session.requireUser();
        switch (code) {
            case GET_STATS:
                return system.getStats(user);
            case GET_ME:
                return system.getMe(session);
            case GET_CLIENT:
                return system.getClient(user, request);
            case GET_CLIENTS:
                return system.getClients(user);
            case GET_USER:
                return users.getUser(user, request);
            case GET_USERS:
                return users.getUsers(user);
            case CREATE_USER:
                return users.createUser(user, request);
            case DELETE_USER:
                return users.deleteUser(user, request);
            case UPDATE_USER:
                return users.updateUser(user, request);
            case UPDATE_PERMISSIONS:
                return users.updatePermissions(user, request);
            case CHANGE_PASSWORD:
                return users.changePassword(user, request);
            case LOGOUT_USER:
                return users.logout(session);
            case GET_PATS:
                return users.getTokens(user);
            case CREATE_PAT:
                return users.createToken(user, request);
            case DELETE_PAT:
                return users.deleteToken(user, request);
            case POLL_MESSAGES:
                return messages.poll(session, user, request);
            case SEND_MESSAGES:
                return messages.send(user, request);
            case GET_CONSUMER_OFFSET:
                return offsets.get(user, request);
            case STORE_CONSUMER_OFFSET:
                return offsets.store(session, user, request);
            case DELETE_CONSUMER_OFFSET:
                return offsets.delete(user, request);
            case GET_STREAM:
                return streams.getStream(user, request);
            case GET_STREAMS:
                return streams.getStreams(user);
            case CREATE_STREAM:
                return streams.createStream(user, request);
            case DELETE_STREAM:
                return streams.deleteStream(user, request);
            case UPDATE_STREAM:
                return streams.updateStream(user, request);
            case PURGE_STREAM:
                return streams.purgeStream(user, request);
            case GET_TOPIC:
                return streams.getTopic(user, request);
            case GET_TOPICS:
                return streams.getTopics(user, request);
            case CREATE_TOPIC:
                return streams.createTopic(user, request);
            case DELETE_TOPIC:
                return streams.deleteTopic(user, request);
            case UPDATE_TOPIC:
                return streams.updateTopic(user, request);
            case PURGE_TOPIC:
                return streams.purgeTopic(user, request);
            case CREATE_PARTITIONS:
                return streams.createPartitions(user, request);
            case DELETE_PARTITIONS:
                return streams.deletePartitions(user, request);
            case GET_CONSUMER_GROUP:
                return groups.get(user, request);
            case GET_CONSUMER_GROUPS:
                return groups.list(user, request);
            case CREATE_CONSUMER_GROUP:
                return groups.create(user, request);
            case DELETE_CONSUMER_GROUP:
                return groups.delete(user, request);
            case JOIN_CONSUMER_GROUP:
                return groups.join(session, user, request);
            case LEAVE_CONSUMER_GROUP:
                return groups.leave(session, user, request);
            default:
                throw CommandException.of(ErrorCodes.INVALID_COMMAND, "unknown command " + code);
        }
    }

    private static boolean isKnown(int code) {
        switch (code) {
            case GET_STATS:
            case GET_ME:
            case GET_CLIENT:
            case GET_CLIENTS:
            case GET_USER:
            case GET_USERS:
            case CREATE_USER:
            case DELETE_USER:
            case UPDATE_USER:
            case UPDATE_PERMISSIONS:
            case CHANGE_PASSWORD:
            case LOGOUT_USER:
            case GET_PATS:
            case CREATE_PAT:
            case DELETE_PAT:
            case POLL_MESSAGES:
            case SEND_MESSAGES:
            case GET_CONSUMER_OFFSET:
            case STORE_CONSUMER_OFFSET:
            case DELETE_CONSUMER_OFFSET:
            case GET_STREAM:
            case GET_STREAMS:
            case CREATE_STREAM:
            case DELETE_STREAM:
            case UPDATE_STREAM:
            case PURGE_STREAM:
            case GET_TOPIC:
            case GET_TOPICS:
            case CREATE_TOPIC:
            case DELETE_TOPIC:
            case UPDATE_TOPIC:
            case PURGE_TOPIC:
            case CREATE_PARTITIONS:
            case DELETE_PARTITIONS:
            case GET_CONSUMER_GROUP:
            case GET_CONSUMER_GROUPS:
            case CREATE_CONSUMER_GROUP:
            case DELETE_CONSUMER_GROUP:
            case JOIN_CONSUMER_GROUP:
            case LEAVE_CONSUMER_GROUP:
                return true;
            default:
                return false;
        }
    }
}

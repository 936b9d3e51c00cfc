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

import java.nio.charset.StandardCharsets;

/** Login and logout (38, 39), users (31–37) and personal access tokens (41–44). */
final class UserCommands {
    private final ServerState state;

    UserCommands(ServerState state) {
        this.state = state;
    }

    /**
     * {@code [username str8][password str8][version_len u32][version][context_len u32][context]}.
     * The SDK's version and context strings are ignored, as by the real server.
     */
    Reply login(Session session, RequestReader request) {
        String username = readLength8String(request);
        String password = readLength8String(request);
        UserAccount user = state.users().login(username, password);
        session.login(user);
        return userId(user);
    }

    Reply loginWithToken(Session session, RequestReader request) {
        String token = request.str8();
        UserAccount user = state.users().loginWithToken(token);
        session.login(user);
        return userId(user);
    }

    Reply logout(Session session) {
        session.logout();
        return Reply.EMPTY;
    }

    // ---- users

    Reply getUser(UserAccount caller, RequestReader request) {
        EntityId userId = request.identifier();
        UserAccount user = state.users().find(userId);
        if (user == null) {
            return Reply.EMPTY;
        }
        if (user != caller) {
            Permissioner.readUsers(caller);
        }
        ResponseWriter out = new ResponseWriter();
        writeUserDetails(out, user);
        return Reply.of(out);
    }

    Reply getUsers(UserAccount caller) {
        Permissioner.readUsers(caller);
        ResponseWriter out = new ResponseWriter();
        for (UserAccount user : state.users().all()) {
            writeUser(out, user);
        }
        return Reply.of(out);
    }

    /** {@code [username str8][password str8][status u8][has_perms u8][perm_len u32][perms]}. */
    Reply createUser(UserAccount caller, RequestReader request) {
        String username = request.str8();
        String password = request.str8();
        int status = request.u8();
        PermissionSet permissions = readOptionalPermissions(request);
        Permissioner.manageUsers(caller);
        validateCredentialsShape(username, password);
        if (status != UserAccount.STATUS_ACTIVE && status != UserAccount.STATUS_INACTIVE) {
            throw CommandException.of(ErrorCodes.INVALID_COMMAND, "user status " + status);
        }
        UserAccount user = state.users().create(username, password, status, permissions);
        ResponseWriter out = new ResponseWriter();
        writeUserDetails(out, user);
        return Reply.of(out);
    }

    Reply deleteUser(UserAccount caller, RequestReader request) {
        EntityId userId = request.identifier();
        Permissioner.manageUsers(caller);
        state.users().delete(existingUser(userId));
        return Reply.EMPTY;
    }

    /** {@code [user][has_name u8][name str8?][has_status u8][status u8?]}. */
    Reply updateUser(UserAccount caller, RequestReader request) {
        EntityId userId = request.identifier();
        String username = request.u8() == 1 ? request.str8() : null;
        Integer status = request.u8() == 1 ? request.u8() : null;
        Permissioner.manageUsers(caller);
        UserAccount user = existingUser(userId);
        synchronized (state.users()) {
            if (username != null) {
                state.users().rename(user, username);
            }
            if (status != null) {
                user.status = status;
            }
        }
        return Reply.EMPTY;
    }

    Reply updatePermissions(UserAccount caller, RequestReader request) {
        EntityId userId = request.identifier();
        PermissionSet permissions = readOptionalPermissions(request);
        Permissioner.manageUsers(caller);
        UserAccount user = existingUser(userId);
        if (user.isRoot()) {
            throw CommandException.of(
                    ErrorCodes.CANNOT_CHANGE_PERMISSIONS, "root's permissions are fixed");
        }
        synchronized (state.users()) {
            user.permissions = permissions;
        }
        return Reply.EMPTY;
    }

    Reply changePassword(UserAccount caller, RequestReader request) {
        EntityId userId = request.identifier();
        String current = request.str8();
        String next = request.str8();
        UserAccount user = existingUser(userId);
        if (user != caller) {
            Permissioner.manageUsers(caller);
        }
        synchronized (state.users()) {
            if (!user.password.equals(current)) {
                throw CommandException.of(ErrorCodes.INVALID_CREDENTIALS, "wrong password");
            }
            user.password = next;
        }
        return Reply.EMPTY;
    }

    // ---- personal access tokens

    Reply createToken(UserAccount caller, RequestReader request) {
        String name = request.str8();
        long expiry = request.u64();
        String token = state.users().createToken(caller, name, expiry);
        ResponseWriter out = new ResponseWriter();
        out.str8(token);
        return Reply.of(out);
    }

    Reply getTokens(UserAccount caller) {
        ResponseWriter out = new ResponseWriter();
        for (UserAccount.PersonalAccessToken token : state.users().tokens(caller)) {
            out.str8(token.name()).u64(token.expiresAt());
        }
        return Reply.of(out);
    }

    Reply deleteToken(UserAccount caller, RequestReader request) {
        String name = request.str8();
        state.users().deleteToken(caller, name);
        return Reply.EMPTY;
    }

    // ---- helpers

    private UserAccount existingUser(EntityId userId) {
        UserAccount user = state.users().find(userId);
        if (user == null) {
            throw CommandException.of(ErrorCodes.RESOURCE_NOT_FOUND, "user " + userId);
        }
        return user;
    }

    /** Login fields may be empty on the wire; their length is checked afterwards (43/44). */
    private static String readLength8String(RequestReader request) {
        return request.string(request.u8());
    }

    private static void validateCredentialsShape(String username, String password) {
        int usernameLength = username.getBytes(StandardCharsets.UTF_8).length;
        if (usernameLength < 3 || usernameLength > 50) {
            throw CommandException.of(ErrorCodes.INVALID_USERNAME, "invalid username");
        }
        int passwordLength = password.getBytes(StandardCharsets.UTF_8).length;
        if (passwordLength < 3 || passwordLength > 100) {
            throw CommandException.of(ErrorCodes.INVALID_PASSWORD, "invalid password");
        }
    }

    private static PermissionSet readOptionalPermissions(RequestReader request) {
        if (request.u8() != 1) {
            return null;
        }
        int length = request.u32AsInt();
        return PermissionSet.parse(request, length);
    }

    private static Reply userId(UserAccount user) {
        ResponseWriter out = new ResponseWriter(4);
        out.u32(user.id());
        return Reply.of(out);
    }

    private static void writeUser(ResponseWriter out, UserAccount user) {
        out.u32(user.id()).u64(user.createdAt()).u8(user.status).str8(user.username);
    }

    /** The user, then {@code [1][perm_len][perms]}, or four zero bytes without permissions. */
    private static void writeUserDetails(ResponseWriter out, UserAccount user) {
        writeUser(out, user);
        if (user.permissions == null) {
            out.u32(0);
        } else {
            out.u8(1);
            user.permissions.writeTo(out);
        }
    }
}

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

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.TreeMap;

/** All users (root is id 0) and their personal access tokens. Thread-safe through its monitor. */
final class UserRegistry {
    static final int MAX_TOKENS_PER_USER = 100;

    private final TreeMap<Integer, UserAccount> users = new TreeMap<>();
    private final IdAllocator ids = new IdAllocator();
    private final SecureRandom random = new SecureRandom();

    UserRegistry(String rootUsername, String rootPassword) {
        int rootId = ids.allocate();
        users.put(
                rootId,
                new UserAccount(
                        rootId,
                        rootUsername,
                        rootPassword,
                        UserAccount.STATUS_ACTIVE,
                        PermissionSet.all()));
    }

    /**
     * Checks in the real server's order: name and password lengths, existence, status, password.
     */
    synchronized UserAccount login(String username, String password) {
        int usernameLength = username.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (usernameLength < 3 || usernameLength > 50) {
            throw CommandException.of(ErrorCodes.INVALID_USERNAME, "invalid username");
        }
        int passwordLength = password.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (passwordLength < 3 || passwordLength > 100) {
            throw CommandException.of(ErrorCodes.INVALID_PASSWORD, "invalid password");
        }
        UserAccount user = findByName(username);
        if (user == null) {
            throw CommandException.of(ErrorCodes.INVALID_CREDENTIALS, "invalid credentials");
        }
        if (user.status != UserAccount.STATUS_ACTIVE) {
            throw CommandException.of(ErrorCodes.USER_INACTIVE, "user inactive");
        }
        if (!user.password.equals(password)) {
            throw CommandException.of(ErrorCodes.INVALID_CREDENTIALS, "invalid credentials");
        }
        return user;
    }

    synchronized UserAccount loginWithToken(String token) {
        for (UserAccount user : users.values()) {
            for (UserAccount.PersonalAccessToken candidate : user.tokens.values()) {
                if (candidate.token().equals(token)) {
                    if (candidate.isExpired(Clock.nowMicros())) {
                        throw CommandException.of(ErrorCodes.PAT_EXPIRED, "token expired");
                    }
                    if (user.status != UserAccount.STATUS_ACTIVE) {
                        throw CommandException.of(ErrorCodes.USER_INACTIVE, "user inactive");
                    }
                    return user;
                }
            }
        }
        throw CommandException.of(ErrorCodes.RESOURCE_NOT_FOUND, "unknown token");
    }

    synchronized UserAccount find(EntityId id) {
        if (id.isNumeric()) {
            return id.numeric() > Integer.MAX_VALUE ? null : users.get((int) id.numeric());
        }
        return findByName(id.name());
    }

    synchronized List<UserAccount> all() {
        return new ArrayList<>(users.values());
    }

    synchronized UserAccount create(
            String username, String password, int status, PermissionSet permissions) {
        if (findByName(username) != null) {
            throw CommandException.of(ErrorCodes.USER_ALREADY_EXISTS, "user exists: " + username);
        }
        int id = ids.allocate();
        UserAccount user = new UserAccount(id, username, password, status, permissions);
        users.put(id, user);
        return user;
    }

    synchronized void delete(UserAccount user) {
        if (user.isRoot()) {
            throw CommandException.of(ErrorCodes.CANNOT_DELETE_USER, "cannot delete root");
        }
        users.remove(user.id());
        ids.free(user.id());
    }

    synchronized void rename(UserAccount user, String username) {
        UserAccount existing = findByName(username);
        if (existing != null && existing != user) {
            throw CommandException.of(ErrorCodes.USER_ALREADY_EXISTS, "user exists: " + username);
        }
        user.username = username;
    }

    /**
     * Creates a token that expires {@code expiryMicros} from now (0 or u64::MAX: never).
     *
     * @return the token's secret value
     */
    synchronized String createToken(UserAccount user, String name, long expiryMicros) {
        if (user.tokens.containsKey(name)) {
            throw CommandException.of(ErrorCodes.PAT_ALREADY_EXISTS, "token exists: " + name);
        }
        if (user.tokens.size() >= MAX_TOKENS_PER_USER) {
            throw CommandException.of(ErrorCodes.PAT_LIMIT_REACHED, "too many tokens");
        }
        byte[] secret = new byte[50];
        random.nextBytes(secret);
        String token = Base64.getEncoder().encodeToString(secret);
        long expiresAt =
                expiryMicros == 0 || expiryMicros == -1L ? 0 : Clock.nowMicros() + expiryMicros;
        user.tokens.put(name, new UserAccount.PersonalAccessToken(name, token, expiresAt));
        return token;
    }

    synchronized List<UserAccount.PersonalAccessToken> tokens(UserAccount user) {
        return new ArrayList<>(user.tokens.values());
    }

    synchronized void deleteToken(UserAccount user, String name) {
        if (user.tokens.remove(name) == null) {
            throw CommandException.of(ErrorCodes.RESOURCE_NOT_FOUND, "no token " + name);
        }
    }

    private UserAccount findByName(String username) {
        for (UserAccount user : users.values()) {
            if (user.username.equals(username)) {
                return user;
            }
        }
        return null;
    }
}

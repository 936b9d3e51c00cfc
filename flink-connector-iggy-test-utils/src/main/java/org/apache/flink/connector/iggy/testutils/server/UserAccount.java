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

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A user and its personal access tokens. Changed under the {@link UserRegistry}'s monitor; the
 * mutable fields are volatile because permission checks read them without that lock.
 */
final class UserAccount {
    static final int STATUS_ACTIVE = 1;
    static final int STATUS_INACTIVE = 2;

    private final int id;
    private final long createdAt;
    String username;
    String password;
    int status;

    /** Null: the user has no permissions at all. */
    PermissionSet permissions;

    /** PATs by name, in creation order. */
    final Map<String, PersonalAccessToken> tokens = new LinkedHashMap<>();

    UserAccount(int id, String username, String password, int status, PermissionSet permissions) {
        this.id = id;
        this.createdAt = Clock.nowMicros();
        this.username = username;
        this.password = password;
        this.status = status;
        this.permissions = permissions;
    }

    int id() {
        return id;
    }

    long createdAt() {
        return createdAt;
    }

    boolean isRoot() {
        return id == 0;
    }

    /** A token: its secret value and when it expires (µs since the epoch, 0 = never). */
    record PersonalAccessToken(String name, String token, long expiresAt) {
        boolean isExpired(long nowMicros) {
            return expiresAt != 0 && nowMicros >= expiresAt;
        }
    }
}

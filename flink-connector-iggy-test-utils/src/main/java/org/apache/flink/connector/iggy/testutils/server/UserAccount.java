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

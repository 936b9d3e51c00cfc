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
package org.apache.flink.connector.iggy.sink.reconcile;

import org.apache.flink.annotation.Internal;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Fingerprints of message payloads (value bytes only) and deterministic message ids, both unkeyed
 * BLAKE2b with a 16-byte digest (BLAKE2b-128, not a truncated BLAKE2b-512).
 */
@Internal
public final class IggyFingerprint {

    /** Size of a fingerprint and of a message id in bytes. */
    public static final int SIZE = Blake2b128.DIGEST_LENGTH;

    /** One hasher per thread, so that the per-record path leaves no garbage. */
    private static final ThreadLocal<Blake2b128> HASHERS = ThreadLocal.withInitial(Blake2b128::new);

    private IggyFingerprint() {}

    /** BLAKE2b-128 of {@code value}. */
    public static byte[] of(byte[] value) {
        Blake2b128 hasher = HASHERS.get(); // digest resets it for the next use
        hasher.update(value, 0, value.length);
        byte[] out = new byte[SIZE];
        hasher.digest(out, 0);
        return out;
    }

    /** BLAKE2b-128 of the UTF-8 bytes of {@code value}. */
    public static byte[] of(String value) {
        return of(value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A deterministic, non-zero message id for the {@code sequence}-th message a sink sends for a
     * key: BLAKE2b-128 of the length-prefixed sink id and key and the sequence number, read as a
     * big-endian u128, returned as the wire carries it (16 bytes, little-endian).
     */
    public static byte[] messageId(byte[] sinkId, byte[] key, long sequence) {
        // Checked first: failing halfway would leave part of a message in the thread's hasher.
        Objects.requireNonNull(sinkId, "sinkId");
        Objects.requireNonNull(key, "key");
        Blake2b128 hasher = HASHERS.get();
        // Length prefixes keep ("ab","c") and ("a","bc") apart.
        updateInt(hasher, sinkId.length);
        hasher.update(sinkId, 0, sinkId.length);
        updateInt(hasher, key.length);
        hasher.update(key, 0, key.length);
        for (int i = 0; i < 8; i++) {
            hasher.update((byte) (sequence >>> (8 * i)));
        }
        byte[] digest = new byte[SIZE];
        hasher.digest(digest, 0);
        byte[] wire = new byte[SIZE];
        boolean zero = true;
        for (int i = 0; i < SIZE; i++) {
            wire[i] = digest[SIZE - 1 - i];
            zero &= digest[i] == 0;
        }
        // Id 0 asks the server to generate a random id, which would defeat deduplication.
        if (zero) {
            wire[0] = 1;
        }
        return wire;
    }

    private static void updateInt(Blake2b128 hasher, int value) {
        for (int i = 0; i < 4; i++) {
            hasher.update((byte) (value >>> (8 * i)));
        }
    }
}

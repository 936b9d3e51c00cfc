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
import org.apache.flink.util.Preconditions;

import java.nio.ByteBuffer;

/**
 * What the reconcile step remembers about one key: the fingerprint of the last value it sent (none
 * after a delete), as two longs so that the heap backend keeps one small object per key, and how
 * many messages it has sent for the key. Immutable.
 */
@Internal
public final class ReconcileState {

    private final long messagesSent;
    private final boolean hasFingerprint;
    private final long fingerprintHigh;
    private final long fingerprintLow;

    private ReconcileState(
            long messagesSent, boolean hasFingerprint, long fingerprintHigh, long fingerprintLow) {
        Preconditions.checkArgument(messagesSent >= 0, "negative message count %s", messagesSent);
        this.messagesSent = messagesSent;
        this.hasFingerprint = hasFingerprint;
        this.fingerprintHigh = fingerprintHigh;
        this.fingerprintLow = fingerprintLow;
    }

    /** The state after sending a value with this fingerprint, the key's {@code messagesSent}th. */
    public static ReconcileState sent(byte[] fingerprint, long messagesSent) {
        Preconditions.checkArgument(
                fingerprint.length == IggyFingerprint.SIZE,
                "a fingerprint has %s bytes, not %s",
                IggyFingerprint.SIZE,
                fingerprint.length);
        ByteBuffer fp = ByteBuffer.wrap(fingerprint);
        return new ReconcileState(messagesSent, true, fp.getLong(), fp.getLong());
    }

    /** The state after a delete: no fingerprint, only the count of messages sent. */
    public static ReconcileState deleted(long messagesSent) {
        return new ReconcileState(messagesSent, false, 0, 0);
    }

    /** Restores a state from its two fingerprint halves, big-endian, as written. */
    static ReconcileState sent(long fingerprintHigh, long fingerprintLow, long messagesSent) {
        return new ReconcileState(messagesSent, true, fingerprintHigh, fingerprintLow);
    }

    public long messagesSent() {
        return messagesSent;
    }

    public boolean hasFingerprint() {
        return hasFingerprint;
    }

    /** Whether the last value sent for the key has this fingerprint. */
    public boolean hasFingerprint(byte[] fingerprint) {
        if (!hasFingerprint || fingerprint.length != IggyFingerprint.SIZE) {
            return false;
        }
        ByteBuffer fp = ByteBuffer.wrap(fingerprint);
        return fp.getLong() == fingerprintHigh && fp.getLong() == fingerprintLow;
    }

    long fingerprintHigh() {
        return fingerprintHigh;
    }

    long fingerprintLow() {
        return fingerprintLow;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReconcileState that
                && messagesSent == that.messagesSent
                && hasFingerprint == that.hasFingerprint
                && fingerprintHigh == that.fingerprintHigh
                && fingerprintLow == that.fingerprintLow;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(fingerprintHigh ^ fingerprintLow) * 31 + Long.hashCode(messagesSent);
    }

    @Override
    public String toString() {
        return "ReconcileState{messagesSent="
                + messagesSent
                + (hasFingerprint ? ", fingerprint" : ", deleted")
                + "}";
    }
}

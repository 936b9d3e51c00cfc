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
 * after a delete), as two longs (big-endian halves) so that the heap backend keeps one small object
 * per key, and how many messages it has sent for the key.
 */
@Internal
public record ReconcileState(
        long messagesSent, boolean hasFingerprint, long fingerprintHigh, long fingerprintLow) {

    public ReconcileState {
        Preconditions.checkArgument(messagesSent >= 0, "negative message count %s", messagesSent);
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

    /** Whether the last value sent for the key has this fingerprint. */
    public boolean hasFingerprint(byte[] fingerprint) {
        if (!hasFingerprint || fingerprint.length != IggyFingerprint.SIZE) {
            return false;
        }
        ByteBuffer fp = ByteBuffer.wrap(fingerprint);
        return fp.getLong() == fingerprintHigh && fp.getLong() == fingerprintLow;
    }

    @Override
    public String toString() {
        return "ReconcileState{messagesSent="
                + messagesSent
                + (hasFingerprint ? ", fingerprint" : ", deleted")
                + "}";
    }
}

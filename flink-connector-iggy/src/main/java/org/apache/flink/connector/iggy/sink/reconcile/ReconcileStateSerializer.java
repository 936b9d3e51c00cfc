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
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * The snapshot form of a {@link ReconcileState}, sized for millions of keys: an unsigned LEB128
 * varint of {@code messagesSent << 1 | hasFingerprint}, then the 16 fingerprint bytes if there is
 * one; 17 bytes for most keys.
 */
@Internal
public final class ReconcileStateSerializer extends VariableLengthSerializer<ReconcileState> {

    private static final long serialVersionUID = 1L;

    public static final ReconcileStateSerializer INSTANCE = new ReconcileStateSerializer();

    private static final int HAS_FINGERPRINT = 1;

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public ReconcileState createInstance() {
        return ReconcileState.deleted(0);
    }

    @Override
    public ReconcileState copy(ReconcileState from) {
        return from;
    }

    @Override
    public void serialize(ReconcileState state, DataOutputView target) throws IOException {
        writeVarLong(
                state.messagesSent() << 1 | (state.hasFingerprint() ? HAS_FINGERPRINT : 0), target);
        if (state.hasFingerprint()) {
            target.writeLong(state.fingerprintHigh());
            target.writeLong(state.fingerprintLow());
        }
    }

    @Override
    public ReconcileState deserialize(DataInputView source) throws IOException {
        long head = readVarLong(source);
        long messagesSent = head >>> 1;
        if ((head & HAS_FINGERPRINT) == 0) {
            return ReconcileState.deleted(messagesSent);
        }
        return new ReconcileState(messagesSent, true, source.readLong(), source.readLong());
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        long head = readVarLong(source);
        writeVarLong(head, target);
        if ((head & HAS_FINGERPRINT) != 0) {
            target.write(source, IggyFingerprint.SIZE);
        }
    }

    @Override
    public TypeSerializerSnapshot<ReconcileState> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Seven bits per byte, least significant first, high bit set on all but the last byte. */
    private static void writeVarLong(long value, DataOutputView target) throws IOException {
        while ((value & ~0x7FL) != 0) {
            target.writeByte((int) (value & 0x7F) | 0x80);
            value >>>= 7;
        }
        target.writeByte((int) value);
    }

    private static long readVarLong(DataInputView source) throws IOException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = source.readByte();
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new IOException("Corrupt reconcile state: a varint longer than 10 bytes");
    }

    /** Names the serializer in snapshots; the format above is fixed for this class. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<ReconcileState> {

        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}

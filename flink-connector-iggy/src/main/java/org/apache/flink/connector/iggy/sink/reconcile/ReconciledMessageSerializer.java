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
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Serializes a {@link ReconciledMessage}: a flags byte (message id present, headers present), the
 * key and payload, the 16-byte id and the headers if present, and the origin timestamp.
 */
@Internal
public final class ReconciledMessageSerializer extends VariableLengthSerializer<ReconciledMessage> {

    private static final long serialVersionUID = 1L;

    public static final ReconciledMessageSerializer INSTANCE = new ReconciledMessageSerializer();

    /** Length-prefixed byte arrays, as Flink writes them. */
    private static final BytePrimitiveArraySerializer BYTES = BytePrimitiveArraySerializer.INSTANCE;

    private static final int MESSAGE_ID = 1;
    private static final int HEADERS = 2;

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public ReconciledMessage createInstance() {
        return new ReconciledMessage();
    }

    @Override
    public ReconciledMessage copy(ReconciledMessage from) {
        return new ReconciledMessage(
                from.key.clone(),
                from.payload.clone(),
                from.messageId == null ? null : from.messageId.clone(),
                from.headers == null ? null : from.headers.clone(),
                from.originTimestampMicros);
    }

    @Override
    public void serialize(ReconciledMessage message, DataOutputView target) throws IOException {
        target.writeByte(
                (message.messageId != null ? MESSAGE_ID : 0)
                        | (message.headers != null ? HEADERS : 0));
        BYTES.serialize(message.key, target);
        BYTES.serialize(message.payload, target);
        if (message.messageId != null) {
            BYTES.serialize(message.messageId, target);
        }
        if (message.headers != null) {
            BYTES.serialize(message.headers, target);
        }
        target.writeLong(message.originTimestampMicros);
    }

    @Override
    public ReconciledMessage deserialize(DataInputView source) throws IOException {
        int flags = source.readByte();
        byte[] key = BYTES.deserialize(source);
        byte[] payload = BYTES.deserialize(source);
        byte[] messageId = (flags & MESSAGE_ID) != 0 ? BYTES.deserialize(source) : null;
        byte[] headers = (flags & HEADERS) != 0 ? BYTES.deserialize(source) : null;
        return new ReconciledMessage(key, payload, messageId, headers, source.readLong());
    }

    @Override
    public TypeSerializerSnapshot<ReconciledMessage> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Nothing to configure. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<ReconciledMessage> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}

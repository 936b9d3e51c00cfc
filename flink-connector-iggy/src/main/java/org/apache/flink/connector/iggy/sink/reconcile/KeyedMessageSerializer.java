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
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyHeadersInternals;
import org.apache.flink.connector.iggy.common.IggyIdBinaryForm;
import org.apache.flink.connector.iggy.common.NonCompositeTypeInfo;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Serializes a {@link KeyedMessage} between the keyed-map sink's operators: a flags byte, the key,
 * the payload and the 16 id bytes if present, the headers, the origin timestamp and the target if
 * present. Only the network sees this form; no state holds it.
 */
@Internal
public final class KeyedMessageSerializer extends VariableLengthSerializer<KeyedMessage> {

    private static final long serialVersionUID = 1L;

    public static final KeyedMessageSerializer INSTANCE = new KeyedMessageSerializer();

    /** Length-prefixed byte arrays, as Flink writes them. */
    private static final BytePrimitiveArraySerializer BYTES = BytePrimitiveArraySerializer.INSTANCE;

    private static final int DELETE = 1;
    private static final int PAYLOAD = 2;
    private static final int MESSAGE_ID = 4;
    private static final int TARGET = 8;

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public KeyedMessage createInstance() {
        return KeyedMessage.upsert(new byte[0], new byte[0], IggyHeaders.empty(), 0);
    }

    /** A new record sharing the arrays and headers, which no operator changes. */
    @Override
    public KeyedMessage copy(KeyedMessage from) {
        return new KeyedMessage(
                from.key(),
                from.isDelete(),
                from.payload(),
                from.headers(),
                from.originTimestampMicros(),
                from.target(),
                from.messageId());
    }

    @Override
    public void serialize(KeyedMessage message, DataOutputView target) throws IOException {
        byte[] payload = message.payload();
        byte[] id = message.messageId();
        IggySinkTarget topic = message.target();
        target.writeByte(
                (message.isDelete() ? DELETE : 0)
                        | (payload != null ? PAYLOAD : 0)
                        | (id != null ? MESSAGE_ID : 0)
                        | (topic != null ? TARGET : 0));
        BYTES.serialize(message.key(), target);
        if (payload != null) {
            BYTES.serialize(payload, target);
        }
        if (id != null) {
            target.write(id);
        }
        IggyHeadersInternals.write(message.headers(), target);
        target.writeLong(message.originTimestampMicros());
        if (topic != null) {
            IggyIdBinaryForm.write(topic.stream(), target);
            IggyIdBinaryForm.write(topic.topic(), target);
        }
    }

    @Override
    public KeyedMessage deserialize(DataInputView source) throws IOException {
        int flags = source.readByte();
        byte[] key = BYTES.deserialize(source);
        byte[] payload = (flags & PAYLOAD) != 0 ? BYTES.deserialize(source) : null;
        byte[] id = null;
        if ((flags & MESSAGE_ID) != 0) {
            id = new byte[IggyFingerprint.SIZE];
            source.readFully(id);
        }
        IggyHeaders headers = IggyHeadersInternals.read(source);
        long timestamp = source.readLong();
        IggySinkTarget topic =
                (flags & TARGET) != 0
                        ? new IggySinkTarget(
                                IggyIdBinaryForm.read(source), IggyIdBinaryForm.read(source))
                        : null;
        return new KeyedMessage(key, (flags & DELETE) != 0, payload, headers, timestamp, topic, id);
    }

    @Override
    public TypeSerializerSnapshot<KeyedMessage> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Nothing to configure. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<KeyedMessage> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /**
     * The type information of {@link KeyedMessage}: this serializer spares the reflection of
     * Flink's POJO serializer on the shuffle and chain every change crosses.
     */
    static final class TypeInfo extends NonCompositeTypeInfo<KeyedMessage> {
        private static final long serialVersionUID = 1L;

        @Override
        public Class<KeyedMessage> getTypeClass() {
            return KeyedMessage.class;
        }

        @Override
        public TypeSerializer<KeyedMessage> createSerializer(SerializerConfig config) {
            return INSTANCE;
        }

        @Override
        public String toString() {
            return KeyedMessage.class.getSimpleName();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof TypeInfo;
        }

        @Override
        public int hashCode() {
            return TypeInfo.class.hashCode();
        }

        @Override
        public boolean canEqual(Object o) {
            return o instanceof TypeInfo;
        }
    }
}

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
import java.nio.charset.StandardCharsets;

/**
 * Serializes an {@link EncodedChange}: a flags byte (delete, payload present, headers present), the
 * key bytes, the payload and headers if present (each length-prefixed), and the origin timestamp.
 */
@Internal
public final class EncodedChangeSerializer extends VariableLengthSerializer<EncodedChange> {

    private static final long serialVersionUID = 1L;

    public static final EncodedChangeSerializer INSTANCE = new EncodedChangeSerializer();

    /** Length-prefixed byte arrays, as Flink writes them. */
    private static final BytePrimitiveArraySerializer BYTES = BytePrimitiveArraySerializer.INSTANCE;

    private static final int DELETE = 1;
    private static final int PAYLOAD = 2;
    private static final int HEADERS = 4;

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public EncodedChange createInstance() {
        return new EncodedChange();
    }

    @Override
    public EncodedChange copy(EncodedChange from) {
        EncodedChange copy = new EncodedChange();
        copy.key = from.key; // a String: immutable
        copy.delete = from.delete;
        copy.payload = from.payload == null ? null : from.payload.clone();
        copy.headers = from.headers == null ? null : from.headers.clone();
        copy.originTimestampMicros = from.originTimestampMicros;
        return copy;
    }

    @Override
    public void serialize(EncodedChange change, DataOutputView target) throws IOException {
        target.writeByte(
                (change.delete ? DELETE : 0)
                        | (change.payload != null ? PAYLOAD : 0)
                        | (change.headers != null ? HEADERS : 0));
        BYTES.serialize(change.key.getBytes(StandardCharsets.ISO_8859_1), target);
        if (change.payload != null) {
            BYTES.serialize(change.payload, target);
        }
        if (change.headers != null) {
            BYTES.serialize(change.headers, target);
        }
        target.writeLong(change.originTimestampMicros);
    }

    @Override
    public EncodedChange deserialize(DataInputView source) throws IOException {
        EncodedChange change = new EncodedChange();
        int flags = source.readByte();
        change.delete = (flags & DELETE) != 0;
        change.key = new String(BYTES.deserialize(source), StandardCharsets.ISO_8859_1);
        change.payload = (flags & PAYLOAD) != 0 ? BYTES.deserialize(source) : null;
        change.headers = (flags & HEADERS) != 0 ? BYTES.deserialize(source) : null;
        change.originTimestampMicros = source.readLong();
        return change;
    }

    @Override
    public TypeSerializerSnapshot<EncodedChange> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Nothing to configure. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<EncodedChange> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}

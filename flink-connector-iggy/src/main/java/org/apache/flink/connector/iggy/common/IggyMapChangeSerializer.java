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
package org.apache.flink.connector.iggy.common;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.CompositeTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Serializes an {@link IggyMapChange} as a delete flag, the key, and for an upsert the value, each
 * with its own serializer.
 */
@Internal
public final class IggyMapChangeSerializer<K, V> extends TypeSerializer<IggyMapChange<K, V>> {

    private static final long serialVersionUID = 1L;

    private final TypeSerializer<K> keySerializer;
    private final TypeSerializer<V> valueSerializer;

    public IggyMapChangeSerializer(
            TypeSerializer<K> keySerializer, TypeSerializer<V> valueSerializer) {
        this.keySerializer = keySerializer;
        this.valueSerializer = valueSerializer;
    }

    @Override
    public boolean isImmutableType() {
        // A change itself never changes; only its key or value might.
        return keySerializer.isImmutableType() && valueSerializer.isImmutableType();
    }

    @Override
    public TypeSerializer<IggyMapChange<K, V>> duplicate() {
        TypeSerializer<K> key = keySerializer.duplicate();
        TypeSerializer<V> value = valueSerializer.duplicate();
        return key == keySerializer && value == valueSerializer
                ? this
                : new IggyMapChangeSerializer<>(key, value);
    }

    /** A change has no neutral instance: it always has a key. */
    @Override
    public IggyMapChange<K, V> createInstance() {
        return null;
    }

    @Override
    public IggyMapChange<K, V> copy(IggyMapChange<K, V> from) {
        if (isImmutableType()) {
            return from;
        }
        K key = keySerializer.copy(from.key());
        return from.isDelete()
                ? IggyMapChange.delete(key)
                : IggyMapChange.upsert(key, valueSerializer.copy(from.value()));
    }

    @Override
    public IggyMapChange<K, V> copy(IggyMapChange<K, V> from, IggyMapChange<K, V> reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(IggyMapChange<K, V> change, DataOutputView target) throws IOException {
        target.writeBoolean(change.isDelete());
        keySerializer.serialize(change.key(), target);
        if (!change.isDelete()) {
            valueSerializer.serialize(change.value(), target);
        }
    }

    @Override
    public IggyMapChange<K, V> deserialize(DataInputView source) throws IOException {
        boolean delete = source.readBoolean();
        K key = keySerializer.deserialize(source);
        return delete
                ? IggyMapChange.delete(key)
                : IggyMapChange.upsert(key, valueSerializer.deserialize(source));
    }

    @Override
    public IggyMapChange<K, V> deserialize(IggyMapChange<K, V> reuse, DataInputView source)
            throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        boolean delete = source.readBoolean();
        target.writeBoolean(delete);
        keySerializer.copy(source, target);
        if (!delete) {
            valueSerializer.copy(source, target);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IggyMapChangeSerializer<?, ?> that
                && keySerializer.equals(that.keySerializer)
                && valueSerializer.equals(that.valueSerializer);
    }

    @Override
    public int hashCode() {
        return 31 * keySerializer.hashCode() + valueSerializer.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<IggyMapChange<K, V>> snapshotConfiguration() {
        return new Snapshot<>(this);
    }

    /** The key and value serializers' own snapshots; nothing else to configure. */
    public static final class Snapshot<K, V>
            extends CompositeTypeSerializerSnapshot<
                    IggyMapChange<K, V>, IggyMapChangeSerializer<K, V>> {

        private static final int VERSION = 1;

        /** For Flink's reflective instantiation on restore. */
        public Snapshot() {}

        Snapshot(IggyMapChangeSerializer<K, V> serializer) {
            super(serializer);
        }

        @Override
        protected int getCurrentOuterSnapshotVersion() {
            return VERSION;
        }

        @Override
        protected TypeSerializer<?>[] getNestedSerializers(IggyMapChangeSerializer<K, V> outer) {
            return new TypeSerializer<?>[] {outer.keySerializer, outer.valueSerializer};
        }

        @Override
        @SuppressWarnings("unchecked")
        protected IggyMapChangeSerializer<K, V> createOuterSerializerWithNestedSerializers(
                TypeSerializer<?>[] nested) {
            return new IggyMapChangeSerializer<>(
                    (TypeSerializer<K>) nested[0], (TypeSerializer<V>) nested[1]);
        }
    }
}

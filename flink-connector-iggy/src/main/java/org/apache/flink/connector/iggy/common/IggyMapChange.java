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

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInfo;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.Objects;

/**
 * One change of a keyed map: the key now has a value ({@link Kind#UPSERT}) or no longer exists
 * ({@link Kind#DELETE}).
 *
 * <p>The keyed-map source emits these, and the keyed-map sink takes them: Iggy has no keys or
 * tombstones of its own, so the key comes from a function of the message and a deletion from a
 * predicate (source) or a deletion-payload function (sink).
 *
 * @param <K> the key type
 * @param <V> the value type
 */
@PublicEvolving
@TypeInfo(IggyMapChangeTypeInfo.Factory.class)
public final class IggyMapChange<K, V> implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Whether the key was set or removed. */
    @PublicEvolving
    public enum Kind {
        UPSERT,
        DELETE
    }

    private final Kind kind;
    private final K key;
    @Nullable private final V value;

    private IggyMapChange(Kind kind, K key, @Nullable V value) {
        this.kind = kind;
        this.key = Objects.requireNonNull(key, "key");
        this.value = value;
    }

    /** The key now maps to {@code value}. */
    public static <K, V> IggyMapChange<K, V> upsert(K key, V value) {
        return new IggyMapChange<>(Kind.UPSERT, key, Objects.requireNonNull(value, "value"));
    }

    /** The key no longer exists. */
    public static <K, V> IggyMapChange<K, V> delete(K key) {
        return new IggyMapChange<>(Kind.DELETE, key, null);
    }

    public Kind kind() {
        return kind;
    }

    public boolean isDelete() {
        return kind == Kind.DELETE;
    }

    public K key() {
        return key;
    }

    /** The new value of an upsert; {@code null} for a delete. */
    @Nullable
    public V value() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IggyMapChange<?, ?> that
                && kind == that.kind
                && key.equals(that.key)
                && Objects.equals(value, that.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, key, value);
    }

    @Override
    public String toString() {
        return kind == Kind.UPSERT ? "UPSERT(" + key + " -> " + value + ")" : "DELETE(" + key + ")";
    }
}

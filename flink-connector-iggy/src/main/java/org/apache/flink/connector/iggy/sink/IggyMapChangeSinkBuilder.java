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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.util.function.SerializableFunction;

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderValue;

import javax.annotation.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;

/**
 * Builds a keyed-map sink for a stream of {@link IggyMapChange}s.
 *
 * <pre>{@code
 * IggyKeyedMapSink<IggyMapChange<String, String>> sink =
 *     IggySink.<String, String>keyedMap()
 *         .setStream("catalog").setTopic("products")
 *         .setValueSerializationSchema(new SimpleStringSchema())
 *         .setDeletionValueFunction(key -> (key + "=DELETE").getBytes(UTF_8))
 *         .build();
 * changes.sinkTo(sink).uid("products-sink");
 * }</pre>
 *
 * @param <K> the key type
 * @param <V> the value type
 */
@PublicEvolving
public final class IggyMapChangeSinkBuilder<K, V>
        extends IggyKeyedMapSinkBuilderBase<IggyMapChange<K, V>, IggyMapChangeSinkBuilder<K, V>> {

    @Nullable private SerializationSchema<K> keySchema;
    @Nullable private SerializationSchema<V> valueSchema;
    @Nullable private SerializableFunction<K, byte[]> deletionValueFunction;

    @Nullable
    private SerializableFunction<IggyMapChange<K, V>, Map<HeaderKey, HeaderValue>> headersFunction;

    IggyMapChangeSinkBuilder() {}

    /**
     * The key's bytes: they identify the key in the sink's state, are hashed into idempotent
     * message ids and used for key partitioning. Default: UTF-8 for {@code String} keys, the array
     * itself for {@code byte[]} keys; other key types need this.
     */
    public IggyMapChangeSinkBuilder<K, V> setKeySerializationSchema(
            SerializationSchema<K> keySchema) {
        this.keySchema = keySchema;
        return this;
    }

    /** Required: the payload of an upsert; only these bytes are sent and fingerprinted. */
    public IggyMapChangeSinkBuilder<K, V> setValueSerializationSchema(
            SerializationSchema<V> valueSchema) {
        this.valueSchema = valueSchema;
        return this;
    }

    /**
     * The payload to send when a key that was sent is deleted. Without it such a delete fails the
     * job: Iggy has no tombstones.
     */
    public IggyMapChangeSinkBuilder<K, V> setDeletionValueFunction(
            SerializableFunction<K, byte[]> deletionValueFunction) {
        this.deletionValueFunction = deletionValueFunction;
        return this;
    }

    /**
     * User headers of the message a change sends, upsert or delete (default: none besides the key
     * header). Headers are not fingerprinted: an upsert with the last value sent for its key sends
     * nothing, whatever its headers.
     */
    public IggyMapChangeSinkBuilder<K, V> setHeadersFunction(
            SerializableFunction<IggyMapChange<K, V>, Map<HeaderKey, HeaderValue>>
                    headersFunction) {
        this.headersFunction = headersFunction;
        return this;
    }

    public IggyKeyedMapSink<IggyMapChange<K, V>> build() {
        if (valueSchema == null) {
            throw new IllegalArgumentException(
                    "The value serialization schema is missing: call setValueSerializationSchema");
        }
        return buildSink(
                new MapChangeEncoder<>(
                        keySchema != null ? keySchema : new DefaultKeyBytes<>(),
                        valueSchema,
                        deletionValueFunction,
                        headersFunction));
    }

    /** UTF-8 of String keys, byte[] keys as they are. */
    private static final class DefaultKeyBytes<K> implements SerializationSchema<K> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(K key) {
            if (key instanceof String) {
                return ((String) key).getBytes(StandardCharsets.UTF_8);
            }
            if (key instanceof byte[]) {
                return (byte[]) key;
            }
            throw new IllegalArgumentException(
                    "Keys of type "
                            + key.getClass().getName()
                            + " need a key serialization schema: call setKeySerializationSchema"
                            + " on the keyed-map sink builder (only String and byte[] keys have a"
                            + " default)");
        }
    }

    private static final class MapChangeEncoder<K, V>
            implements IggyMapChangeEncoder<IggyMapChange<K, V>> {
        private static final long serialVersionUID = 1L;

        private final SerializationSchema<K> keySchema;
        private final SerializationSchema<V> valueSchema;
        @Nullable private final SerializableFunction<K, byte[]> deletionValue;

        @Nullable
        private final SerializableFunction<IggyMapChange<K, V>, Map<HeaderKey, HeaderValue>>
                headers;

        MapChangeEncoder(
                SerializationSchema<K> keySchema,
                SerializationSchema<V> valueSchema,
                @Nullable SerializableFunction<K, byte[]> deletionValue,
                @Nullable
                        SerializableFunction<IggyMapChange<K, V>, Map<HeaderKey, HeaderValue>>
                                headers) {
            this.keySchema = keySchema;
            this.valueSchema = valueSchema;
            this.deletionValue = deletionValue;
            this.headers = headers;
        }

        @Override
        public Map<HeaderKey, HeaderValue> headers(IggyMapChange<K, V> change) {
            return headers != null ? headers.apply(change) : Collections.emptyMap();
        }

        @Override
        public Map<HeaderKey, HeaderValue> deletionHeaders(IggyMapChange<K, V> change) {
            return headers(change);
        }

        @Override
        public void open(SerializationSchema.InitializationContext context) throws Exception {
            keySchema.open(context);
            valueSchema.open(context);
        }

        @Override
        public IggyMapChange.Kind kind(IggyMapChange<K, V> change) {
            return change.kind();
        }

        @Override
        public byte[] key(IggyMapChange<K, V> change) {
            return keySchema.serialize(change.key());
        }

        @Override
        public byte[] value(IggyMapChange<K, V> change) {
            return valueSchema.serialize(change.value());
        }

        @Override
        public boolean hasDeletionValue() {
            return deletionValue != null;
        }

        @Override
        public byte[] deletionValue(IggyMapChange<K, V> change) {
            return deletionValue.apply(change.key());
        }
    }
}

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
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.reconcile.ChangeEncoder;
import org.apache.flink.connector.iggy.sink.reconcile.KeyedMessage;
import org.apache.flink.util.function.SerializableFunction;

import javax.annotation.Nullable;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the keyed-map sink for a stream of {@link IggyMapChange}s: it sends a key's value only
 * when it differs from the last value sent for that key, and a configured payload when a sent key
 * is deleted.
 *
 * <pre>{@code
 * IggyKeyedMapSink<IggyMapChange<String, String>> sink =
 *     IggySink.<String, String>keyedMap()
 *         .setConnection(IggyConnectionConfig.builder().setAddress("iggy:8090").build())
 *         .setStream("catalog").setTopic("products")
 *         .setValueSerializationSchema(new SimpleStringSchema())
 *         .setDeletionValueFunction(key -> (key + "=DELETE").getBytes(UTF_8))
 *         .build();
 * changes.sinkTo(sink).uid("products-sink");
 * }</pre>
 *
 * <p>The sink keeps a fingerprint of the last value sent per key in Flink keyed state.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
@PublicEvolving
public final class IggyKeyedMapSinkBuilder<K, V>
        extends IggySinkBuilderBase<IggyKeyedMapSinkBuilder<K, V>> {

    @Nullable private SerializationSchema<K> keySchema;
    @Nullable private SerializationSchema<V> valueSchema;
    @Nullable private SerializableFunction<K, byte[]> deletionValueFunction;

    @Nullable private SerializableFunction<IggyMapChange<K, V>, IggyHeaders> headersFunction;
    @Nullable private IggyTopicSelector<IggyMapChange<K, V>> topicSelector;

    private boolean idempotentWrites;
    @Nullable private String messageIdNamespace;
    @Nullable private Duration stateTtl;
    @Nullable private String reconcileUid;

    IggyKeyedMapSinkBuilder() {}

    /**
     * The key's bytes, which identify it in state, message ids and key partitioning; never null.
     * Default: UTF-8 for {@code String} keys, the array for {@code byte[]}; other types need this.
     */
    public IggyKeyedMapSinkBuilder<K, V> setKeySerializationSchema(
            SerializationSchema<K> keySchema) {
        this.keySchema = keySchema;
        return this;
    }

    /** Required: the payload of an upsert; only these bytes are sent and fingerprinted. */
    public IggyKeyedMapSinkBuilder<K, V> setValueSerializationSchema(
            SerializationSchema<V> valueSchema) {
        this.valueSchema = valueSchema;
        return this;
    }

    /** The payload sent when a sent key is deleted; without it such a delete fails the job. */
    public IggyKeyedMapSinkBuilder<K, V> setDeletionValueFunction(
            SerializableFunction<K, byte[]> deletionValueFunction) {
        this.deletionValueFunction = deletionValueFunction;
        return this;
    }

    /**
     * User headers of the message a change sends; not fingerprinted: an upsert of the last value
     * sent for its key sends nothing, whatever its headers.
     */
    public IggyKeyedMapSinkBuilder<K, V> setHeadersFunction(
            SerializableFunction<IggyMapChange<K, V>, IggyHeaders> headersFunction) {
        this.headersFunction = headersFunction;
        return this;
    }

    /**
     * Chooses each change's topic; a change it routes nowhere goes to the sink's topic ({@link
     * #setTopic}), which is then optional. Fingerprints are kept per (topic, key); choose by the
     * key, as a delete has no value.
     */
    public IggyKeyedMapSinkBuilder<K, V> setTopicSelector(
            IggyTopicSelector<IggyMapChange<K, V>> topicSelector) {
        this.topicSelector = topicSelector;
        return this;
    }

    /**
     * Give every message a deterministic id, BLAKE2b-128 of (message id namespace, key, messages
     * sent for the key before), so that the server's deduplication drops replays. Off by default.
     */
    public IggyKeyedMapSinkBuilder<K, V> setIdempotentWrites(boolean idempotentWrites) {
        this.idempotentWrites = idempotentWrites;
        return this;
    }

    /**
     * With idempotent writes, what sets this sink's message ids apart from another's writing the
     * same keys to the same topic; default {@code "<stream>/<topic>"} ({@code "<stream>/"} without
     * a topic). Keep it stable across restarts.
     */
    public IggyKeyedMapSinkBuilder<K, V> setMessageIdNamespace(String messageIdNamespace) {
        this.messageIdNamespace = messageIdNamespace;
        return this;
    }

    /**
     * Forget a key's fingerprint when it was not written for {@code ttl}: its next value is sent
     * even if unchanged (with ids numbered from 0 again). Default: keep forever.
     */
    public IggyKeyedMapSinkBuilder<K, V> setStateTtl(Duration ttl) {
        this.stateTtl = ttl;
        return this;
    }

    /**
     * A uid for the operator that keeps the fingerprints, so that they restore from a savepoint
     * after the job graph upstream changed; Flink then requires a uid on the sink too.
     */
    public IggyKeyedMapSinkBuilder<K, V> setReconcileUid(String reconcileUid) {
        this.reconcileUid = reconcileUid;
        return this;
    }

    /**
     * @throws IllegalArgumentException naming every missing or invalid option
     */
    public IggyKeyedMapSink<IggyMapChange<K, V>> build() {
        List<String> problems = new ArrayList<>();
        if (valueSchema == null) {
            problems.add("the value serialization schema is not set (setValueSerializationSchema)");
        }
        MapChangeEncoder<K, V> encoder =
                new MapChangeEncoder<>(
                        keySchema != null ? keySchema : IggyKeyedMapSinkBuilder::defaultKeyBytes,
                        valueSchema,
                        deletionValueFunction,
                        headersFunction,
                        topicSelector);
        return buildSink(
                encoder,
                KeyedMapSinks.tombstoneError("setDeletionValueFunction"),
                problems,
                topicSelector != null);
    }

    /**
     * The sink for {@code encoder}'s changes with this builder's options (see {@link
     * KeyedMapSinks#of}).
     */
    <IN> IggyKeyedMapSink<IN> buildSink(
            ChangeEncoder<IN> encoder,
            String tombstoneError,
            List<String> problems,
            boolean routes) {
        IggyWriterConfig config = writerConfig(problems, routes);
        if (stateTtl != null && (stateTtl.isNegative() || stateTtl.toMillis() < 1)) {
            problems.add("the state TTL must be at least 1 ms, but is " + stateTtl);
        }
        if (reconcileUid != null && reconcileUid.isBlank()) {
            problems.add("the reconcile uid must not be blank");
        }
        if (messageIdNamespace != null && !idempotentWrites) {
            problems.add(
                    "a message id namespace only shapes idempotent message ids: call"
                            + " setIdempotentWrites(true) or drop setMessageIdNamespace");
        }
        boolean exactlyOnce = exactlyOnce(problems, idempotentWrites, "setIdempotentWrites");
        failOnProblems("keyed-map IggySink", problems);
        byte[] id = null;
        if (idempotentWrites) {
            String name =
                    messageIdNamespace != null
                            ? messageIdNamespace
                            : config.defaultTopic().idNamespace();
            id = name.getBytes(StandardCharsets.UTF_8);
        }
        IggyKeyedMapSink<IN> sink =
                new IggyKeyedMapSink<>(
                        config,
                        encoder,
                        tombstoneError,
                        partitionByKey,
                        partition,
                        keyHeader,
                        id,
                        stateTtl,
                        reconcileUid);
        return exactlyOnce ? new ExactlyOnceKeyedMapSink<>(sink) : sink;
    }

    /** UTF-8 of String keys, byte[] keys as they are: the key schema without one set. */
    private static byte[] defaultKeyBytes(Object key) {
        if (key instanceof String string) {
            return string.getBytes(StandardCharsets.UTF_8);
        }
        if (key instanceof byte[] bytes) {
            return bytes;
        }
        throw new IggyConnectorException(
                "Keys of type "
                        + key.getClass().getName()
                        + " need a key serialization schema: call setKeySerializationSchema"
                        + " on the keyed-map sink builder (only String and byte[] keys have a"
                        + " default)");
    }

    /** An {@link IggyMapChange} as one keyed message. */
    private static final class MapChangeEncoder<K, V>
            implements ChangeEncoder<IggyMapChange<K, V>> {
        private static final long serialVersionUID = 1L;

        private final SerializationSchema<K> keySchema;
        private final SerializationSchema<V> valueSchema;
        @Nullable private final SerializableFunction<K, byte[]> deletionValue;

        @Nullable private final SerializableFunction<IggyMapChange<K, V>, IggyHeaders> headers;
        @Nullable private final IggyTopicSelector<IggyMapChange<K, V>> topicSelector;
        private transient IggyTopicSelector.Context routing;

        MapChangeEncoder(
                SerializationSchema<K> keySchema,
                SerializationSchema<V> valueSchema,
                @Nullable SerializableFunction<K, byte[]> deletionValue,
                @Nullable SerializableFunction<IggyMapChange<K, V>, IggyHeaders> headers,
                @Nullable IggyTopicSelector<IggyMapChange<K, V>> topicSelector) {
            this.keySchema = keySchema;
            this.valueSchema = valueSchema;
            this.deletionValue = deletionValue;
            this.headers = headers;
            this.topicSelector = topicSelector;
        }

        @Override
        public void open(
                SerializationSchema.InitializationContext context,
                IggyTopicSelector.Context routing)
                throws Exception {
            keySchema.open(context);
            valueSchema.open(context);
            this.routing = routing;
        }

        @Override
        public KeyedMessage encode(IggyMapChange<K, V> change) {
            KeyedMessage message = message(change);
            IggySinkTarget target =
                    topicSelector != null ? topicSelector.select(change, routing) : null;
            return target != null ? message.withTarget(target) : message;
        }

        private KeyedMessage message(IggyMapChange<K, V> change) {
            byte[] key = keySchema.serialize(change.key());
            if (key == null) {
                throw nullBytes("key serialization schema", keySchema, change);
            }
            IggyHeaders userHeaders = headers != null ? headersOf(change) : IggyHeaders.empty();
            if (!change.isDelete()) {
                byte[] value = valueSchema.serialize(change.value());
                if (value == null) {
                    throw nullBytes("value serialization schema", valueSchema, change);
                }
                return KeyedMessage.upsert(key, value, userHeaders, 0);
            }
            byte[] payload = null;
            if (deletionValue != null) {
                payload = deletionValue.apply(change.key());
                if (payload == null) {
                    throw nullBytes("deletion value function", deletionValue, change);
                }
            }
            return KeyedMessage.delete(key, payload, userHeaders, 0);
        }

        private IggyHeaders headersOf(IggyMapChange<K, V> change) {
            IggyHeaders userHeaders = headers.apply(change);
            if (userHeaders == null) {
                throw new IggyConnectorException(
                        "The keyed-map sink's headers function "
                                + headers.getClass().getName()
                                + " returned null for the change "
                                + KeyedMapSinks.describe(change)
                                + ": return IggyHeaders.empty() for no headers.");
            }
            return userHeaders;
        }

        private static IggyConnectorException nullBytes(
                String what, Object function, IggyMapChange<?, ?> change) {
            return new IggyConnectorException(
                    "The keyed-map sink's "
                            + what
                            + " "
                            + function.getClass().getName()
                            + " returned null for the change "
                            + KeyedMapSinks.describe(change)
                            + ". Every change needs bytes there: make it return bytes, or filter"
                            + " such changes out before the sink.");
        }
    }
}

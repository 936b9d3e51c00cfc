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
import org.apache.flink.util.function.SerializableFunction;

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderKind;
import org.apache.iggy.message.HeaderValue;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Builds an {@link IggyRecordSerializationSchema} from Flink serialization schemas and functions.
 *
 * <pre>{@code
 * IggyRecordSerializationSchema.<Order>builder()
 *     .setValueSerializationSchema(new JsonSerializationSchema<>())
 *     .setKeySerializationSchema(order -> order.customerId().getBytes(UTF_8))
 *     .setPartitioner(IggyPartitioners.byKey())
 *     .build();
 * }</pre>
 *
 * @param <T> the sink's record type
 */
@PublicEvolving
public final class IggyRecordSerializationSchemaBuilder<T> {

    @Nullable private SerializationSchema<T> valueSchema;
    @Nullable private SerializationSchema<T> keySchema;
    @Nullable private String keyHeader;
    @Nullable private IggyPartitioner<T> partitioner;
    @Nullable private SerializableFunction<T, Map<HeaderKey, HeaderValue>> headersFunction;
    @Nullable private SerializableFunction<T, BigInteger> messageIdFunction;

    IggyRecordSerializationSchemaBuilder() {}

    /** Required: the payload of each message. */
    public IggyRecordSerializationSchemaBuilder<T> setValueSerializationSchema(
            SerializationSchema<T> valueSchema) {
        this.valueSchema = valueSchema;
        return this;
    }

    /** The record's key bytes, used by {@link IggyPartitioners#byKey()} and the key header. */
    public IggyRecordSerializationSchemaBuilder<T> setKeySerializationSchema(
            SerializationSchema<T> keySchema) {
        this.keySchema = keySchema;
        return this;
    }

    /**
     * Also write the key bytes into this user header (raw), since Iggy messages have no key field.
     * Requires a key serialization schema.
     */
    public IggyRecordSerializationSchemaBuilder<T> setKeyHeader(String headerName) {
        this.keyHeader = headerName;
        return this;
    }

    /** Default: {@link IggyPartitioners#fixed fixed} partition 0. */
    public IggyRecordSerializationSchemaBuilder<T> setPartitioner(IggyPartitioner<T> partitioner) {
        this.partitioner = partitioner;
        return this;
    }

    /** Shortcut for {@code setPartitioner(IggyPartitioners.fixed(partition))}. */
    public IggyRecordSerializationSchemaBuilder<T> setPartition(long partition) {
        return setPartitioner(IggyPartitioners.fixed(partition));
    }

    /** User headers per record. */
    public IggyRecordSerializationSchemaBuilder<T> setHeadersFunction(
            SerializableFunction<T, Map<HeaderKey, HeaderValue>> headersFunction) {
        this.headersFunction = headersFunction;
        return this;
    }

    /**
     * Deterministic message ids per record (unsigned 128 bit, non-zero): with the server's
     * deduplication on, a record replayed after a failover is dropped by the server (idempotent
     * writes). Without it the server generates random ids.
     */
    public IggyRecordSerializationSchemaBuilder<T> setMessageIdFunction(
            SerializableFunction<T, BigInteger> messageIdFunction) {
        this.messageIdFunction = messageIdFunction;
        return this;
    }

    public IggyRecordSerializationSchema<T> build() {
        if (valueSchema == null) {
            throw new IllegalArgumentException(
                    "The value serialization schema is missing: call setValueSerializationSchema");
        }
        if (keyHeader != null) {
            if (keySchema == null) {
                throw new IllegalArgumentException(
                        "The key header '"
                                + keyHeader
                                + "' needs a key serialization schema: call setKeySerializationSchema");
            }
            HeaderKey.fromString(keyHeader); // validates the name
        }
        IggyPartitioner<T> chosen = partitioner != null ? partitioner : IggyPartitioners.fixed(0);
        if (keySchema == null && chosen instanceof IggyPartitioners.ByKey) {
            throw new IllegalArgumentException(
                    "Partitioning by key needs key bytes: call setKeySerializationSchema");
        }
        return new DefaultSchema<>(
                valueSchema, keySchema, keyHeader, chosen, headersFunction, messageIdFunction);
    }

    private static final class DefaultSchema<T> implements IggyRecordSerializationSchema<T> {
        private static final long serialVersionUID = 1L;

        private final SerializationSchema<T> valueSchema;
        @Nullable private final SerializationSchema<T> keySchema;
        @Nullable private final String keyHeader;
        private final IggyPartitioner<T> partitioner;
        @Nullable private final SerializableFunction<T, Map<HeaderKey, HeaderValue>> headers;
        @Nullable private final SerializableFunction<T, BigInteger> messageIds;
        @Nullable private transient HeaderKey keyHeaderKey;

        private DefaultSchema(
                SerializationSchema<T> valueSchema,
                @Nullable SerializationSchema<T> keySchema,
                @Nullable String keyHeader,
                IggyPartitioner<T> partitioner,
                @Nullable SerializableFunction<T, Map<HeaderKey, HeaderValue>> headers,
                @Nullable SerializableFunction<T, BigInteger> messageIds) {
            this.valueSchema = valueSchema;
            this.keySchema = keySchema;
            this.keyHeader = keyHeader;
            this.partitioner = partitioner;
            this.headers = headers;
            this.messageIds = messageIds;
        }

        @Override
        public void open(
                SerializationSchema.InitializationContext context, IggySinkContext sinkContext)
                throws Exception {
            valueSchema.open(context);
            if (keySchema != null) {
                keySchema.open(context);
            }
            if (keyHeader != null) {
                keyHeaderKey =
                        new HeaderKey(
                                HeaderKind.String, keyHeader.getBytes(StandardCharsets.UTF_8));
            }
            partitioner.open(sinkContext);
        }

        @Override
        public IggySinkRecord serialize(
                T element, IggySinkContext context, @Nullable Long timestamp) {
            byte[] payload = valueSchema.serialize(element);
            byte[] key = keySchema != null ? keySchema.serialize(element) : null;
            Map<HeaderKey, HeaderValue> userHeaders =
                    headers != null ? headers.apply(element) : Collections.emptyMap();
            if (keyHeaderKey != null && key != null) {
                userHeaders = new HashMap<>(userHeaders);
                userHeaders.put(keyHeaderKey, new HeaderValue(HeaderKind.Raw, key));
            }
            long partition = partitioner.partition(element, key, payload, context.partitionCount());
            return new IggySinkRecord(
                    partition,
                    payload,
                    userHeaders,
                    messageIds != null ? messageIds.apply(element) : null,
                    originTimestampMicros(timestamp));
        }
    }

    /** The record's Flink timestamp, or now when it has none, in microseconds. */
    static long originTimestampMicros(@Nullable Long timestampMillis) {
        return (timestampMillis != null ? timestampMillis : System.currentTimeMillis()) * 1000L;
    }
}

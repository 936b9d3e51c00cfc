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
package org.apache.flink.connector.iggy.sink.internal.writer;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.IggyRecordSerializationSchema;
import org.apache.flink.connector.iggy.sink.IggySinkBuilder;
import org.apache.flink.connector.iggy.sink.IggySinkContext;
import org.apache.flink.connector.iggy.sink.IggySinkRecord;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.sink.IggyTopicSelector;
import org.apache.flink.util.function.SerializableFunction;

import javax.annotation.Nullable;

import java.math.BigInteger;

/** The record serialization schema {@link IggySinkBuilder} makes from its schemas and functions. */
@Internal
public record BuiltRecordSerializationSchema<T>(
        SerializationSchema<T> valueSchema,
        @Nullable SerializationSchema<T> keySchema,
        @Nullable String keyHeader,
        IggyPartitioner<T> partitioner,
        @Nullable IggyTopicSelector<T> topicSelector,
        @Nullable SerializableFunction<T, IggyHeaders> headers,
        @Nullable SerializableFunction<T, BigInteger> messageIds)
        implements IggyRecordSerializationSchema<T> {

    private static final long serialVersionUID = 1L;

    @Override
    public void open(
            SerializationSchema.InitializationContext initContext, IggySinkContext sinkContext)
            throws Exception {
        valueSchema.open(initContext);
        if (keySchema != null) {
            keySchema.open(initContext);
        }
        partitioner.open(sinkContext);
    }

    @Override
    public IggySinkRecord serialize(T element, IggySinkContext context) {
        byte[] payload = valueSchema.serialize(element);
        if (payload == null) {
            throw new IggyConnectorException(
                    "The value serialization schema "
                            + valueSchema.getClass().getName()
                            + " returned null for a record: every message needs a payload. Make it"
                            + " return bytes (possibly empty), or filter such records out before"
                            + " the sink.");
        }
        byte[] key = keySchema != null ? keySchema.serialize(element) : null;
        IggyHeaders userHeaders = headers != null ? headers.apply(element) : IggyHeaders.empty();
        if (userHeaders == null) {
            throw new IggyConnectorException(
                    "The headers function "
                            + headers.getClass().getName()
                            + " returned null for a record: return IggyHeaders.empty() for no"
                            + " headers.");
        }
        if (keyHeader != null && key != null) {
            userHeaders = userHeaders.with(keyHeader, IggyHeaderValue.ofRaw(key));
        }
        IggySinkTarget target =
                topicSelector != null ? topicSelector.select(element, context) : null;
        long partition =
                partitioner.partition(element, key, payload, RoutedSinkContext.of(context, target));
        IggySinkRecord record =
                new IggySinkRecord(
                        partition,
                        payload,
                        userHeaders,
                        messageIds != null ? messageIds.apply(element) : null,
                        originTimestampMicros(context.timestamp()));
        return target != null ? record.withTarget(target) : record;
    }

    /** The record's Flink timestamp, or now when it has none, in microseconds. */
    static long originTimestampMicros(@Nullable Long timestampMillis) {
        return (timestampMillis != null ? timestampMillis : System.currentTimeMillis()) * 1000L;
    }
}

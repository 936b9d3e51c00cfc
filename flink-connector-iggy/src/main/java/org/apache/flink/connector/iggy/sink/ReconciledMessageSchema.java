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

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.iggy.sink.reconcile.EncodedHeaders;
import org.apache.flink.connector.iggy.sink.reconcile.ReconciledMessage;

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderKind;
import org.apache.iggy.message.HeaderValue;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;

/** Writes the keyed-map sink's reconciled messages: payload, the encoder's headers, key header. */
@Internal
final class ReconciledMessageSchema implements IggyRecordSerializationSchema<ReconciledMessage> {

    private static final long serialVersionUID = 1L;

    private final IggyPartitioner<ReconciledMessage> partitioner;
    @Nullable private final String keyHeader;
    @Nullable private transient HeaderKey keyHeaderKey;

    ReconciledMessageSchema(
            IggyPartitioner<ReconciledMessage> partitioner, @Nullable String keyHeader) {
        this.partitioner = partitioner;
        this.keyHeader = keyHeader;
    }

    @Override
    public void open(SerializationSchema.InitializationContext context, IggySinkContext sink) {
        partitioner.open(sink);
        if (keyHeader != null) {
            keyHeaderKey =
                    new HeaderKey(HeaderKind.String, keyHeader.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Override
    public IggySinkRecord serialize(
            ReconciledMessage message, IggySinkContext context, @Nullable Long timestamp) {
        Map<HeaderKey, HeaderValue> headers = EncodedHeaders.decode(message.headers);
        if (keyHeaderKey != null) {
            HeaderValue key = new HeaderValue(HeaderKind.Raw, message.key);
            if (headers.isEmpty()) {
                headers = Collections.singletonMap(keyHeaderKey, key);
            } else {
                headers.put(keyHeaderKey, key);
            }
        }
        return new IggySinkRecord(
                partitioner.partition(
                        message, message.key, message.payload, context.partitionCount()),
                message.payload,
                headers,
                message.messageId != null ? new BigInteger(1, message.messageId) : null,
                message.originTimestampMicros != 0
                        ? message.originTimestampMicros
                        : IggyRecordSerializationSchemaBuilder.originTimestampMicros(timestamp));
    }
}

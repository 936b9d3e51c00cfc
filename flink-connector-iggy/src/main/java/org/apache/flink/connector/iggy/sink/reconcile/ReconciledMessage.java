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
import org.apache.flink.api.common.typeinfo.TypeInformation;

import javax.annotation.Nullable;

import java.util.Arrays;

/**
 * A message the reconcile step decided to send: key bytes (for partitioning and the key header),
 * payload, user headers, origin timestamp, and the deterministic message id if idempotent writes
 * are on. Flink serializes it with {@link ReconciledMessageSerializer}.
 */
@Internal
public final class ReconciledMessage {

    public byte[] key;
    public byte[] payload;

    /** 16 bytes, big-endian u128; {@code null} lets the server generate the id. */
    @Nullable public byte[] messageId;

    /** User headers in {@link EncodedHeaders}' form; {@code null} for none. */
    @Nullable public byte[] headers;

    /** Microseconds since the epoch; 0 for the record's timestamp or the time of writing. */
    public long originTimestampMicros;

    public ReconciledMessage() {}

    public static TypeInformation<ReconciledMessage> typeInfo() {
        return new SerializerTypeInfo<>(
                ReconciledMessage.class, ReconciledMessageSerializer.INSTANCE);
    }

    public ReconciledMessage(
            byte[] key,
            byte[] payload,
            @Nullable byte[] messageId,
            @Nullable byte[] headers,
            long originTimestampMicros) {
        this.key = key;
        this.payload = payload;
        this.messageId = messageId;
        this.headers = headers;
        this.originTimestampMicros = originTimestampMicros;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ReconciledMessage)) {
            return false;
        }
        ReconciledMessage that = (ReconciledMessage) o;
        return Arrays.equals(key, that.key)
                && Arrays.equals(payload, that.payload)
                && Arrays.equals(messageId, that.messageId)
                && Arrays.equals(headers, that.headers)
                && originTimestampMicros == that.originTimestampMicros;
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "ReconciledMessage{key="
                + key.length
                + " bytes, payload="
                + payload.length
                + " bytes}";
    }
}

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
import org.apache.flink.connector.iggy.common.IggyHeaders;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.util.Objects;

/**
 * One message as the sink will send it, made by an {@link IggyRecordSerializationSchema}; for
 * another topic than the sink's own, see {@link #withTarget}.
 */
@PublicEvolving
public final class IggySinkRecord {

    private final long partition;
    private final byte[] payload;
    private final IggyHeaders headers;
    @Nullable private final BigInteger messageId;
    private final long originTimestampMicros;
    @Nullable private final IggySinkTarget target;

    /**
     * @param partition the target partition id (0-based)
     * @param payload the message payload
     * @param headers user headers, possibly {@link IggyHeaders#empty()}
     * @param messageId a u128 id, or {@code null} to let the server generate one
     * @param originTimestampMicros the origin timestamp in microseconds since the epoch
     */
    public IggySinkRecord(
            long partition,
            byte[] payload,
            IggyHeaders headers,
            @Nullable BigInteger messageId,
            long originTimestampMicros) {
        this(partition, payload, headers, messageId, originTimestampMicros, null);
    }

    private IggySinkRecord(
            long partition,
            byte[] payload,
            IggyHeaders headers,
            @Nullable BigInteger messageId,
            long originTimestampMicros,
            @Nullable IggySinkTarget target) {
        if (partition < 0 || partition > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(
                    "An Iggy partition id is an unsigned 32-bit number, but is " + partition);
        }
        if (messageId != null && (messageId.signum() < 0 || messageId.bitLength() > 128)) {
            throw new IllegalArgumentException(
                    "An Iggy message id is an unsigned 128-bit number, but is " + messageId);
        }
        this.partition = partition;
        this.payload = Objects.requireNonNull(payload, "payload");
        this.headers = Objects.requireNonNull(headers, "headers");
        this.messageId = messageId;
        this.originTimestampMicros = originTimestampMicros;
        this.target = target;
    }

    /** A payload-only message for {@code partition}, with a server-generated id. */
    public static IggySinkRecord of(long partition, byte[] payload, long originTimestampMicros) {
        return new IggySinkRecord(
                partition, payload, IggyHeaders.empty(), null, originTimestampMicros);
    }

    /**
     * This message for partition {@code partition()} of {@code target} instead of the sink's own
     * topic. Choose the partition with {@link IggySinkContext#partitionCount(IggySinkTarget)}.
     */
    public IggySinkRecord withTarget(IggySinkTarget target) {
        return new IggySinkRecord(
                partition,
                payload,
                headers,
                messageId,
                originTimestampMicros,
                Objects.requireNonNull(target, "target"));
    }

    /** The topic the message goes to, or {@code null} for the sink's own topic. */
    @Nullable
    public IggySinkTarget target() {
        return target;
    }

    public long partition() {
        return partition;
    }

    public byte[] payload() {
        return payload;
    }

    public IggyHeaders headers() {
        return headers;
    }

    @Nullable
    public BigInteger messageId() {
        return messageId;
    }

    public long originTimestampMicros() {
        return originTimestampMicros;
    }
}

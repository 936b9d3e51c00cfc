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
package org.apache.flink.connector.iggy.source;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.MessageBatch;

import java.math.BigInteger;
import java.util.Objects;
import java.util.Optional;

/**
 * A message read from one Iggy partition, as deserialization schemas see it: payload, user headers
 * and metadata. A thin view over the message the SDK decoded; nothing is copied.
 */
@PublicEvolving
public final class IggyMessage {

    private final IggyId stream;
    private final IggyId topic;
    private final long partition;
    private final MessageBatch batch;
    private final int index;

    /** A view of the message at {@code index} of a batch. */
    IggyMessage(IggyId stream, IggyId topic, long partition, MessageBatch batch, int index) {
        this.stream = stream;
        this.topic = topic;
        this.partition = partition;
        this.batch = batch;
        this.index = index;
    }

    /** A message built field by field, for tests of deserialization schemas. */
    public static Builder builder() {
        return new Builder();
    }

    public IggyId stream() {
        return stream;
    }

    public IggyId topic() {
        return topic;
    }

    /** The id of the partition the message was read from (from 0). */
    public long partition() {
        return partition;
    }

    public long offset() {
        return batch.offset(index);
    }

    /** The payload bytes (possibly empty, never null). */
    public byte[] payload() {
        return batch.payload(index);
    }

    /** Server append time, microseconds since the epoch. */
    public long timestampMicros() {
        return batch.timestampMicros(index);
    }

    /** Server append time in epoch milliseconds: the record's Flink timestamp. */
    public long timestampMillis() {
        return timestampMicros() / 1000;
    }

    /** The producer's origin timestamp, microseconds since the epoch (0 when not set). */
    public long originTimestampMicros() {
        return batch.originTimestampMicros(index);
    }

    /** The 128-bit message id as an unsigned integer. */
    public BigInteger messageId() {
        return batch.messageId(index);
    }

    /** The 64-bit checksum field of the message header (unsigned, as Java's long bits). */
    public long checksum() {
        return batch.checksum(index);
    }

    /** The user headers (empty when there are none). */
    public IggyHeaders headers() {
        return batch.headers(index);
    }

    /** The user header {@code key}, if present. */
    public Optional<IggyHeaderValue> header(String key) {
        return batch.header(index, key);
    }

    /** Header, payload and user header bytes, as on the wire. */
    public long sizeInBytes() {
        return batch.sizeInBytes(index);
    }

    @Override
    public String toString() {
        return "IggyMessage{stream="
                + stream
                + ", topic="
                + topic
                + ", partition="
                + partition
                + ", offset="
                + offset()
                + ", payloadBytes="
                + payload().length
                + '}';
    }

    /**
     * Builds an {@link IggyMessage} as the source would read it. Stream and topic are required;
     * everything else defaults to zero or empty.
     */
    @PublicEvolving
    public static final class Builder {
        private IggyId stream;
        private IggyId topic;
        private long partition;
        private long offset;
        private byte[] payload = new byte[0];
        private IggyHeaders headers = IggyHeaders.empty();
        private BigInteger messageId = BigInteger.ZERO;
        private long timestampMicros;
        private long originTimestampMicros;
        private long checksum;

        private Builder() {}

        public Builder setStream(IggyId stream) {
            this.stream = stream;
            return this;
        }

        public Builder setTopic(IggyId topic) {
            this.topic = topic;
            return this;
        }

        public Builder setPartition(long partition) {
            this.partition = partition;
            return this;
        }

        public Builder setOffset(long offset) {
            this.offset = offset;
            return this;
        }

        public Builder setPayload(byte[] payload) {
            this.payload = Objects.requireNonNull(payload, "payload");
            return this;
        }

        public Builder setHeaders(IggyHeaders headers) {
            this.headers = Objects.requireNonNull(headers, "headers");
            return this;
        }

        /** The unsigned 128-bit id. */
        public Builder setMessageId(BigInteger messageId) {
            this.messageId = Objects.requireNonNull(messageId, "messageId");
            return this;
        }

        /** Server append time, microseconds since the epoch. */
        public Builder setTimestampMicros(long timestampMicros) {
            this.timestampMicros = timestampMicros;
            return this;
        }

        public Builder setOriginTimestampMicros(long originTimestampMicros) {
            this.originTimestampMicros = originTimestampMicros;
            return this;
        }

        public Builder setChecksum(long checksum) {
            this.checksum = checksum;
            return this;
        }

        public IggyMessage build() {
            Objects.requireNonNull(stream, "stream");
            Objects.requireNonNull(topic, "topic");
            MessageBatch message =
                    MessageBatch.single(
                            offset,
                            payload,
                            headers,
                            messageId,
                            timestampMicros,
                            originTimestampMicros,
                            checksum);
            return new IggyMessage(stream, topic, partition, message, 0);
        }
    }
}

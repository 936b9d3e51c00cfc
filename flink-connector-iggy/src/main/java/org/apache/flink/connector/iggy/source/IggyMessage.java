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
import org.apache.flink.connector.iggy.common.IggyId;

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderValue;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.MessageHeader;

import java.math.BigInteger;
import java.util.Map;
import java.util.Optional;

/**
 * A message read from one Iggy partition, as deserialization schemas see it: payload, user headers
 * and metadata. A thin view over the SDK's message; nothing is copied.
 *
 * <p>User headers are the SDK's {@link HeaderKey} and {@link HeaderValue} ({@code
 * org.apache.iggy.message}); {@link HeaderValue#asString()} and {@link HeaderValue#value()} read a
 * value. The public constructor lets a test of a deserialization schema build messages from an SDK
 * {@link Message}.
 */
@PublicEvolving
public final class IggyMessage {

    private final IggyId stream;
    private final IggyId topic;
    private final long partitionId;
    private final Message message;

    public IggyMessage(IggyId stream, IggyId topic, long partitionId, Message message) {
        this.stream = stream;
        this.topic = topic;
        this.partitionId = partitionId;
        this.message = message;
    }

    public IggyId stream() {
        return stream;
    }

    public IggyId topic() {
        return topic;
    }

    public long partitionId() {
        return partitionId;
    }

    public long offset() {
        return message.header().offset().longValue();
    }

    /** The payload bytes (possibly empty, never null). */
    public byte[] payload() {
        return message.payload();
    }

    /** Server append time, microseconds since the epoch. */
    public long timestampMicros() {
        return message.header().timestamp().longValue();
    }

    /** Server append time in epoch milliseconds: the record's Flink timestamp. */
    public long timestampMillis() {
        return timestampMicros() / 1000;
    }

    /** The producer's origin timestamp, microseconds since the epoch (0 when not set). */
    public long originTimestampMicros() {
        return message.header().originTimestamp().longValue();
    }

    /** The 128-bit message id as an unsigned integer. */
    public BigInteger messageId() {
        return message.header().id().toBigInteger();
    }

    /** The 64-bit checksum field of the message header (unsigned, as Java's long bits). */
    public long checksum() {
        return message.header().checksum().longValue();
    }

    /** User headers as the SDK decodes them (empty when there are none). */
    public Map<HeaderKey, HeaderValue> headers() {
        return message.userHeaders();
    }

    /** The user header with a string key {@code key}, if present. */
    public Optional<HeaderValue> header(String key) {
        Map<HeaderKey, HeaderValue> headers = message.userHeaders();
        if (headers == null || headers.isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(headers.get(HeaderKey.fromString(key)));
    }

    /** Header, payload and user header bytes, as on the wire. */
    public long sizeInBytes() {
        MessageHeader header = message.header();
        return MessageHeader.SIZE + header.payloadLength() + header.userHeadersLength();
    }

    @Override
    public String toString() {
        return "IggyMessage{stream="
                + stream
                + ", topic="
                + topic
                + ", partition="
                + partitionId
                + ", offset="
                + offset()
                + ", payloadBytes="
                + message.payload().length
                + '}';
    }
}

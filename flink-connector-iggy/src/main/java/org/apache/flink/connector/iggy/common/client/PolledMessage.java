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
package org.apache.flink.connector.iggy.common.client;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.SdkHeaders;

import org.apache.iggy.message.BigIntegerMessageId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.MessageHeader;

import java.math.BigInteger;
import java.util.Map;
import java.util.function.BiConsumer;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A message read from (or to be sent to) a partition, in the connector's terms. It wraps the SDK's
 * message without copying its payload; the headers are converted only when asked for.
 */
@Internal
public final class PolledMessage {

    final Message message;

    PolledMessage(Message message) {
        this.message = message;
    }

    /**
     * A message with the given content, as a test or a record builder makes one; a message id of 0
     * lets the server assign one.
     */
    public static PolledMessage of(
            long offset,
            byte[] payload,
            IggyHeaders headers,
            BigInteger messageId,
            long timestampMicros,
            long originTimestampMicros,
            long checksum) {
        MessageHeader header =
                new MessageHeader(
                        new BigInteger(Long.toUnsignedString(checksum)),
                        new BigIntegerMessageId(messageId),
                        BigInteger.valueOf(offset),
                        BigInteger.valueOf(timestampMicros),
                        BigInteger.valueOf(originTimestampMicros),
                        0L,
                        (long) payload.length,
                        BigInteger.ZERO);
        // withUserHeaders computes the headers' length in the message header.
        return new PolledMessage(
                new Message(header, payload, Map.of()).withUserHeaders(SdkHeaders.toSdk(headers)));
    }

    /** A message to send: {@code payload} with {@code headers}, everything else the server's. */
    public static PolledMessage of(byte[] payload, IggyHeaders headers) {
        return of(0L, payload, headers, BigInteger.ZERO, 0L, 0L, 0L);
    }

    public long offset() {
        return message.header().offset().longValue();
    }

    public byte[] payload() {
        return message.payload();
    }

    public long timestampMicros() {
        return message.header().timestamp().longValue();
    }

    public long originTimestampMicros() {
        return message.header().originTimestamp().longValue();
    }

    public BigInteger messageId() {
        return message.header().id().toBigInteger();
    }

    public long checksum() {
        return message.header().checksum().longValue();
    }

    public IggyHeaders headers() {
        return SdkHeaders.fromSdk(message.userHeaders());
    }

    /**
     * Calls {@code action} with each header's key and encoded value, not copied: for a reader that
     * only looks at the bytes, such as SQL's {@code headers} column.
     */
    public static void forEachHeader(IggyHeaders headers, BiConsumer<String, byte[]> action) {
        SdkHeaders.toSdk(headers)
                .forEach((k, v) -> action.accept(new String(k.value(), UTF_8), v.value()));
    }

    /** The size the message takes in a batch on the wire: header, payload and user headers. */
    public long sizeInBytes() {
        MessageHeader header = message.header();
        return MessageHeader.SIZE + header.payloadLength() + header.userHeadersLength();
    }
}

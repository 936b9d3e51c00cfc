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
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;

import org.apache.iggy.message.BigIntegerMessageId;
import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderValue;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.MessageHeader;
import org.apache.iggy.message.PolledMessages;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Messages of one partition, addressed by their index: a poll's answer is wrapped without copying,
 * so that a message is a view of the batch and an index. Immutable.
 */
@Internal
public final class MessageBatch {

    private final List<Message> messages;
    private final long currentOffset;

    private MessageBatch(List<Message> messages, long currentOffset) {
        this.messages = messages;
        this.currentOffset = currentOffset;
    }

    /** A poll's answer, as the SDK gave it (tests build fake answers this way). */
    public static MessageBatch of(PolledMessages polled) {
        BigInteger current = polled.currentOffset();
        return new MessageBatch(polled.messages(), current == null ? -1 : current.longValue());
    }

    /** One message with the given content; a message id of 0 lets the server assign one. */
    public static MessageBatch single(
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
        Message message =
                new Message(header, payload, Map.of())
                        .withUserHeaders(SdkConversions.toSdk(headers));
        return new MessageBatch(List.of(message), -1);
    }

    List<Message> messages() {
        return messages;
    }

    public int size() {
        return messages.size();
    }

    public boolean isEmpty() {
        return messages.isEmpty();
    }

    /** The partition's last offset when the batch was read; -1 when unknown or empty. */
    public long currentOffset() {
        return currentOffset;
    }

    /** The messages in [from, stop), the first copy of each offset, in order. */
    public MessageBatch unreadWithin(long from, long stop) {
        List<Message> kept = new ArrayList<>(messages.size());
        long next = from;
        for (Message message : messages) {
            long offset = message.header().offset().longValue();
            if (offset >= next && offset < stop) {
                kept.add(message);
                next = offset + 1;
            }
        }
        return new MessageBatch(kept, currentOffset);
    }

    public long offset(int index) {
        return header(index).offset().longValue();
    }

    public byte[] payload(int index) {
        return messages.get(index).payload();
    }

    public long timestampMicros(int index) {
        return header(index).timestamp().longValue();
    }

    public long originTimestampMicros(int index) {
        return header(index).originTimestamp().longValue();
    }

    public BigInteger messageId(int index) {
        return header(index).id().toBigInteger();
    }

    public long checksum(int index) {
        return header(index).checksum().longValue();
    }

    /** The message's headers, a view converted value by value when read. */
    public IggyHeaders headers(int index) {
        Message message = messages.get(index);
        return SdkConversions.fromSdk(message.userHeaders(), message.header().userHeadersLength());
    }

    /** The message's header {@code key}, looked up without converting the others. */
    public Optional<IggyHeaderValue> header(int index, String key) {
        Map<HeaderKey, HeaderValue> headers = messages.get(index).userHeaders();
        HeaderValue value =
                headers == null || headers.isEmpty() ? null : headers.get(SdkConversions.key(key));
        return value == null ? Optional.empty() : Optional.of(SdkConversions.valueFromSdk(value));
    }

    /** The size the message takes in a batch on the wire: header, payload and user headers. */
    public long sizeInBytes(int index) {
        MessageHeader header = header(index);
        return MessageHeader.SIZE + header.payloadLength() + header.userHeadersLength();
    }

    private MessageHeader header(int index) {
        return messages.get(index).header();
    }
}

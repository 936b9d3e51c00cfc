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
package org.apache.flink.connector.iggy.testutils;

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderValue;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.MessageHeader;
import org.apache.iggy.message.MessageId;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds SDK messages for tests. */
public final class TestMessages {
    private TestMessages() {}

    public static Message of(String payload) {
        return Message.of(payload);
    }

    public static Message withId(MessageId id, String payload) {
        byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
        return new Message(header(id, bytes.length, 0, BigInteger.ZERO), bytes, Map.of());
    }

    public static Message withOriginTimestamp(String payload, long originTimestamp) {
        byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
        return new Message(
                header(
                        MessageId.serverGenerated(),
                        bytes.length,
                        0,
                        BigInteger.valueOf(originTimestamp)),
                bytes,
                Map.of());
    }

    public static Message withHeaders(String payload, Map<HeaderKey, HeaderValue> headers) {
        return Message.of(payload, headers);
    }

    /** {@code count} messages "prefix-0", "prefix-1", ... */
    public static List<Message> numbered(String prefix, int count) {
        List<Message> messages = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            messages.add(Message.of(prefix + "-" + i));
        }
        return messages;
    }

    public static String text(Message message) {
        return new String(message.payload(), StandardCharsets.UTF_8);
    }

    public static List<String> texts(List<Message> messages) {
        List<String> result = new ArrayList<>(messages.size());
        for (Message message : messages) {
            result.add(text(message));
        }
        return result;
    }

    public static List<Long> offsets(List<Message> messages) {
        List<Long> result = new ArrayList<>(messages.size());
        for (Message message : messages) {
            result.add(message.header().offset().longValueExact());
        }
        return result;
    }

    private static MessageHeader header(
            MessageId id, int payloadLength, long headersLength, BigInteger originTimestamp) {
        return new MessageHeader(
                BigInteger.ZERO,
                id,
                BigInteger.ZERO,
                BigInteger.ZERO,
                originTimestamp,
                headersLength,
                (long) payloadLength,
                BigInteger.ZERO);
    }
}

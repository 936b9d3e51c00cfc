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

import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyHeadersInternals;
import org.apache.flink.connector.iggy.common.IggyId;

import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.BytesMessageId;
import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderKind;
import org.apache.iggy.message.HeaderValue;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.MessageHeader;
import org.apache.iggy.message.MessageId;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.nio.charset.StandardCharsets.UTF_8;

/** The connector's ids, headers and messages as the SDK's, and back. */
final class SdkConversions {

    /** Id 0 asks the server to generate one; the SDK only ever reads the array. */
    private static final MessageId SERVER_GENERATED_ID = new BytesMessageId(new byte[16]);

    private SdkConversions() {}

    static StreamId streamId(IggyId stream) {
        return stream.isNumeric() ? StreamId.of(stream.numericId()) : StreamId.of(stream.name());
    }

    static TopicId topicId(IggyId topic) {
        return topic.isNumeric() ? TopicId.of(topic.numericId()) : TopicId.of(topic.name());
    }

    /** The messages as the SDK sends them; payloads are not copied. */
    static List<Message> toSdk(List<OutgoingMessage> messages) {
        List<Message> sdk = new ArrayList<>(messages.size());
        for (OutgoingMessage m : messages) {
            byte[] id = m.wireId();
            MessageHeader header =
                    new MessageHeader(
                            BigInteger.ZERO,
                            id == null ? SERVER_GENERATED_ID : new BytesMessageId(id),
                            BigInteger.ZERO,
                            BigInteger.ZERO,
                            BigInteger.valueOf(m.originTimestampMicros()),
                            m.headers().encodedLength(),
                            (long) m.payload().length,
                            BigInteger.ZERO);
            Map<HeaderKey, HeaderValue> headers =
                    m.headers().isEmpty() ? Map.of() : toSdk(m.headers());
            sdk.add(new Message(header, m.payload(), headers));
        }
        return sdk;
    }

    /** The headers as the SDK takes them. */
    static Map<HeaderKey, HeaderValue> toSdk(IggyHeaders headers) {
        Map<HeaderKey, HeaderValue> sdk = new LinkedHashMap<>();
        IggyHeadersInternals.view(headers).forEach((k, v) -> sdk.put(key(k), valueToSdk(v)));
        return sdk;
    }

    /** A message's headers as read ({@code null} is none), {@code length} bytes as encoded. */
    static IggyHeaders fromSdk(@Nullable Map<HeaderKey, HeaderValue> headers, long length) {
        if (headers == null || headers.isEmpty()) {
            return IggyHeaders.empty();
        }
        Map<String, IggyHeaderValue> converted = new LinkedHashMap<>();
        headers.forEach((k, v) -> converted.put(new String(k.value(), UTF_8), valueFromSdk(v)));
        return IggyHeadersInternals.headers(Collections.unmodifiableMap(converted), length);
    }

    static HeaderKey key(String key) {
        return new HeaderKey(HeaderKind.String, key.getBytes(UTF_8));
    }

    static HeaderValue valueToSdk(IggyHeaderValue value) {
        return new HeaderValue(
                HeaderKind.fromCode(value.kind().code()), IggyHeadersInternals.encoded(value));
    }

    static IggyHeaderValue valueFromSdk(HeaderValue value) {
        return IggyHeadersInternals.value(
                IggyHeaderValue.Kind.ofCode(value.kind().asCode()), value.value());
    }
}

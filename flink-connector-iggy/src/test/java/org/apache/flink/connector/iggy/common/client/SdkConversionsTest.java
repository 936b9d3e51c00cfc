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

import io.netty.buffer.ByteBufUtil;
import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderKind;
import org.apache.iggy.message.HeaderValue;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.PolledMessages;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The gateway's conversions of headers and messages to and from the SDK's. */
class SdkConversionsTest {

    @Test
    void typedValuesEncodeAsTheSdkDoes() {
        assertSameAsSdk(IggyHeaderValue.ofString("é"), HeaderValue.fromString("é"));
        assertSameAsSdk(IggyHeaderValue.ofBool(true), HeaderValue.fromBool(true));
        assertSameAsSdk(IggyHeaderValue.ofInt8((byte) -3), HeaderValue.fromInt8((byte) -3));
        assertSameAsSdk(IggyHeaderValue.ofInt16((short) -300), HeaderValue.fromInt16((short) -300));
        assertSameAsSdk(IggyHeaderValue.ofInt32(-7), HeaderValue.fromInt32(-7));
        assertSameAsSdk(IggyHeaderValue.ofInt64(1L << 40), HeaderValue.fromInt64(1L << 40));
        assertSameAsSdk(IggyHeaderValue.ofUint8((short) 200), HeaderValue.fromUint8((short) 200));
        assertSameAsSdk(IggyHeaderValue.ofUint16(65000), HeaderValue.fromUint16(65000));
        assertSameAsSdk(
                IggyHeaderValue.ofUint32(4_000_000_000L), HeaderValue.fromUint32(4_000_000_000L));
        assertSameAsSdk(IggyHeaderValue.ofFloat32(1.5f), HeaderValue.fromFloat32(1.5f));
        assertSameAsSdk(IggyHeaderValue.ofFloat64(0.5), HeaderValue.fromFloat64(0.5));
        assertSameAsSdk(
                IggyHeaderValue.ofRaw(new byte[] {1, 2}), HeaderValue.fromRaw(new byte[] {1, 2}));
    }

    @Test
    void headersConvertToTheSdkAndBackWithoutLosingKinds() {
        IggyHeaders headers =
                IggyHeaders.builder()
                        .put("op", "upsert")
                        .put("version", IggyHeaderValue.ofInt32(3))
                        .build();
        Map<HeaderKey, HeaderValue> sdk = SdkConversions.toSdk(headers);
        assertThat(sdk)
                .containsOnly(
                        Map.entry(HeaderKey.fromString("op"), HeaderValue.fromString("upsert")),
                        Map.entry(HeaderKey.fromString("version"), HeaderValue.fromInt32(3)));
        IggyHeaders back = SdkConversions.fromSdk(sdk, headers.encodedLength());
        assertThat(back).isEqualTo(headers).hasSameHashCodeAs(headers);
        assertThat(back.get("version")).contains(IggyHeaderValue.ofInt32(3));
        assertThat(back.get("missing")).isEmpty();
        assertThat(back.asMap()).isEqualTo(headers.asMap());
        assertThat(SdkConversions.toSdk(back)).isEqualTo(sdk);
        assertThat(SdkConversions.fromSdk(null, 0).isEmpty()).isTrue();
    }

    @Test
    void messagesReadConvertHeadersOnlyWhenAskedAndKeepTheirSize() {
        Map<HeaderKey, HeaderValue> sdk = new LinkedHashMap<>();
        sdk.put(
                new HeaderKey(HeaderKind.String, "k".getBytes(StandardCharsets.UTF_8)),
                HeaderValue.fromRaw(new byte[5]));
        Message plain = Message.of("a");
        Message withHeaders = Message.of("b", sdk);
        MessageBatch batch =
                MessageBatch.of(
                        new PolledMessages(0L, BigInteger.ONE, 2L, List.of(plain, withHeaders)));
        assertThat(batch.headers(0)).isSameAs(IggyHeaders.empty());
        assertThat(batch.headers(1).encodedLength()).isEqualTo(10 + 1 + 5);
        assertThat(batch.headers(1).get("k")).contains(IggyHeaderValue.ofRaw(new byte[5]));
        assertThat(batch.header(1, "k")).contains(IggyHeaderValue.ofRaw(new byte[5]));
        assertThat(batch.header(1, "other")).isEmpty();
        assertThat(batch.header(0, "k")).isEmpty();
    }

    @Test
    void outgoingMessagesBecomeTheSdksAtTheSend() {
        byte[] payload = {1, 2, 3};
        byte[] id = new byte[16];
        id[0] = 7;
        IggyHeaders headers = IggyHeaders.of("k", "v");
        List<Message> sdk =
                SdkConversions.toSdk(
                        List.of(
                                new OutgoingMessage(payload, headers, id, 42),
                                new OutgoingMessage(payload, IggyHeaders.empty(), null, 0)));
        Message m = sdk.get(0);
        assertThat(m.payload()).isSameAs(payload);
        assertThat(ByteBufUtil.getBytes(m.header().id().toBytes())).isEqualTo(id);
        assertThat(m.header().originTimestamp()).isEqualTo(BigInteger.valueOf(42));
        assertThat(m.header().userHeadersLength()).isEqualTo(headers.encodedLength());
        assertThat(m.getSize())
                .as("the SDK counts the size as OutgoingMessage#wireSize does")
                .isEqualTo(new OutgoingMessage(payload, headers, id, 42).wireSize());
        assertThat(ByteBufUtil.getBytes(sdk.get(1).header().id().toBytes()))
                .isEqualTo(new byte[16]);
        assertThat(sdk.get(1).userHeaders()).isEmpty();
    }

    private static void assertSameAsSdk(IggyHeaderValue ours, HeaderValue sdk) {
        assertThat(SdkConversions.valueToSdk(ours)).isEqualTo(sdk);
        assertThat(SdkConversions.valueFromSdk(sdk)).isEqualTo(ours);
        assertThat(ours.bytes()).isEqualTo(sdk.value());
    }
}

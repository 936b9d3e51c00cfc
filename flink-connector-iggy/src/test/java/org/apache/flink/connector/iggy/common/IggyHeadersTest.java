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
package org.apache.flink.connector.iggy.common;

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderKind;
import org.apache.iggy.message.HeaderValue;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The connector's header types, and their conversion to and from the SDK's. */
class IggyHeadersTest {

    @Test
    void typedValuesEncodeAsTheSdkDoesAndReadBack() {
        assertSameAsSdk(IggyHeaderValue.ofString("é"), HeaderValue.fromString("é"));
        assertSameAsSdk(IggyHeaderValue.ofBool(true), HeaderValue.fromBool(true));
        assertSameAsSdk(IggyHeaderValue.ofInt32(-7), HeaderValue.fromInt32(-7));
        assertSameAsSdk(IggyHeaderValue.ofInt64(1L << 40), HeaderValue.fromInt64(1L << 40));
        assertSameAsSdk(
                IggyHeaderValue.ofUint32(4_000_000_000L), HeaderValue.fromUint32(4_000_000_000L));
        assertSameAsSdk(IggyHeaderValue.ofFloat64(0.5), HeaderValue.fromFloat64(0.5));
        assertSameAsSdk(
                IggyHeaderValue.ofRaw(new byte[] {1, 2}), HeaderValue.fromRaw(new byte[] {1, 2}));

        assertThat(IggyHeaderValue.ofString("é").asString()).isEqualTo("é");
        assertThat(IggyHeaderValue.ofBool(true).asBool()).isTrue();
        assertThat(IggyHeaderValue.ofInt32(-7).asInt32()).isEqualTo(-7);
        assertThat(IggyHeaderValue.ofInt64(1L << 40).asInt64()).isEqualTo(1L << 40);
        assertThat(IggyHeaderValue.ofUint32(4_000_000_000L).asUint32()).isEqualTo(4_000_000_000L);
        assertThat(IggyHeaderValue.ofFloat64(0.5).asFloat64()).isEqualTo(0.5);
        assertThat(IggyHeaderValue.ofInt32(3).kind()).isEqualTo(IggyHeaderValue.Kind.INT32);
    }

    @Test
    void readingAValueAsAnotherKindNamesBothKinds() {
        assertThatThrownBy(() -> IggyHeaderValue.ofRaw(new byte[] {65}).asString())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("RAW")
                .hasMessageContaining("STRING");
    }

    @Test
    void valuesAreImmutable() {
        byte[] bytes = {1, 2};
        IggyHeaderValue value = IggyHeaderValue.ofRaw(bytes);
        bytes[0] = 9;
        value.bytes()[1] = 9;
        assertThat(value.bytes()).containsExactly(1, 2);
    }

    @Test
    void headersConvertToTheSdkAndBackWithoutLosingKinds() {
        IggyHeaders headers =
                IggyHeaders.builder()
                        .put("op", "delete")
                        .put("version", IggyHeaderValue.ofInt32(3))
                        .put("op", "upsert")
                        .build();
        Map<HeaderKey, HeaderValue> sdk = SdkHeaders.toSdk(headers);
        assertThat(sdk)
                .containsOnly(
                        Map.entry(HeaderKey.fromString("op"), HeaderValue.fromString("upsert")),
                        Map.entry(HeaderKey.fromString("version"), HeaderValue.fromInt32(3)));
        IggyHeaders back = SdkHeaders.fromSdk(sdk);
        assertThat(back).isEqualTo(headers);
        assertThat(back.size()).isEqualTo(2);
        assertThat(back.get("version")).contains(IggyHeaderValue.ofInt32(3));
        assertThat(back.get("missing")).isEmpty();
        assertThat(back.asMap())
                .containsOnlyKeys("op", "version")
                .containsEntry("op", IggyHeaderValue.ofString("upsert"));
        assertThat(SdkHeaders.fromSdk(null).isEmpty()).isTrue();
    }

    @Test
    void headersAreImmutableAndToBuilderCopies() {
        Map<HeaderKey, HeaderValue> sdk = new LinkedHashMap<>();
        sdk.put(
                new HeaderKey(HeaderKind.String, "k".getBytes(StandardCharsets.UTF_8)),
                HeaderValue.fromString("v"));
        IggyHeaders headers = SdkHeaders.fromSdk(sdk);
        assertThatThrownBy(() -> SdkHeaders.toSdk(headers).clear())
                .isInstanceOf(UnsupportedOperationException.class);
        IggyHeaders more = headers.toBuilder().put("k2", "v2").build();
        assertThat(headers.size()).isEqualTo(1);
        assertThat(more.asMap()).containsOnlyKeys("k", "k2");
    }

    @Test
    void keysMustHaveOneTo255Bytes() {
        assertThatThrownBy(() -> IggyHeaders.builder().put("", "v"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 255");
        assertThatThrownBy(() -> IggyHeaders.of("x".repeat(256), "v")).hasMessageContaining("256");
        assertThat(IggyHeaders.of("x".repeat(255), "v").size()).isEqualTo(1);
    }

    private static void assertSameAsSdk(IggyHeaderValue ours, HeaderValue sdk) {
        assertThat(SdkHeaders.valueToSdk(ours)).isEqualTo(sdk);
        assertThat(SdkHeaders.valueFromSdk(sdk)).isEqualTo(ours);
        assertThat(ours.bytes()).isEqualTo(sdk.value());
    }
}

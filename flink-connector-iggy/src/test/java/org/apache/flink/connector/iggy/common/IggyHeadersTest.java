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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The connector's header types. */
class IggyHeadersTest {

    @Test
    void typedValuesReadBack() {
        assertThat(IggyHeaderValue.ofString("é").asString()).isEqualTo("é");
        assertThat(IggyHeaderValue.ofBool(true).asBool()).isTrue();
        assertThat(IggyHeaderValue.ofInt8((byte) -3).asInt8()).isEqualTo((byte) -3);
        assertThat(IggyHeaderValue.ofInt16((short) -300).asInt16()).isEqualTo((short) -300);
        assertThat(IggyHeaderValue.ofInt32(-7).asInt32()).isEqualTo(-7);
        assertThat(IggyHeaderValue.ofInt64(1L << 40).asInt64()).isEqualTo(1L << 40);
        assertThat(IggyHeaderValue.ofUint8((short) 255).asUint8()).isEqualTo((short) 255);
        assertThat(IggyHeaderValue.ofUint16(65535).asUint16()).isEqualTo(65535);
        assertThat(IggyHeaderValue.ofUint32(4_000_000_000L).asUint32()).isEqualTo(4_000_000_000L);
        assertThat(IggyHeaderValue.ofFloat32(1.5f).asFloat32()).isEqualTo(1.5f);
        assertThat(IggyHeaderValue.ofFloat64(0.5).asFloat64()).isEqualTo(0.5);
        assertThat(IggyHeaderValue.ofInt32(3).kind()).isEqualTo(IggyHeaderValue.Kind.INT32);
        assertThat(IggyHeaderValue.ofInt32(3)).hasToString("INT32 3");
        assertThatThrownBy(() -> IggyHeaderValue.ofUint8((short) 256))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IggyHeaderValue.ofString(" "))
                .isInstanceOf(IllegalArgumentException.class);
        for (IggyHeaderValue.Kind kind : IggyHeaderValue.Kind.values()) {
            assertThat(IggyHeaderValue.Kind.ofCode(kind.code())).isEqualTo(kind);
        }
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
    void headersKeepTheLastValueOfAKeyAndCountTheirEncodedBytes() {
        IggyHeaders headers =
                IggyHeaders.builder()
                        .put("op", "delete")
                        .put("version", IggyHeaderValue.ofInt32(3))
                        .put("op", "upsert")
                        .build();
        assertThat(headers.size()).isEqualTo(2);
        assertThat(headers.get("version")).contains(IggyHeaderValue.ofInt32(3));
        assertThat(headers.get("missing")).isEmpty();
        assertThat(headers.asMap())
                .containsOnlyKeys("op", "version")
                .containsEntry("op", IggyHeaderValue.ofString("upsert"));
        // kind and length (5) of key and of value, then the bytes: "op" "upsert", "version" 3
        assertThat(headers.encodedLength()).isEqualTo((10 + 2 + 6) + (10 + 7 + 4));
        assertThat(headers.with("op", IggyHeaderValue.ofString("d")).encodedLength())
                .isEqualTo((10 + 2 + 1) + (10 + 7 + 4));
        assertThat(IggyHeaders.of("k", IggyHeaderValue.ofBool(true)))
                .isEqualTo(IggyHeaders.builder().put("k", IggyHeaderValue.ofBool(true)).build());
    }

    @Test
    void headersAreImmutableAndToBuilderCopies() {
        IggyHeaders headers = IggyHeaders.of("k", "v");
        assertThatThrownBy(() -> headers.headers.clear())
                .isInstanceOf(UnsupportedOperationException.class);
        IggyHeaders more = headers.toBuilder().put("k2", "v2").build();
        assertThat(headers.size()).isEqualTo(1);
        assertThat(more.asMap()).containsOnlyKeys("k", "k2");
        assertThat(IggyHeaders.empty().with("k", IggyHeaderValue.ofString("v"))).isEqualTo(headers);
    }

    @Test
    void keysMustHaveOneTo255Bytes() {
        assertThatThrownBy(() -> IggyHeaders.builder().put("", "v"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 255");
        assertThatThrownBy(() -> IggyHeaders.of("x".repeat(256), "v")).hasMessageContaining("256");
        assertThat(IggyHeaders.of("x".repeat(255), "v").size()).isEqualTo(1);
    }
}

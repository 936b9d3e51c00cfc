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
package org.apache.flink.connector.iggy.sink.reconcile;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Flink's serializer contract for the keyed-map sink's messages between its operators. */
class KeyedMessageSerializerTest extends SerializerTestBase<KeyedMessage> {

    @Override
    protected TypeSerializer<KeyedMessage> createSerializer() {
        return KeyedMessageSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<KeyedMessage> getTypeClass() {
        return KeyedMessage.class;
    }

    @Override
    protected KeyedMessage[] getTestData() {
        IggyHeaders headers =
                IggyHeaders.builder()
                        .put("a", IggyHeaderValue.ofRaw(new byte[0]))
                        .put("b", IggyHeaderValue.ofInt64(-7))
                        .put("c".repeat(255), IggyHeaderValue.ofRaw(new byte[70_000]))
                        .build();
        KeyedMessage withId = KeyedMessage.upsert(bytes("k2"), bytes("v"), headers, 42);
        withId.setMessageId(IggyFingerprint.messageId(bytes("s/t"), bytes("k2"), 3));
        return new KeyedMessage[] {
            KeyedMessage.upsert(bytes("k1"), bytes("v1"), IggyHeaders.empty(), 0),
            KeyedMessage.upsert(
                    new byte[] {0, (byte) 0xFF, 0x7F}, new byte[0], IggyHeaders.empty(), -1),
            KeyedMessage.delete(bytes("k1"), null, IggyHeaders.empty(), 0),
            KeyedMessage.delete(bytes("k2"), bytes("gone"), headers, Long.MAX_VALUE),
            withId,
            KeyedMessage.upsert(bytes(""), new byte[4096], IggyHeaders.empty(), 0),
            KeyedMessage.upsert(bytes("k1"), bytes("v1"), headers, 7)
                    .withTarget(IggySinkTarget.of("shop", "orders")),
            KeyedMessage.delete(bytes("k1"), bytes("gone"), IggyHeaders.empty(), 0)
                    .withTarget(new IggySinkTarget(IggyId.of(3), IggyId.of(4_000_000_000L))),
        };
    }

    @Test
    void aRoutedKeyNeverSharesItsStateWithTheSameKeyOfAnotherTopic() {
        KeyedMessage own = KeyedMessage.upsert(bytes("k"), bytes("v"), IggyHeaders.empty(), 0);
        KeyedMessage a = own.withTarget(IggySinkTarget.of("s", "a"));
        KeyedMessage b = own.withTarget(IggySinkTarget.of("s", "b"));
        KeyedMessage numericA = own.withTarget(new IggySinkTarget(IggyId.of("s"), IggyId.of(1)));
        assertThat(own.stateKey()).isEqualTo("k");
        assertThat(
                        java.util.Set.of(
                                own.stateKey(), a.stateKey(), b.stateKey(), numericA.stateKey()))
                .hasSize(4);
        assertThat(a.stateKey())
                .isEqualTo(
                        KeyedMessage.upsert(bytes("k"), bytes("other"), IggyHeaders.empty(), 0)
                                .withTarget(IggySinkTarget.of("s", "a"))
                                .stateKey());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

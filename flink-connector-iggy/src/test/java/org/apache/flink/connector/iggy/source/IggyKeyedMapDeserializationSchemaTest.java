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

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.util.Collector;

import org.apache.iggy.message.MessageHeader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.deserializerContext;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggyKeyedMapDeserializationSchemaTest {

    private final SimpleCounter skipped = new SimpleCounter();
    private final List<IggyMapChange<String, String>> out = new ArrayList<>();
    private final Collector<IggyMapChange<String, String>> collector =
            new Collector<>() {
                @Override
                public void collect(IggyMapChange<String, String> record) {
                    out.add(record);
                }

                @Override
                public void close() {}
            };

    private IggyRecordDeserializationSchema<IggyMapChange<String, String>> schema;

    @BeforeEach
    void open() throws Exception {
        schema =
                IggyRecordDeserializationSchema.keyedMap(
                        m -> m.header("key").map(IggyHeaderValue::asString).orElse(null),
                        m -> m.payload().length == 0 && m.header("del").isPresent(),
                        new SimpleStringSchema());
        schema.open(deserializerContext(skipped));
    }

    static IggyMessage message(long offset, String payload, Map<String, String> headers) {
        IggyHeaders.Builder userHeaders = IggyHeaders.builder();
        headers.forEach(userHeaders::put);
        return IggyMessage.builder()
                .setStream(IggyId.of("s"))
                .setTopic(IggyId.of("t"))
                .setPartition(2)
                .setOffset(offset)
                .setPayload(payload.getBytes(StandardCharsets.UTF_8))
                .setHeaders(userHeaders.build())
                .setMessageId(BigInteger.valueOf(77))
                .setTimestampMicros(1_700_000_000_123_456L)
                .setOriginTimestampMicros(42)
                .setChecksum(123)
                .build();
    }

    @Test
    void upsertsDeletesAndRealFalsyKeys() throws IOException {
        schema.deserialize(message(0, "v1", Map.of("key", "k1")), collector);
        schema.deserialize(message(1, "", Map.of("key", "k1", "del", "y")), collector);
        schema.deserialize(message(2, "", Map.of("key", "k2")), collector);
        schema.deserialize(message(3, "zero", Map.of("key", "0")), collector);

        assertThat(out)
                .containsExactly(
                        IggyMapChange.upsert("k1", "v1"),
                        IggyMapChange.delete("k1"),
                        IggyMapChange.upsert("k2", ""),
                        IggyMapChange.upsert("0", "zero"));
        assertThat(skipped.getCount()).isZero();
    }

    @Test
    void nullKeyIsSkippedAndCounted() throws IOException {
        schema.deserialize(message(0, "no key", Map.of()), collector);
        schema.deserialize(message(1, "still none", Map.of("other", "x")), collector);

        assertThat(out).isEmpty();
        assertThat(skipped.getCount()).isEqualTo(2);
    }

    @Test
    void withoutDeletionPredicateNothingIsADelete() throws Exception {
        IggyRecordDeserializationSchema<IggyMapChange<String, String>> noDeletes =
                IggyRecordDeserializationSchema.keyedMap(
                        m -> new String(m.payload(), StandardCharsets.UTF_8),
                        new SimpleStringSchema());
        noDeletes.open(deserializerContext(skipped));
        noDeletes.deserialize(message(0, "", Map.of()), collector);
        assertThat(out).containsExactly(IggyMapChange.upsert("", ""));
    }

    @Test
    void failingKeySelectorIsADeserializationError() throws Exception {
        IggyRecordDeserializationSchema<IggyMapChange<String, String>> failing =
                IggyRecordDeserializationSchema.<String, String>keyedMap(
                        m -> {
                            throw new IllegalStateException("boom");
                        },
                        new SimpleStringSchema());
        failing.open(deserializerContext(skipped));
        assertThatThrownBy(() -> failing.deserialize(message(0, "x", Map.of()), collector))
                .isInstanceOf(IOException.class)
                .hasRootCauseMessage("boom");
    }

    @Test
    void messageViewExposesMetadata() {
        IggyMessage m = message(5, "p", Map.of("h", "v"));
        assertThat(m.offset()).isEqualTo(5);
        assertThat(m.partition()).isEqualTo(2);
        assertThat(m.timestampMicros()).isEqualTo(1_700_000_000_123_456L);
        assertThat(m.timestampMillis()).isEqualTo(1_700_000_000_123L);
        assertThat(m.originTimestampMicros()).isEqualTo(42);
        assertThat(m.messageId()).isEqualTo(BigInteger.valueOf(77));
        assertThat(m.checksum()).isEqualTo(123);
        assertThat(m.header("h")).contains(IggyHeaderValue.ofString("v"));
        assertThat(m.header("missing")).isEmpty();
        assertThat(m.stream().asText()).isEqualTo("s");
        // payload 1 byte; header h=v: kinds and lengths (10 bytes), key and value (1 each)
        assertThat(m.sizeInBytes()).isEqualTo(MessageHeader.SIZE + 1 + 12);
    }
}

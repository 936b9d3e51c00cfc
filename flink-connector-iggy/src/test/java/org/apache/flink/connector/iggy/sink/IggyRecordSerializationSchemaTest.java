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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.testutils.formats.DummyInitializationContext;

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderKind;
import org.apache.iggy.message.HeaderValue;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggyRecordSerializationSchemaTest {

    @Test
    void defaultsToPayloadOnlyOnPartitionZeroWithServerIds() throws Exception {
        IggyRecordSerializationSchema<String> schema =
                IggyRecordSerializationSchema.<String>builder()
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .build();
        schema.open(new DummyInitializationContext(), IggyPartitionersTest.context(0));
        IggySinkRecord record = schema.serialize("héllo", IggyPartitionersTest.context(0), 1234L);
        assertThat(record.partition()).isZero();
        assertThat(new String(record.payload(), StandardCharsets.UTF_8)).isEqualTo("héllo");
        assertThat(record.userHeaders()).isEmpty();
        assertThat(record.messageId()).isNull();
        assertThat(record.originTimestampMicros()).isEqualTo(1_234_000L);
    }

    @Test
    void writesKeyHeaderHeadersIdAndKeyPartition() throws Exception {
        IggyRecordSerializationSchema<String> schema =
                IggyRecordSerializationSchema.<String>builder()
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .setKeySerializationSchema(
                                s -> s.split("=")[0].getBytes(StandardCharsets.UTF_8))
                        .setKeyHeader("key")
                        .setPartitioner(IggyPartitioners.byKey())
                        .setHeadersFunction(
                                s ->
                                        Map.of(
                                                HeaderKey.fromString("len"),
                                                HeaderValue.fromInt32(s.length())))
                        .setMessageIdFunction(s -> BigInteger.valueOf(s.hashCode() & 0xFFFF))
                        .build();
        schema.open(new DummyInitializationContext(), IggyPartitionersTest.context(0));
        IggySinkRecord record = schema.serialize("key-1=v", IggyPartitionersTest.context(0), null);
        assertThat(record.partition())
                .isEqualTo(
                        IggyPartitioners.partitionForKey(
                                "key-1".getBytes(StandardCharsets.UTF_8), 3));
        HeaderValue key =
                record.userHeaders()
                        .get(
                                new HeaderKey(
                                        HeaderKind.String, "key".getBytes(StandardCharsets.UTF_8)));
        assertThat(key.kind()).isEqualTo(HeaderKind.Raw);
        assertThat(new String(key.value(), StandardCharsets.UTF_8)).isEqualTo("key-1");
        assertThat(record.userHeaders().get(HeaderKey.fromString("len")).asInt32()).isEqualTo(7);
        assertThat(record.messageId()).isEqualTo(BigInteger.valueOf("key-1=v".hashCode() & 0xFFFF));
        assertThat(record.originTimestampMicros()).isPositive();
    }

    @Test
    void buildNamesMissingOrInconsistentProperties() {
        assertThatThrownBy(() -> IggyRecordSerializationSchema.<String>builder().build())
                .hasMessageContaining("setValueSerializationSchema");
        assertThatThrownBy(
                        () ->
                                IggyRecordSerializationSchema.<String>builder()
                                        .setValueSerializationSchema(new SimpleStringSchema())
                                        .setPartitioner(IggyPartitioners.byKey())
                                        .build())
                .hasMessageContaining("setKeySerializationSchema");
        assertThatThrownBy(
                        () ->
                                IggyRecordSerializationSchema.<String>builder()
                                        .setValueSerializationSchema(new SimpleStringSchema())
                                        .setKeyHeader("k")
                                        .build())
                .hasMessageContaining("setKeySerializationSchema");
    }

    @Test
    void rejectsIdsOutsideU128() {
        assertThatThrownBy(
                        () ->
                                new IggySinkRecord(
                                        0, new byte[0], Map.of(), BigInteger.ONE.shiftLeft(128), 0))
                .hasMessageContaining("128-bit");
        assertThatThrownBy(() -> IggySinkRecord.of(-1, new byte[0], 0)).hasMessageContaining("-1");
    }
}

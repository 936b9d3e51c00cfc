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
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Flink's serializer contract ({@link SerializerTestBase}), plus the exact bytes: the size per key
 * is a target of the keyed-map sink, and the format and snapshot must stay readable from
 * savepoints.
 */
class ReconcileStateSerializerTest extends SerializerTestBase<ReconcileState> {

    private static final byte[] FP_V1 = IggyFingerprint.of("v1");

    /** The states stored, serialized one after the other, in {@code reconcile-state-v1.bin}. */
    private static final ReconcileState[] FIXTURE_STATES = {
        ReconcileState.sent(FP_V1, 1),
        ReconcileState.deleted(2),
        ReconcileState.sent(IggyFingerprint.of(""), 300),
    };

    @Override
    protected TypeSerializer<ReconcileState> createSerializer() {
        return ReconcileStateSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<ReconcileState> getTypeClass() {
        return ReconcileState.class;
    }

    @Override
    protected ReconcileState[] getTestData() {
        return new ReconcileState[] {
            ReconcileState.sent(FP_V1, 1),
            ReconcileState.sent(IggyFingerprint.of("héllo"), 63),
            ReconcileState.sent(IggyFingerprint.of(""), 64),
            ReconcileState.sent(FP_V1, Long.MAX_VALUE),
            ReconcileState.deleted(1),
            ReconcileState.deleted(Long.MAX_VALUE),
        };
    }

    @Test
    void fingerprintAndFewerThan64MessagesTake17Bytes() throws IOException {
        byte[] bytes = serialize(ReconcileState.sent(FP_V1, 63));
        assertThat(bytes).hasSize(17);
        assertThat(bytes[0]).isEqualTo((byte) (63 << 1 | 1));
        assertThat(HexFormat.of().formatHex(bytes, 1, 17))
                .isEqualTo("32813478dd927a4c2415bc5464568e9d");
    }

    @Test
    void eachSevenMoreBitsOfTheCountTakeOneMoreByte() throws IOException {
        assertThat(serialize(ReconcileState.sent(FP_V1, 64))).hasSize(18);
        assertThat(serialize(ReconcileState.sent(FP_V1, 8191))).hasSize(18);
        assertThat(serialize(ReconcileState.sent(FP_V1, 8192))).hasSize(19);
        assertThat(serialize(ReconcileState.sent(FP_V1, Long.MAX_VALUE))).hasSize(26);
    }

    @Test
    void aDeletedKeyKeepsOnlyItsCount() throws IOException {
        assertThat(serialize(ReconcileState.deleted(5))).containsExactly(5 << 1);
        assertThat(serialize(ReconcileState.deleted(Long.MAX_VALUE))).hasSize(10);
    }

    @Test
    void version1FixtureIsStableByteForByte() throws IOException {
        byte[] stored = fixture("serializer/reconcile-state-v1.bin");
        DataOutputSerializer out = new DataOutputSerializer(64);
        for (ReconcileState state : FIXTURE_STATES) {
            ReconcileStateSerializer.INSTANCE.serialize(state, out);
        }
        assertThat(out.getCopyOfBuffer()).isEqualTo(stored);

        DataInputDeserializer in = new DataInputDeserializer(stored);
        List<ReconcileState> read = new ArrayList<>();
        while (in.available() > 0) {
            read.add(ReconcileStateSerializer.INSTANCE.deserialize(in));
        }
        assertThat(read).containsExactly(FIXTURE_STATES);
    }

    @Test
    void storedSerializerSnapshotRestoresThisSerializerCompatibleAsIs() throws IOException {
        byte[] stored = fixture("serializer/reconcile-state-serializer-snapshot-v1.bin");
        DataOutputSerializer out = new DataOutputSerializer(128);
        TypeSerializerSnapshot.writeVersionedSnapshot(
                out, ReconcileStateSerializer.INSTANCE.snapshotConfiguration());
        assertThat(out.getCopyOfBuffer()).isEqualTo(stored);

        TypeSerializerSnapshot<ReconcileState> restored =
                TypeSerializerSnapshot.readVersionedSnapshot(
                        new DataInputDeserializer(stored), getClass().getClassLoader());
        assertThat(restored.restoreSerializer()).isSameAs(ReconcileStateSerializer.INSTANCE);
        TypeSerializerSchemaCompatibility<ReconcileState> compatibility =
                ReconcileStateSerializer.INSTANCE
                        .snapshotConfiguration()
                        .resolveSchemaCompatibility(restored);
        assertThat(compatibility.isCompatibleAsIs()).isTrue();
    }

    @Test
    void aVarintLongerThan64BitsIsRejected() {
        byte[] corrupt = new byte[11];
        java.util.Arrays.fill(corrupt, (byte) 0x80);
        assertThatThrownBy(
                        () ->
                                ReconcileStateSerializer.INSTANCE.deserialize(
                                        new DataInputDeserializer(corrupt)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("varint");
    }

    private static byte[] serialize(ReconcileState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(32);
        ReconcileStateSerializer.INSTANCE.serialize(state, out);
        return out.getCopyOfBuffer();
    }

    private static byte[] fixture(String path) throws IOException {
        try (InputStream in =
                ReconcileStateSerializerTest.class.getClassLoader().getResourceAsStream(path)) {
            assertThat(in).as("fixture %s", path).isNotNull();
            return in.readAllBytes();
        }
    }
}

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

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.iggy.common.IggyFingerprint;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.sink.IggyMapChangeEncoder;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.SavepointType;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderKind;
import org.apache.iggy.message.HeaderValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The decision table of docs/datastream-sink.md, one reconcile operator at a time. */
class IggyReconcileFunctionTest {

    private static final byte[] SINK_ID = "s/t".getBytes(StandardCharsets.UTF_8);

    @Test
    void newKeyIsSentUnchangedValueIsNotChangedValueIs() throws Exception {
        try (Harness h = harness(null, null)) {
            h.process(upsert("k1", "v1"));
            h.process(upsert("k1", "v1"));
            h.process(upsert("k1", "v2"));
            assertThat(h.payloads()).containsExactly("v1", "v2");
        }
    }

    @Test
    void abaSendsThreeTimes() throws Exception {
        try (Harness h = harness(null, null)) {
            h.process(upsert("k", "A"));
            h.process(upsert("k", "B"));
            h.process(upsert("k", "A"));
            assertThat(h.payloads()).containsExactly("A", "B", "A");
        }
    }

    @Test
    void keysAreIndependent() throws Exception {
        try (Harness h = harness(null, null)) {
            h.process(upsert("k1", "v"));
            h.process(upsert("k2", "v"));
            h.process(upsert("k1", "v"));
            assertThat(h.payloads()).containsExactly("v", "v");
        }
    }

    @Test
    void deleteOfAnUnknownKeySendsNothingEvenWithoutDeletionFunction() throws Exception {
        try (Harness h = harness(null, null)) {
            h.process(IggyMapChange.delete("never-seen"));
            assertThat(h.payloads()).isEmpty();
        }
        try (Harness h = harness(k -> k + "=DELETE", null)) {
            h.process(IggyMapChange.delete("never-seen"));
            assertThat(h.payloads()).isEmpty();
        }
    }

    @Test
    void deleteOfASentKeyWithoutDeletionFunctionFailsWithTheTombstoneError() throws Exception {
        try (Harness h = harness(null, null)) {
            h.process(upsert("k1", "v1"));
            assertThatThrownBy(() -> h.process(IggyMapChange.delete("k1")))
                    .hasMessage(
                            "Iggy does not support Kafka-style tombstones. Provide"
                                    + " setDeletionValueFunction or encode deletes in the payload.");
        }
    }

    @Test
    void deleteWithDeletionFunctionSendsItsPayloadAndClearsTheFingerprint() throws Exception {
        try (Harness h = harness(k -> k + "=DELETE", null)) {
            h.process(upsert("k1", "v1"));
            h.process(IggyMapChange.delete("k1"));
            h.process(IggyMapChange.delete("k1")); // nothing stored any more
            h.process(upsert("k1", "v1")); // delete then re-add sends again, same value
            assertThat(h.payloads()).containsExactly("v1", "k1=DELETE", "v1");
        }
    }

    @Test
    void headersAndOriginTimestampTravelWithUpsertsAndDeletesButAreNotFingerprinted()
            throws Exception {
        try (Harness h =
                new Harness(new HeaderEncoder(), null, null, null, new HashMapStateBackend())) {
            h.process(upsert("k", "v"));
            h.process(upsert("k", "v")); // same payload, other headers: nothing is sent
            h.process(IggyMapChange.delete("k"));
            List<ReconciledMessage> out = h.output();
            assertThat(out).hasSize(2);
            assertThat(headers(out.get(0))).containsExactly(Map.entry("op", "upsert:v"));
            assertThat(out.get(0).originTimestampMicros).isEqualTo(42);
            assertThat(new String(out.get(1).payload, StandardCharsets.UTF_8)).isEmpty();
            assertThat(headers(out.get(1))).containsExactly(Map.entry("op", "delete:k"));
            assertThat(h.storedState("k")).isNull();
        }
    }

    @Test
    void headerBytesRoundTripEveryKindAndLength() {
        Map<HeaderKey, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(HeaderKey.fromString("a"), new HeaderValue(HeaderKind.Raw, new byte[0]));
        headers.put(HeaderKey.fromString("b"), HeaderValue.fromInt64(-7));
        headers.put(
                new HeaderKey(HeaderKind.Raw, new byte[300]),
                new HeaderValue(HeaderKind.Raw, new byte[70_000]));
        assertThat(EncodedHeaders.decode(EncodedHeaders.encode(headers))).isEqualTo(headers);
        assertThat(EncodedHeaders.encode(Map.of())).isNull();
        assertThat(EncodedHeaders.decode(null)).isEmpty();
    }

    private static Map<String, String> headers(ReconciledMessage message) {
        Map<String, String> out = new LinkedHashMap<>();
        EncodedHeaders.decode(message.headers)
                .forEach(
                        (k, v) ->
                                out.put(
                                        new String(k.value(), StandardCharsets.UTF_8),
                                        new String(v.value(), StandardCharsets.UTF_8)));
        return out;
    }

    /** Empty deletion payloads; headers that name the change, different on every call. */
    static final class HeaderEncoder extends StringEncoder {
        private int calls;

        HeaderEncoder() {
            super(k -> "");
        }

        @Override
        public Map<HeaderKey, HeaderValue> headers(IggyMapChange<String, String> change) {
            return Map.of(
                    HeaderKey.fromString("op"),
                    HeaderValue.fromString(calls++ == 0 ? "upsert:" + change.value() : "other"));
        }

        @Override
        public Map<HeaderKey, HeaderValue> deletionHeaders(IggyMapChange<String, String> change) {
            return Map.of(
                    HeaderKey.fromString("op"), HeaderValue.fromString("delete:" + change.key()));
        }

        @Override
        public long originTimestampMicros(IggyMapChange<String, String> change) {
            return 42;
        }
    }

    @Test
    void stringAndItsBytesHaveTheSameFingerprint() throws Exception {
        try (Harness h = harness(null, null)) {
            h.process(upsert("k", "abc"));
            assertThat(h.storedState("k"))
                    .isEqualTo(
                            ReconcileState.sent(
                                    IggyFingerprint.of("abc".getBytes(StandardCharsets.UTF_8)), 1));
            assertThat(IggyFingerprint.of("abc"))
                    .isEqualTo(IggyFingerprint.of("abc".getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void stateHoldsTheLastFingerprintAndTheMessageCountWhichADeleteKeepsOnlyIfIdempotent()
            throws Exception {
        for (byte[] sinkId : new byte[][] {SINK_ID, null}) {
            try (Harness h = harness(k -> "x", sinkId)) {
                h.process(upsert("k", "v1"));
                h.process(upsert("k", "v1"));
                h.process(upsert("k", "v2"));
                assertThat(h.storedState("k"))
                        .isEqualTo(ReconcileState.sent(IggyFingerprint.of("v2"), 2));
                h.process(IggyMapChange.delete("k"));
                if (sinkId != null) {
                    assertThat(h.storedState("k")).isEqualTo(ReconcileState.deleted(3));
                } else {
                    assertThat(h.storedState("k")).isNull();
                }
            }
        }
    }

    @Test
    void idempotentIdsNumberTheMessagesOfAKeyAndSurviveDeletes() throws Exception {
        try (Harness h = harness(k -> k + "=DELETE", SINK_ID)) {
            h.process(upsert("k1", "v1"));
            h.process(upsert("k1", "v1"));
            h.process(IggyMapChange.delete("k1"));
            h.process(upsert("k1", "v1"));
            h.process(upsert("k2", "v1"));
            List<ReconciledMessage> out = h.output();
            assertThat(out).hasSize(4);
            byte[] k1 = "k1".getBytes(StandardCharsets.UTF_8);
            for (int seq = 0; seq < 3; seq++) {
                assertThat(new BigInteger(1, out.get(seq).messageId))
                        .isEqualTo(IggyFingerprint.messageId(SINK_ID, k1, seq));
            }
            assertThat(new BigInteger(1, out.get(3).messageId))
                    .isEqualTo(
                            IggyFingerprint.messageId(
                                    SINK_ID, "k2".getBytes(StandardCharsets.UTF_8), 0));
        }
    }

    @Test
    void withoutIdempotentWritesTheServerChoosesIds() throws Exception {
        try (Harness h = harness(null, null)) {
            h.process(upsert("k1", "v1"));
            assertThat(h.output().get(0).messageId).isNull();
        }
    }

    @Test
    void fingerprintsSurviveASnapshotAndRestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (Harness h = harness(null, null)) {
            h.process(upsert("k1", "v1"));
            h.process(upsert("k2", "v2"));
            snapshot = h.harness.snapshot(1, 1);
        }
        try (Harness h = harness(null, null, snapshot)) {
            h.process(upsert("k1", "v1"));
            h.process(upsert("k2", "v2b"));
            assertThat(h.payloads()).containsExactly("v2b");
        }
    }

    /**
     * Both forms of the state (fingerprint and count; count only after a delete) restore from a
     * RocksDB checkpoint, and from a canonical RocksDB savepoint into the heap backend.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"RocksDB checkpoint", "RocksDB savepoint restored on heap"})
    void stateSurvivesRocksDbSnapshots(String scenario) throws Exception {
        boolean savepoint = scenario.contains("savepoint");
        OperatorSubtaskState snapshot;
        try (Harness h =
                harness(k -> "gone", SINK_ID, null, null, new EmbeddedRocksDBStateBackend())) {
            h.process(upsert("k1", "v1"));
            h.process(upsert("k2", "v2"));
            h.process(IggyMapChange.delete("k2"));
            snapshot =
                    savepoint
                            ? h.harness
                                    .snapshotWithLocalState(
                                            1,
                                            1,
                                            SavepointType.savepoint(SavepointFormatType.CANONICAL))
                                    .getJobManagerOwnedState()
                            : h.harness.snapshot(1, 1);
        }
        StateBackend restoreOn =
                savepoint ? new HashMapStateBackend() : new EmbeddedRocksDBStateBackend();
        try (Harness h = harness(k -> "gone", SINK_ID, snapshot, null, restoreOn)) {
            h.process(upsert("k1", "v1"));
            h.process(upsert("k2", "v2"));
            assertThat(h.payloads()).containsExactly("v2");
            assertThat(new BigInteger(1, h.output().get(0).messageId))
                    .isEqualTo(
                            IggyFingerprint.messageId(
                                    SINK_ID, "k2".getBytes(StandardCharsets.UTF_8), 2));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"heap", "RocksDB"})
    void expiredStateSendsAnUnchangedValueAgain(String backend) throws Exception {
        StateBackend stateBackend =
                backend.equals("heap")
                        ? new HashMapStateBackend()
                        : new EmbeddedRocksDBStateBackend();
        try (Harness h = harness(null, null, null, Duration.ofMillis(100), stateBackend)) {
            h.harness.setStateTtlProcessingTime(0);
            h.process(upsert("k1", "v1"));
            h.harness.setStateTtlProcessingTime(50);
            h.process(upsert("k1", "v1"));
            h.harness.setStateTtlProcessingTime(500);
            h.process(upsert("k1", "v1"));
            assertThat(h.payloads()).containsExactly("v1", "v1");
        }
    }

    @Test
    void ignoredChangesDoNothing() throws Exception {
        IggyMapChangeEncoder<IggyMapChange<String, String>> ignoreAll =
                new StringEncoder(null) {
                    @Override
                    public IggyMapChange.Kind kind(IggyMapChange<String, String> change) {
                        return null;
                    }
                };
        try (Harness h = new Harness(ignoreAll, null, null, null, new HashMapStateBackend())) {
            h.process(upsert("k1", "v1"));
            assertThat(h.output()).isEmpty();
        }
    }

    private static IggyMapChange<String, String> upsert(String k, String v) {
        return IggyMapChange.upsert(k, v);
    }

    private static Harness harness(@Nullable DeletionValue deletion, @Nullable byte[] sinkId)
            throws Exception {
        return harness(deletion, sinkId, null);
    }

    private static Harness harness(
            @Nullable DeletionValue deletion,
            @Nullable byte[] sinkId,
            @Nullable OperatorSubtaskState restore)
            throws Exception {
        return harness(deletion, sinkId, restore, null);
    }

    private static Harness harness(
            @Nullable DeletionValue deletion,
            @Nullable byte[] sinkId,
            @Nullable OperatorSubtaskState restore,
            @Nullable Duration ttl)
            throws Exception {
        return harness(deletion, sinkId, restore, ttl, new HashMapStateBackend());
    }

    private static Harness harness(
            @Nullable DeletionValue deletion,
            @Nullable byte[] sinkId,
            @Nullable OperatorSubtaskState restore,
            @Nullable Duration ttl,
            StateBackend backend)
            throws Exception {
        return new Harness(new StringEncoder(deletion), sinkId, restore, ttl, backend);
    }

    interface DeletionValue extends java.io.Serializable {
        String of(String key);
    }

    static class StringEncoder implements IggyMapChangeEncoder<IggyMapChange<String, String>> {
        private final SimpleStringSchema strings = new SimpleStringSchema();
        @Nullable private final DeletionValue deletion;

        StringEncoder(@Nullable DeletionValue deletion) {
            this.deletion = deletion;
        }

        @Override
        public IggyMapChange.Kind kind(IggyMapChange<String, String> change) {
            return change.kind();
        }

        @Override
        public byte[] key(IggyMapChange<String, String> change) {
            return strings.serialize(change.key());
        }

        @Override
        public byte[] value(IggyMapChange<String, String> change) {
            return strings.serialize(change.value());
        }

        @Override
        public boolean hasDeletionValue() {
            return deletion != null;
        }

        @Override
        public byte[] deletionValue(IggyMapChange<String, String> change) {
            return strings.serialize(deletion.of(change.key()));
        }
    }

    static final class Harness implements AutoCloseable {
        final KeyedOneInputStreamOperatorTestHarness<String, EncodedChange, ReconciledMessage>
                harness;
        final IggyMapChangeEncoder<IggyMapChange<String, String>> encoder;

        Harness(
                IggyMapChangeEncoder<IggyMapChange<String, String>> encoder,
                @Nullable byte[] sinkId,
                @Nullable OperatorSubtaskState restore,
                @Nullable Duration ttl,
                StateBackend backend)
                throws Exception {
            this.encoder = encoder;
            harness =
                    new KeyedOneInputStreamOperatorTestHarness<>(
                            new KeyedProcessOperator<>(
                                    new IggyReconcileFunction(
                                            encoder.deletionValueOption(), sinkId, ttl)),
                            change -> change.key,
                            Types.STRING);
            harness.setStateBackend(backend);
            if (restore != null) {
                harness.initializeState(restore);
            }
            harness.open();
        }

        void process(IggyMapChange<String, String> change) throws Exception {
            EncodedChange encoded = ChangeEncodingFunction.encode(encoder, change);
            if (encoded != null) {
                harness.processElement(new StreamRecord<>(encoded));
            }
        }

        List<ReconciledMessage> output() {
            return harness.extractOutputValues();
        }

        List<String> payloads() {
            return output().stream()
                    .map(m -> new String(m.payload, StandardCharsets.UTF_8))
                    .collect(Collectors.toList());
        }

        ReconcileState storedState(String key) throws Exception {
            harness.getOperator()
                    .setCurrentKey(
                            new EncodedChange(
                                            key.getBytes(StandardCharsets.UTF_8),
                                            false,
                                            null,
                                            null,
                                            0)
                                    .key);
            return harness.getOperator()
                    .getKeyedStateStore()
                    .getState(
                            new org.apache.flink.api.common.state.ValueStateDescriptor<>(
                                    IggyReconcileFunction.STATE_NAME,
                                    ReconcileStateSerializer.INSTANCE))
                    .value();
        }

        @Override
        public void close() throws Exception {
            harness.close();
        }
    }
}

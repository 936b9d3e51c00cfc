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

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.SavepointType;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.annotation.Nullable;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
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
    void routedChangesKeepAFingerprintPerTopicAndKeyAndDeleteInTheirTopic() throws Exception {
        try (Harness h =
                new Harness(
                        new TopicFromKeyEncoder(k -> k + "=DELETE"),
                        null,
                        null,
                        null,
                        new HashMapStateBackend())) {
            h.process(IggyMapChange.upsert("a/k", "v"));
            h.process(IggyMapChange.upsert("b/k", "v"));
            h.process(IggyMapChange.upsert("k", "v"));
            h.process(IggyMapChange.upsert("a/k", "v"));
            h.process(IggyMapChange.upsert("b/k", "w"));
            h.process(IggyMapChange.delete("a/k"));
            h.process(IggyMapChange.upsert("k", "v"));
            assertThat(h.output())
                    .extracting(
                            m ->
                                    (m.target() == null ? "own" : m.target().topic().name())
                                            + ":"
                                            + new String(m.payload(), StandardCharsets.UTF_8))
                    .containsExactly("a:v", "b:v", "own:v", "b:w", "a:k=DELETE");
        }
    }

    /**
     * "topic/key" goes to topic "topic" of stream "s" with key "key"; other keys are not routed.
     */
    static final class TopicFromKeyEncoder extends StringEncoder {
        TopicFromKeyEncoder(DeletionValue deletion) {
            super(deletion);
        }

        @Override
        public KeyedMessage encode(IggyMapChange<String, String> change) {
            int slash = change.key().indexOf('/');
            if (slash < 0) {
                return super.encode(change);
            }
            String key = change.key().substring(slash + 1);
            IggyMapChange<String, String> unrouted =
                    change.isDelete()
                            ? IggyMapChange.delete(key)
                            : IggyMapChange.upsert(key, change.value());
            return super.encode(unrouted)
                    .withTarget(IggySinkTarget.of("s", change.key().substring(0, slash)));
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
            List<KeyedMessage> out = h.output();
            assertThat(out).hasSize(2);
            assertThat(headers(out.get(0))).containsExactly(Map.entry("op", "upsert:v"));
            assertThat(out.get(0).originTimestampMicros()).isEqualTo(42);
            assertThat(new String(out.get(1).payload(), StandardCharsets.UTF_8)).isEmpty();
            assertThat(headers(out.get(1))).containsExactly(Map.entry("op", "delete:k"));
            assertThat(h.storedState("k")).isNull();
        }
    }

    private static Map<String, String> headers(KeyedMessage message) {
        Map<String, String> out = new LinkedHashMap<>();
        message.headers().asMap().forEach((k, v) -> out.put(k, v.asString()));
        return out;
    }

    /** Empty deletion payloads; headers that name the change, different on every call. */
    static final class HeaderEncoder extends StringEncoder {
        private int calls;

        HeaderEncoder() {
            super(k -> "");
        }

        @Override
        IggyHeaders headers(IggyMapChange<String, String> change) {
            return IggyHeaders.of("op", (calls++ == 0 ? "upsert:" + change.value() : "other"));
        }

        @Override
        IggyHeaders deletionHeaders(IggyMapChange<String, String> change) {
            return IggyHeaders.of("op", ("delete:" + change.key()));
        }

        @Override
        long originTimestampMicros(IggyMapChange<String, String> change) {
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
            List<KeyedMessage> out = h.output();
            assertThat(out).hasSize(4);
            byte[] k1 = "k1".getBytes(StandardCharsets.UTF_8);
            for (int seq = 0; seq < 3; seq++) {
                assertThat(out.get(seq).messageId())
                        .containsExactly(IggyFingerprint.messageId(SINK_ID, k1, seq));
            }
            assertThat(out.get(3).messageId())
                    .containsExactly(
                            IggyFingerprint.messageId(
                                    SINK_ID, "k2".getBytes(StandardCharsets.UTF_8), 0));
        }
    }

    @Test
    void withoutIdempotentWritesTheServerChoosesIds() throws Exception {
        try (Harness h = harness(null, null)) {
            h.process(upsert("k1", "v1"));
            assertThat(h.output().get(0).messageId()).isNull();
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
            assertThat(h.output().get(0).messageId())
                    .containsExactly(
                            IggyFingerprint.messageId(
                                    SINK_ID, "k2".getBytes(StandardCharsets.UTF_8), 2));
        }
    }

    /**
     * A savepoint written by the version before the keyed message (k1 sent v1; k2 sent v2, then was
     * deleted; a key with bytes above 0x7F sent v3 and v4; idempotent writes on) restores on both
     * backends: unchanged values send nothing, and the message counts go on.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"heap", "RocksDB"})
    void restoresTheSavepointOfStringKeyedVersions(String backend) throws Exception {
        OperatorSubtaskState savepoint =
                OperatorSnapshotUtil.readStateHandle(
                        Paths.get(
                                        getClass()
                                                .getClassLoader()
                                                .getResource(
                                                        "serializer/reconcile-savepoint-v1.bin")
                                                .toURI())
                                .toString());
        StateBackend stateBackend =
                backend.equals("heap")
                        ? new HashMapStateBackend()
                        : new EmbeddedRocksDBStateBackend();
        String wide = "ключ-é";
        try (Harness h = harness(k -> "gone", SINK_ID, savepoint, null, stateBackend)) {
            h.process(upsert("k1", "v1"));
            h.process(upsert("k2", "v2"));
            h.process(upsert(wide, "v4"));
            h.process(upsert(wide, "v5"));
            assertThat(h.payloads()).containsExactly("v2", "v5");
            assertThat(h.output().get(0).messageId())
                    .containsExactly(
                            IggyFingerprint.messageId(
                                    SINK_ID, "k2".getBytes(StandardCharsets.UTF_8), 2));
            assertThat(h.output().get(1).messageId())
                    .containsExactly(
                            IggyFingerprint.messageId(
                                    SINK_ID, wide.getBytes(StandardCharsets.UTF_8), 2));
            assertThat(h.storedState("k1"))
                    .isEqualTo(ReconcileState.sent(IggyFingerprint.of("v1"), 1));
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
        StringEncoder ignoreAll =
                new StringEncoder(null) {
                    @Override
                    public KeyedMessage encode(IggyMapChange<String, String> change) {
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

    /** UTF-8 keys and values; deletes written only with a deletion value. */
    static class StringEncoder implements ChangeEncoder<IggyMapChange<String, String>> {
        @Nullable private final DeletionValue deletion;

        StringEncoder(@Nullable DeletionValue deletion) {
            this.deletion = deletion;
        }

        IggyHeaders headers(IggyMapChange<String, String> change) {
            return IggyHeaders.empty();
        }

        IggyHeaders deletionHeaders(IggyMapChange<String, String> change) {
            return IggyHeaders.empty();
        }

        long originTimestampMicros(IggyMapChange<String, String> change) {
            return 0;
        }

        @Override
        public KeyedMessage encode(IggyMapChange<String, String> change) {
            byte[] key = utf8(change.key());
            if (!change.isDelete()) {
                return KeyedMessage.upsert(
                        key, utf8(change.value()), headers(change), originTimestampMicros(change));
            }
            return KeyedMessage.delete(
                    key,
                    deletion == null ? null : utf8(deletion.of(change.key())),
                    deletionHeaders(change),
                    originTimestampMicros(change));
        }

        private static byte[] utf8(String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
    }

    static final class Harness implements AutoCloseable {
        static final String TOMBSTONE_ERROR =
                "Iggy does not support Kafka-style tombstones. Provide"
                        + " setDeletionValueFunction or encode deletes in the payload.";

        final KeyedOneInputStreamOperatorTestHarness<String, KeyedMessage, KeyedMessage> harness;
        final ChangeEncoder<IggyMapChange<String, String>> encoder;

        Harness(
                ChangeEncoder<IggyMapChange<String, String>> encoder,
                @Nullable byte[] sinkId,
                @Nullable OperatorSubtaskState restore,
                @Nullable Duration ttl,
                StateBackend backend)
                throws Exception {
            this.encoder = encoder;
            harness =
                    new KeyedOneInputStreamOperatorTestHarness<>(
                            new KeyedProcessOperator<>(
                                    new IggyReconcileFunction(TOMBSTONE_ERROR, sinkId, ttl)),
                            KeyedMessage::stateKey,
                            Types.STRING);
            harness.setStateBackend(backend);
            // The messages' own serializer: Flink 1.20's harness copies output with Kryo otherwise.
            harness.setup(KeyedMessage.typeInfo().createSerializer(new SerializerConfigImpl()));
            if (restore != null) {
                harness.initializeState(restore);
            }
            harness.open();
        }

        void process(IggyMapChange<String, String> change) throws Exception {
            KeyedMessage encoded = encoder.encode(change);
            if (encoded != null) {
                harness.processElement(new StreamRecord<>(encoded));
            }
        }

        List<KeyedMessage> output() {
            return harness.extractOutputValues();
        }

        List<String> payloads() {
            return output().stream()
                    .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                    .collect(Collectors.toList());
        }

        ReconcileState storedState(String key) throws Exception {
            harness.getOperator()
                    .setCurrentKey(
                            KeyedMessage.upsert(
                                            key.getBytes(StandardCharsets.UTF_8),
                                            new byte[0],
                                            IggyHeaders.empty(),
                                            0)
                                    .stateKey());
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

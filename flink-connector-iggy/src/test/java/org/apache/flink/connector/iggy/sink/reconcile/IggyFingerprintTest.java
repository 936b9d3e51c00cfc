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

import org.apache.commons.codec.binary.Hex;
import org.bouncycastle.crypto.digests.Blake2bDigest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggyFingerprintTest {

    /**
     * Fixed vectors: a changed fingerprint would make restored keyed-map sinks resend every key.
     */
    @ParameterizedTest
    @CsvSource({
        "'', cae66941d9efbd404e4d88758ea67670",
        "v1, 32813478dd927a4c2415bc5464568e9d",
        "k1=v1, d6c302e2c58f1160b37fdd94ac1ea839",
        "héllo, 249a5c7589499a8866064c0d58459744"
    })
    void matchesTheReferenceVectors(String input, String hex) {
        assertThat(Hex.encodeHexString(IggyFingerprint.of(input))).isEqualTo(hex);
        assertThat(Hex.encodeHexString(IggyFingerprint.of(input.getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(hex);
    }

    @Test
    void messageIdsAreDeterministicAndSeparateTheirInputs() {
        byte[] sink = "sink".getBytes(StandardCharsets.UTF_8);
        BigInteger id = messageId(sink, bytes("k1"), 0);
        assertThat(messageId(sink, bytes("k1"), 0)).isEqualTo(id);
        assertThat(messageId(sink, bytes("k1"), 1)).isNotEqualTo(id);
        assertThat(messageId(sink, bytes("k2"), 0)).isNotEqualTo(id);
        assertThat(messageId(bytes("other"), bytes("k1"), 0)).isNotEqualTo(id);
        // length prefixes: moving a byte from sink id to key changes the id
        assertThat(messageId(bytes("sin"), bytes("kk1"), 0))
                .isNotEqualTo(messageId(bytes("sink"), bytes("k1"), 0));
        assertThat(id.signum()).isPositive();
        assertThat(id.bitLength()).isLessThanOrEqualTo(128);
    }

    /**
     * Ids must not change across versions (replays are deduplicated by id): the same as the
     * BouncyCastle-based computation of earlier versions, on ids whose input spans several blocks.
     */
    @Test
    void messageIdsAreTheSameAsWithBouncyCastle() {
        Random random = new Random(42);
        for (int i = 0; i < 500; i++) {
            byte[] sink = new byte[random.nextInt(40)];
            byte[] key = new byte[random.nextInt(300)];
            random.nextBytes(sink);
            random.nextBytes(key);
            long sequence = random.nextLong();
            assertThat(messageId(sink, key, sequence))
                    .isEqualTo(messageIdWithBouncyCastle(sink, key, sequence));
        }
    }

    @Test
    void aRejectedMessageIdLeavesNothingBehindForTheNextFingerprint() {
        assertThatThrownBy(() -> messageId(bytes("sink"), null, 0))
                .isInstanceOf(NullPointerException.class);
        assertThat(Hex.encodeHexString(IggyFingerprint.of("v1")))
                .isEqualTo("32813478dd927a4c2415bc5464568e9d");
    }

    /** The id as a number: the wire form is the little-endian u128. */
    private static BigInteger messageId(byte[] sink, byte[] key, long sequence) {
        byte[] wire = IggyFingerprint.messageId(sink, key, sequence);
        assertThat(wire).hasSize(16);
        byte[] bigEndian = new byte[16];
        for (int i = 0; i < 16; i++) {
            bigEndian[i] = wire[15 - i];
        }
        return new BigInteger(1, bigEndian);
    }

    private static BigInteger messageIdWithBouncyCastle(byte[] sink, byte[] key, long sequence) {
        Blake2bDigest digest = new Blake2bDigest(IggyFingerprint.SIZE * 8);
        byte[] sinkLength = littleEndian(sink.length, 4);
        byte[] keyLength = littleEndian(key.length, 4);
        byte[] sequenceBytes = littleEndian(sequence, 8);
        digest.update(sinkLength, 0, 4);
        digest.update(sink, 0, sink.length);
        digest.update(keyLength, 0, 4);
        digest.update(key, 0, key.length);
        digest.update(sequenceBytes, 0, 8);
        byte[] out = new byte[IggyFingerprint.SIZE];
        digest.doFinal(out, 0);
        BigInteger id = new BigInteger(1, out);
        return id.signum() == 0 ? BigInteger.ONE : id;
    }

    private static byte[] littleEndian(long value, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (value >>> (8 * i));
        }
        return bytes;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

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
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class Blake2b128Test {

    /**
     * Inputs of bytes 0, 1, 2, ... (mod 256) at the lengths around the 128-byte block boundaries,
     * where the last-block rule of BLAKE2b is easiest to get wrong. Digests computed independently
     * with Python's {@code hashlib.blake2b(data, digest_size=16)}.
     */
    @ParameterizedTest
    @CsvSource({
        "0, cae66941d9efbd404e4d88758ea67670",
        "1, 7025e075d5e2f6cde3cc051a31f07660",
        "127, 28b1296c7d4807883de6ee4ec04dcc0a",
        "128, a74787004ef589e31149183900d0294a",
        "129, aaf1b0371f6d4ee49ee4fb5ddd9c49ef",
        "255, 192657d8c2d07da4ee7beb8c6f9951f4",
        "256, c2472c0ac37a8dbdb25f05ada0d82643",
        "257, 5b9ad79f1309b3599ac3871688f3812c",
        "1000, 978a3f8b45508a42fe7f0f99caf2c423"
    })
    void matchesReferenceDigestsAtBlockBoundaries(int length, String hex) {
        assertThat(Hex.encodeHexString(hash(counting(length)))).isEqualTo(hex);
    }

    /** Fixed fingerprint vectors, plus "abc" (RFC 7693's example message) at digest length 16. */
    @ParameterizedTest
    @CsvSource({
        "'', cae66941d9efbd404e4d88758ea67670",
        "v1, 32813478dd927a4c2415bc5464568e9d",
        "k1=v1, d6c302e2c58f1160b37fdd94ac1ea839",
        "héllo, 249a5c7589499a8866064c0d58459744",
        "abc, cf4ab791c62b8d2b2109c90275287816"
    })
    void matchesReferenceDigestsOfStrings(String input, String hex) {
        assertThat(Hex.encodeHexString(hash(input.getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(hex);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 127, 128, 129, 255, 256, 257, 383, 384, 385, 1000})
    void streamingInPiecesEqualsOneShot(int length) {
        byte[] input = counting(length);
        byte[] expected = hash(input);
        Blake2b128 hasher = new Blake2b128();

        for (int b : input) {
            hasher.update((byte) b);
        }
        assertThat(digest(hasher)).as("byte by byte").isEqualTo(expected);

        for (int piece : new int[] {1, 7, 64, 127, 128, 129, 300}) {
            for (int off = 0; off < length; off += piece) {
                hasher.update(input, off, Math.min(piece, length - off));
            }
            assertThat(digest(hasher)).as("pieces of %d", piece).isEqualTo(expected);
        }

        Random random = new Random(length);
        int off = 0;
        while (off < length) {
            if (random.nextBoolean()) {
                hasher.update(input[off++]);
            } else {
                int len = Math.min(random.nextInt(200), length - off);
                hasher.update(input, off, len);
                off += len;
            }
        }
        assertThat(digest(hasher)).as("mixed random pieces").isEqualTo(expected);
    }

    @Test
    void digestResetsForTheNextMessage() {
        Blake2b128 hasher = new Blake2b128();
        byte[] first = counting(300);
        byte[] second = "v1".getBytes(StandardCharsets.UTF_8);
        hasher.update(first, 0, first.length);
        assertThat(digest(hasher)).isEqualTo(hash(first));
        hasher.update(second, 0, second.length);
        assertThat(digest(hasher)).isEqualTo(hash(second));
        assertThat(digest(hasher)).as("nothing since the last digest").isEqualTo(hash(new byte[0]));
    }

    @Test
    void hashesOnlyTheGivenRangeAndWritesOnlyTheDigestRange() {
        byte[] input = counting(400);
        Blake2b128 hasher = new Blake2b128();
        hasher.update(input, 3, 200);
        byte[] out = new byte[40];
        Arrays.fill(out, (byte) 0x5a);
        hasher.digest(out, 20);

        assertThat(Arrays.copyOfRange(out, 20, 36))
                .isEqualTo(hash(Arrays.copyOfRange(input, 3, 203)));
        for (int i : new int[] {0, 19, 36, 39}) {
            assertThat(out[i]).as("out[%d]", i).isEqualTo((byte) 0x5a);
        }
    }

    @Test
    void rejectsRangesOutsideTheArraysWithoutChangingTheState() {
        Blake2b128 hasher = new Blake2b128();
        byte[] input = counting(10);
        hasher.update(input, 0, 4);
        assertThatThrownBy(() -> hasher.update(input, 8, 3))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> hasher.update(input, -1, 2))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> hasher.digest(new byte[20], 5))
                .isInstanceOf(IndexOutOfBoundsException.class);
        hasher.update(input, 4, 6);
        assertThat(digest(hasher)).isEqualTo(hash(input));
    }

    /**
     * Against BouncyCastle's BLAKE2b (digest length 16), which the connector used before: random
     * contents at every length up to three blocks and random lengths up to 1000, fed whole and in
     * random pieces.
     */
    @Test
    void matchesBouncyCastleOnRandomInputs() {
        Random random = new Random(7693);
        Blake2b128 hasher = new Blake2b128();
        for (int i = 0; i < 3000; i++) {
            int length = i <= 3 * 128 ? i : random.nextInt(1001);
            byte[] input = new byte[length];
            random.nextBytes(input);
            byte[] expected = bouncyCastle(input);

            hasher.update(input, 0, length);
            assertThat(digest(hasher)).as("length %d", length).isEqualTo(expected);

            int off = 0;
            while (off < length) {
                int len = Math.min(random.nextInt(260), length - off);
                hasher.update(input, off, len);
                off += len;
            }
            assertThat(digest(hasher)).as("length %d in pieces", length).isEqualTo(expected);
        }
    }

    private static byte[] hash(byte[] input) {
        Blake2b128 hasher = new Blake2b128();
        hasher.update(input, 0, input.length);
        return digest(hasher);
    }

    private static byte[] digest(Blake2b128 hasher) {
        byte[] out = new byte[Blake2b128.DIGEST_LENGTH];
        hasher.digest(out, 0);
        return out;
    }

    private static byte[] bouncyCastle(byte[] input) {
        Blake2bDigest digest = new Blake2bDigest(Blake2b128.DIGEST_LENGTH * 8);
        digest.update(input, 0, input.length);
        byte[] out = new byte[Blake2b128.DIGEST_LENGTH];
        digest.doFinal(out, 0);
        return out;
    }

    /** Bytes 0, 1, 2, ... wrapping at 256. */
    private static byte[] counting(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) i;
        }
        return bytes;
    }
}

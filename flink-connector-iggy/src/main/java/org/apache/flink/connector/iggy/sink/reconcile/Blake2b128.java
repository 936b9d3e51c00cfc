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

import org.apache.flink.annotation.Internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * Unkeyed BLAKE2b with a 16-byte digest (RFC 7693), the hash behind {@link IggyFingerprint}.
 *
 * <p>Specialised for that one use: no key, salt or personalisation, and the digest length 16 in the
 * parameter block (so the result differs from a truncated BLAKE2b-512). Feed it with {@code
 * update}; {@link #digest} writes the result and resets the instance for the next message. Not
 * thread-safe.
 */
@Internal
final class Blake2b128 {

    static final int DIGEST_LENGTH = 16;

    private static final int BLOCK_LENGTH = 128;

    // The initialisation vector, the same eight words as SHA-512's (RFC 7693 §2.6).
    private static final long IV0 = 0x6a09e667f3bcc908L;
    private static final long IV1 = 0xbb67ae8584caa73bL;
    private static final long IV2 = 0x3c6ef372fe94f82bL;
    private static final long IV3 = 0xa54ff53a5f1d36f1L;
    private static final long IV4 = 0x510e527fade682d1L;
    private static final long IV5 = 0x9b05688c2b3e6c1fL;
    private static final long IV6 = 0x1f83d9abfb41bd6bL;
    private static final long IV7 = 0x5be0cd19137e2179L;

    /**
     * The parameter block's first word: digest length 16, key length 0, fanout 1, depth 1. The
     * other seven words are zero for unkeyed sequential hashing, so only h0 differs from the IV.
     */
    private static final long PARAMETERS = 0x01010000L | DIGEST_LENGTH;

    /** Message word order per round (RFC 7693 §2.7); rounds 10 and 11 repeat rows 0 and 1. */
    private static final byte[][] SIGMA = {
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
        {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
        {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
        {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
        {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
        {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
        {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
        {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
        {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
        {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
        {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    };

    /** Reads the little-endian 64-bit words of a block straight from the byte array. */
    private static final VarHandle LITTLE_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private long h0, h1, h2, h3, h4, h5, h6, h7;

    /** The message words of the block being compressed, indexed by the sigma table. */
    private final long[] m = new long[16];

    /**
     * Input not yet compressed. BLAKE2b marks the last block with a flag, so a full buffer is
     * compressed only once more input arrives.
     */
    private final byte[] buffer = new byte[BLOCK_LENGTH];

    private int buffered;

    /**
     * Bytes compressed so far, the low word of the RFC's 128-bit counter; the high word stays zero
     * below 2^64 bytes.
     */
    private long counter;

    Blake2b128() {
        reset();
    }

    /** Adds one byte to the message. */
    void update(byte b) {
        if (buffered == BLOCK_LENGTH) {
            counter += BLOCK_LENGTH;
            compress(buffer, 0, false);
            buffered = 0;
        }
        buffer[buffered++] = b;
    }

    /** Adds {@code len} bytes of {@code in} from {@code off} to the message. */
    void update(byte[] in, int off, int len) {
        Objects.checkFromIndexSize(off, len, in.length);
        if (buffered > 0 && len > BLOCK_LENGTH - buffered) {
            int fill = BLOCK_LENGTH - buffered;
            System.arraycopy(in, off, buffer, buffered, fill);
            counter += BLOCK_LENGTH;
            compress(buffer, 0, false);
            buffered = 0;
            off += fill;
            len -= fill;
        }
        // Whole blocks are compressed in place, except the last, which may end the message.
        while (len > BLOCK_LENGTH) {
            counter += BLOCK_LENGTH;
            compress(in, off, false);
            off += BLOCK_LENGTH;
            len -= BLOCK_LENGTH;
        }
        System.arraycopy(in, off, buffer, buffered, len);
        buffered += len;
    }

    /** Writes the 16-byte digest of everything updated so far to {@code out} and resets. */
    void digest(byte[] out, int off) {
        Objects.checkFromIndexSize(off, DIGEST_LENGTH, out.length);
        counter += buffered;
        Arrays.fill(buffer, buffered, BLOCK_LENGTH, (byte) 0);
        compress(buffer, 0, true);
        LITTLE_ENDIAN_LONG.set(out, off, h0);
        LITTLE_ENDIAN_LONG.set(out, off + 8, h1);
        reset();
    }

    private void reset() {
        h0 = IV0 ^ PARAMETERS;
        h1 = IV1;
        h2 = IV2;
        h3 = IV3;
        h4 = IV4;
        h5 = IV5;
        h6 = IV6;
        h7 = IV7;
        buffered = 0;
        counter = 0;
    }

    /**
     * The compression function F of RFC 7693 §3.2 on the 128 bytes at {@code off}.
     *
     * <p>The rounds run in a loop over {@link #SIGMA}: twelve unrolled rounds keep too many live
     * values for the registers, and at over 8,000 bytes of bytecode such a method is never
     * JIT-compiled by default.
     */
    private void compress(byte[] block, int off, boolean last) {
        long[] m = this.m;
        for (int i = 0; i < 16; i++) {
            m[i] = (long) LITTLE_ENDIAN_LONG.get(block, off + 8 * i);
        }
        // The working vector lives in locals, which the JIT keeps in registers as far as they go.
        long v0 = h0, v1 = h1, v2 = h2, v3 = h3, v4 = h4, v5 = h5, v6 = h6, v7 = h7;
        long v8 = IV0, v9 = IV1, v10 = IV2, v11 = IV3;
        long v12 = IV4 ^ counter, v13 = IV5, v14 = last ? ~IV6 : IV6, v15 = IV7;

        for (int r = 0; r < 12; r++) {
            byte[] s = SIGMA[r];
            // The mixing function G on the four columns, then on the four diagonals, written out
            // so that the working words stay in locals. Rotation counts 32, 24, 16, 63 (§2.1).
            v0 += v4 + m[s[0]];
            v12 = Long.rotateRight(v12 ^ v0, 32);
            v8 += v12;
            v4 = Long.rotateRight(v4 ^ v8, 24);
            v0 += v4 + m[s[1]];
            v12 = Long.rotateRight(v12 ^ v0, 16);
            v8 += v12;
            v4 = Long.rotateRight(v4 ^ v8, 63);

            v1 += v5 + m[s[2]];
            v13 = Long.rotateRight(v13 ^ v1, 32);
            v9 += v13;
            v5 = Long.rotateRight(v5 ^ v9, 24);
            v1 += v5 + m[s[3]];
            v13 = Long.rotateRight(v13 ^ v1, 16);
            v9 += v13;
            v5 = Long.rotateRight(v5 ^ v9, 63);

            v2 += v6 + m[s[4]];
            v14 = Long.rotateRight(v14 ^ v2, 32);
            v10 += v14;
            v6 = Long.rotateRight(v6 ^ v10, 24);
            v2 += v6 + m[s[5]];
            v14 = Long.rotateRight(v14 ^ v2, 16);
            v10 += v14;
            v6 = Long.rotateRight(v6 ^ v10, 63);

            v3 += v7 + m[s[6]];
            v15 = Long.rotateRight(v15 ^ v3, 32);
            v11 += v15;
            v7 = Long.rotateRight(v7 ^ v11, 24);
            v3 += v7 + m[s[7]];
            v15 = Long.rotateRight(v15 ^ v3, 16);
            v11 += v15;
            v7 = Long.rotateRight(v7 ^ v11, 63);

            v0 += v5 + m[s[8]];
            v15 = Long.rotateRight(v15 ^ v0, 32);
            v10 += v15;
            v5 = Long.rotateRight(v5 ^ v10, 24);
            v0 += v5 + m[s[9]];
            v15 = Long.rotateRight(v15 ^ v0, 16);
            v10 += v15;
            v5 = Long.rotateRight(v5 ^ v10, 63);

            v1 += v6 + m[s[10]];
            v12 = Long.rotateRight(v12 ^ v1, 32);
            v11 += v12;
            v6 = Long.rotateRight(v6 ^ v11, 24);
            v1 += v6 + m[s[11]];
            v12 = Long.rotateRight(v12 ^ v1, 16);
            v11 += v12;
            v6 = Long.rotateRight(v6 ^ v11, 63);

            v2 += v7 + m[s[12]];
            v13 = Long.rotateRight(v13 ^ v2, 32);
            v8 += v13;
            v7 = Long.rotateRight(v7 ^ v8, 24);
            v2 += v7 + m[s[13]];
            v13 = Long.rotateRight(v13 ^ v2, 16);
            v8 += v13;
            v7 = Long.rotateRight(v7 ^ v8, 63);

            v3 += v4 + m[s[14]];
            v14 = Long.rotateRight(v14 ^ v3, 32);
            v9 += v14;
            v4 = Long.rotateRight(v4 ^ v9, 24);
            v3 += v4 + m[s[15]];
            v14 = Long.rotateRight(v14 ^ v3, 16);
            v9 += v14;
            v4 = Long.rotateRight(v4 ^ v9, 63);
        }

        h0 ^= v0 ^ v8;
        h1 ^= v1 ^ v9;
        h2 ^= v2 ^ v10;
        h3 ^= v3 ^ v11;
        h4 ^= v4 ^ v12;
        h5 ^= v5 ^ v13;
        h6 ^= v6 ^ v14;
        h7 ^= v7 ^ v15;
    }
}

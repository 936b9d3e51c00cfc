package org.apache.flink.connector.iggy.common;

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

    /** Reads the little-endian 64-bit words of a block straight from the byte array. */
    private static final VarHandle LITTLE_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private long h0, h1, h2, h3, h4, h5, h6, h7;

    /** The message words of the block being compressed. */
    private final long[] m = new long[16];

    /** The working vector of the block being compressed, between two pairs of rounds. */
    private long w0, w1, w2, w3, w4, w5, w6, w7;

    private long w8, w9, w10, w11, w12, w13, w14, w15;

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
     * <p>The twelve rounds are written out, two per method, rather than looped over the message
     * schedule SIGMA: with constant message indices the JIT needs no table loads or bounds checks
     * and keeps the working vector in registers, which measured about 1.5 times as fast as the loop
     * on HotSpot 17. Two rounds per method measured faster than one, three, four or six; all twelve
     * in one method are past the 8,000 bytes of bytecode HotSpot compiles at all. The working
     * vector passes from method to method in the fields w0..w15.
     */
    private void compress(byte[] block, int off, boolean last) {
        for (int i = 0; i < 16; i++) {
            m[i] = (long) LITTLE_ENDIAN_LONG.get(block, off + 8 * i);
        }
        w0 = h0;
        w1 = h1;
        w2 = h2;
        w3 = h3;
        w4 = h4;
        w5 = h5;
        w6 = h6;
        w7 = h7;
        w8 = IV0;
        w9 = IV1;
        w10 = IV2;
        w11 = IV3;
        w12 = IV4 ^ counter;
        w13 = IV5;
        w14 = last ? ~IV6 : IV6;
        w15 = IV7;
        rounds0And1();
        rounds2And3();
        rounds4And5();
        rounds6And7();
        rounds8And9();
        rounds0And1(); // rounds 10 and 11: SIGMA rows 0 and 1 again
        h0 ^= w0 ^ w8;
        h1 ^= w1 ^ w9;
        h2 ^= w2 ^ w10;
        h3 ^= w3 ^ w11;
        h4 ^= w4 ^ w12;
        h5 ^= w5 ^ w13;
        h6 ^= w6 ^ w14;
        h7 ^= w7 ^ w15;
    }

    /*
     * Each round applies the mixing function G (RFC 7693 §3.1) to the four columns of the working
     * vector, then to its four diagonals:
     *
     *   a += b + x;  d = rotr(d ^ a, 32);  c += d;  b = rotr(b ^ c, 24);
     *   a += b + y;  d = rotr(d ^ a, 16);  c += d;  b = rotr(b ^ c, 63);
     *
     * where x and y are the next two message words in the order of the round's row of SIGMA
     * (§2.7). Rounds 10 and 11 use rows 0 and 1 again, so rounds0And1 serves them too.
     */

    private void rounds0And1() {
        long[] m = this.m;
        long v0 = w0, v1 = w1, v2 = w2, v3 = w3;
        long v4 = w4, v5 = w5, v6 = w6, v7 = w7;
        long v8 = w8, v9 = w9, v10 = w10, v11 = w11;
        long v12 = w12, v13 = w13, v14 = w14, v15 = w15;

        // Round 0, SIGMA row {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}.
        v0 += v4 + m[0];
        v12 = Long.rotateRight(v12 ^ v0, 32);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 24);
        v0 += v4 + m[1];
        v12 = Long.rotateRight(v12 ^ v0, 16);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 63);
        v1 += v5 + m[2];
        v13 = Long.rotateRight(v13 ^ v1, 32);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 24);
        v1 += v5 + m[3];
        v13 = Long.rotateRight(v13 ^ v1, 16);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 63);
        v2 += v6 + m[4];
        v14 = Long.rotateRight(v14 ^ v2, 32);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 24);
        v2 += v6 + m[5];
        v14 = Long.rotateRight(v14 ^ v2, 16);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 63);
        v3 += v7 + m[6];
        v15 = Long.rotateRight(v15 ^ v3, 32);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 24);
        v3 += v7 + m[7];
        v15 = Long.rotateRight(v15 ^ v3, 16);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 63);

        v0 += v5 + m[8];
        v15 = Long.rotateRight(v15 ^ v0, 32);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 24);
        v0 += v5 + m[9];
        v15 = Long.rotateRight(v15 ^ v0, 16);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 63);
        v1 += v6 + m[10];
        v12 = Long.rotateRight(v12 ^ v1, 32);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 24);
        v1 += v6 + m[11];
        v12 = Long.rotateRight(v12 ^ v1, 16);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 63);
        v2 += v7 + m[12];
        v13 = Long.rotateRight(v13 ^ v2, 32);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 24);
        v2 += v7 + m[13];
        v13 = Long.rotateRight(v13 ^ v2, 16);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 63);
        v3 += v4 + m[14];
        v14 = Long.rotateRight(v14 ^ v3, 32);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 24);
        v3 += v4 + m[15];
        v14 = Long.rotateRight(v14 ^ v3, 16);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 63);

        // Round 1, SIGMA row {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}.
        v0 += v4 + m[14];
        v12 = Long.rotateRight(v12 ^ v0, 32);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 24);
        v0 += v4 + m[10];
        v12 = Long.rotateRight(v12 ^ v0, 16);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 63);
        v1 += v5 + m[4];
        v13 = Long.rotateRight(v13 ^ v1, 32);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 24);
        v1 += v5 + m[8];
        v13 = Long.rotateRight(v13 ^ v1, 16);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 63);
        v2 += v6 + m[9];
        v14 = Long.rotateRight(v14 ^ v2, 32);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 24);
        v2 += v6 + m[15];
        v14 = Long.rotateRight(v14 ^ v2, 16);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 63);
        v3 += v7 + m[13];
        v15 = Long.rotateRight(v15 ^ v3, 32);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 24);
        v3 += v7 + m[6];
        v15 = Long.rotateRight(v15 ^ v3, 16);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 63);

        v0 += v5 + m[1];
        v15 = Long.rotateRight(v15 ^ v0, 32);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 24);
        v0 += v5 + m[12];
        v15 = Long.rotateRight(v15 ^ v0, 16);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 63);
        v1 += v6 + m[0];
        v12 = Long.rotateRight(v12 ^ v1, 32);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 24);
        v1 += v6 + m[2];
        v12 = Long.rotateRight(v12 ^ v1, 16);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 63);
        v2 += v7 + m[11];
        v13 = Long.rotateRight(v13 ^ v2, 32);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 24);
        v2 += v7 + m[7];
        v13 = Long.rotateRight(v13 ^ v2, 16);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 63);
        v3 += v4 + m[5];
        v14 = Long.rotateRight(v14 ^ v3, 32);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 24);
        v3 += v4 + m[3];
        v14 = Long.rotateRight(v14 ^ v3, 16);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 63);

        w0 = v0;
        w1 = v1;
        w2 = v2;
        w3 = v3;
        w4 = v4;
        w5 = v5;
        w6 = v6;
        w7 = v7;
        w8 = v8;
        w9 = v9;
        w10 = v10;
        w11 = v11;
        w12 = v12;
        w13 = v13;
        w14 = v14;
        w15 = v15;
    }

    private void rounds2And3() {
        long[] m = this.m;
        long v0 = w0, v1 = w1, v2 = w2, v3 = w3;
        long v4 = w4, v5 = w5, v6 = w6, v7 = w7;
        long v8 = w8, v9 = w9, v10 = w10, v11 = w11;
        long v12 = w12, v13 = w13, v14 = w14, v15 = w15;

        // Round 2, SIGMA row {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}.
        v0 += v4 + m[11];
        v12 = Long.rotateRight(v12 ^ v0, 32);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 24);
        v0 += v4 + m[8];
        v12 = Long.rotateRight(v12 ^ v0, 16);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 63);
        v1 += v5 + m[12];
        v13 = Long.rotateRight(v13 ^ v1, 32);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 24);
        v1 += v5 + m[0];
        v13 = Long.rotateRight(v13 ^ v1, 16);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 63);
        v2 += v6 + m[5];
        v14 = Long.rotateRight(v14 ^ v2, 32);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 24);
        v2 += v6 + m[2];
        v14 = Long.rotateRight(v14 ^ v2, 16);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 63);
        v3 += v7 + m[15];
        v15 = Long.rotateRight(v15 ^ v3, 32);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 24);
        v3 += v7 + m[13];
        v15 = Long.rotateRight(v15 ^ v3, 16);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 63);

        v0 += v5 + m[10];
        v15 = Long.rotateRight(v15 ^ v0, 32);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 24);
        v0 += v5 + m[14];
        v15 = Long.rotateRight(v15 ^ v0, 16);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 63);
        v1 += v6 + m[3];
        v12 = Long.rotateRight(v12 ^ v1, 32);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 24);
        v1 += v6 + m[6];
        v12 = Long.rotateRight(v12 ^ v1, 16);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 63);
        v2 += v7 + m[7];
        v13 = Long.rotateRight(v13 ^ v2, 32);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 24);
        v2 += v7 + m[1];
        v13 = Long.rotateRight(v13 ^ v2, 16);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 63);
        v3 += v4 + m[9];
        v14 = Long.rotateRight(v14 ^ v3, 32);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 24);
        v3 += v4 + m[4];
        v14 = Long.rotateRight(v14 ^ v3, 16);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 63);

        // Round 3, SIGMA row {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8}.
        v0 += v4 + m[7];
        v12 = Long.rotateRight(v12 ^ v0, 32);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 24);
        v0 += v4 + m[9];
        v12 = Long.rotateRight(v12 ^ v0, 16);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 63);
        v1 += v5 + m[3];
        v13 = Long.rotateRight(v13 ^ v1, 32);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 24);
        v1 += v5 + m[1];
        v13 = Long.rotateRight(v13 ^ v1, 16);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 63);
        v2 += v6 + m[13];
        v14 = Long.rotateRight(v14 ^ v2, 32);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 24);
        v2 += v6 + m[12];
        v14 = Long.rotateRight(v14 ^ v2, 16);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 63);
        v3 += v7 + m[11];
        v15 = Long.rotateRight(v15 ^ v3, 32);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 24);
        v3 += v7 + m[14];
        v15 = Long.rotateRight(v15 ^ v3, 16);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 63);

        v0 += v5 + m[2];
        v15 = Long.rotateRight(v15 ^ v0, 32);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 24);
        v0 += v5 + m[6];
        v15 = Long.rotateRight(v15 ^ v0, 16);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 63);
        v1 += v6 + m[5];
        v12 = Long.rotateRight(v12 ^ v1, 32);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 24);
        v1 += v6 + m[10];
        v12 = Long.rotateRight(v12 ^ v1, 16);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 63);
        v2 += v7 + m[4];
        v13 = Long.rotateRight(v13 ^ v2, 32);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 24);
        v2 += v7 + m[0];
        v13 = Long.rotateRight(v13 ^ v2, 16);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 63);
        v3 += v4 + m[15];
        v14 = Long.rotateRight(v14 ^ v3, 32);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 24);
        v3 += v4 + m[8];
        v14 = Long.rotateRight(v14 ^ v3, 16);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 63);

        w0 = v0;
        w1 = v1;
        w2 = v2;
        w3 = v3;
        w4 = v4;
        w5 = v5;
        w6 = v6;
        w7 = v7;
        w8 = v8;
        w9 = v9;
        w10 = v10;
        w11 = v11;
        w12 = v12;
        w13 = v13;
        w14 = v14;
        w15 = v15;
    }

    private void rounds4And5() {
        long[] m = this.m;
        long v0 = w0, v1 = w1, v2 = w2, v3 = w3;
        long v4 = w4, v5 = w5, v6 = w6, v7 = w7;
        long v8 = w8, v9 = w9, v10 = w10, v11 = w11;
        long v12 = w12, v13 = w13, v14 = w14, v15 = w15;

        // Round 4, SIGMA row {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}.
        v0 += v4 + m[9];
        v12 = Long.rotateRight(v12 ^ v0, 32);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 24);
        v0 += v4 + m[0];
        v12 = Long.rotateRight(v12 ^ v0, 16);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 63);
        v1 += v5 + m[5];
        v13 = Long.rotateRight(v13 ^ v1, 32);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 24);
        v1 += v5 + m[7];
        v13 = Long.rotateRight(v13 ^ v1, 16);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 63);
        v2 += v6 + m[2];
        v14 = Long.rotateRight(v14 ^ v2, 32);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 24);
        v2 += v6 + m[4];
        v14 = Long.rotateRight(v14 ^ v2, 16);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 63);
        v3 += v7 + m[10];
        v15 = Long.rotateRight(v15 ^ v3, 32);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 24);
        v3 += v7 + m[15];
        v15 = Long.rotateRight(v15 ^ v3, 16);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 63);

        v0 += v5 + m[14];
        v15 = Long.rotateRight(v15 ^ v0, 32);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 24);
        v0 += v5 + m[1];
        v15 = Long.rotateRight(v15 ^ v0, 16);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 63);
        v1 += v6 + m[11];
        v12 = Long.rotateRight(v12 ^ v1, 32);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 24);
        v1 += v6 + m[12];
        v12 = Long.rotateRight(v12 ^ v1, 16);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 63);
        v2 += v7 + m[6];
        v13 = Long.rotateRight(v13 ^ v2, 32);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 24);
        v2 += v7 + m[8];
        v13 = Long.rotateRight(v13 ^ v2, 16);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 63);
        v3 += v4 + m[3];
        v14 = Long.rotateRight(v14 ^ v3, 32);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 24);
        v3 += v4 + m[13];
        v14 = Long.rotateRight(v14 ^ v3, 16);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 63);

        // Round 5, SIGMA row {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9}.
        v0 += v4 + m[2];
        v12 = Long.rotateRight(v12 ^ v0, 32);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 24);
        v0 += v4 + m[12];
        v12 = Long.rotateRight(v12 ^ v0, 16);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 63);
        v1 += v5 + m[6];
        v13 = Long.rotateRight(v13 ^ v1, 32);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 24);
        v1 += v5 + m[10];
        v13 = Long.rotateRight(v13 ^ v1, 16);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 63);
        v2 += v6 + m[0];
        v14 = Long.rotateRight(v14 ^ v2, 32);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 24);
        v2 += v6 + m[11];
        v14 = Long.rotateRight(v14 ^ v2, 16);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 63);
        v3 += v7 + m[8];
        v15 = Long.rotateRight(v15 ^ v3, 32);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 24);
        v3 += v7 + m[3];
        v15 = Long.rotateRight(v15 ^ v3, 16);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 63);

        v0 += v5 + m[4];
        v15 = Long.rotateRight(v15 ^ v0, 32);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 24);
        v0 += v5 + m[13];
        v15 = Long.rotateRight(v15 ^ v0, 16);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 63);
        v1 += v6 + m[7];
        v12 = Long.rotateRight(v12 ^ v1, 32);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 24);
        v1 += v6 + m[5];
        v12 = Long.rotateRight(v12 ^ v1, 16);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 63);
        v2 += v7 + m[15];
        v13 = Long.rotateRight(v13 ^ v2, 32);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 24);
        v2 += v7 + m[14];
        v13 = Long.rotateRight(v13 ^ v2, 16);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 63);
        v3 += v4 + m[1];
        v14 = Long.rotateRight(v14 ^ v3, 32);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 24);
        v3 += v4 + m[9];
        v14 = Long.rotateRight(v14 ^ v3, 16);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 63);

        w0 = v0;
        w1 = v1;
        w2 = v2;
        w3 = v3;
        w4 = v4;
        w5 = v5;
        w6 = v6;
        w7 = v7;
        w8 = v8;
        w9 = v9;
        w10 = v10;
        w11 = v11;
        w12 = v12;
        w13 = v13;
        w14 = v14;
        w15 = v15;
    }

    private void rounds6And7() {
        long[] m = this.m;
        long v0 = w0, v1 = w1, v2 = w2, v3 = w3;
        long v4 = w4, v5 = w5, v6 = w6, v7 = w7;
        long v8 = w8, v9 = w9, v10 = w10, v11 = w11;
        long v12 = w12, v13 = w13, v14 = w14, v15 = w15;

        // Round 6, SIGMA row {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}.
        v0 += v4 + m[12];
        v12 = Long.rotateRight(v12 ^ v0, 32);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 24);
        v0 += v4 + m[5];
        v12 = Long.rotateRight(v12 ^ v0, 16);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 63);
        v1 += v5 + m[1];
        v13 = Long.rotateRight(v13 ^ v1, 32);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 24);
        v1 += v5 + m[15];
        v13 = Long.rotateRight(v13 ^ v1, 16);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 63);
        v2 += v6 + m[14];
        v14 = Long.rotateRight(v14 ^ v2, 32);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 24);
        v2 += v6 + m[13];
        v14 = Long.rotateRight(v14 ^ v2, 16);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 63);
        v3 += v7 + m[4];
        v15 = Long.rotateRight(v15 ^ v3, 32);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 24);
        v3 += v7 + m[10];
        v15 = Long.rotateRight(v15 ^ v3, 16);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 63);

        v0 += v5 + m[0];
        v15 = Long.rotateRight(v15 ^ v0, 32);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 24);
        v0 += v5 + m[7];
        v15 = Long.rotateRight(v15 ^ v0, 16);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 63);
        v1 += v6 + m[6];
        v12 = Long.rotateRight(v12 ^ v1, 32);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 24);
        v1 += v6 + m[3];
        v12 = Long.rotateRight(v12 ^ v1, 16);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 63);
        v2 += v7 + m[9];
        v13 = Long.rotateRight(v13 ^ v2, 32);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 24);
        v2 += v7 + m[2];
        v13 = Long.rotateRight(v13 ^ v2, 16);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 63);
        v3 += v4 + m[8];
        v14 = Long.rotateRight(v14 ^ v3, 32);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 24);
        v3 += v4 + m[11];
        v14 = Long.rotateRight(v14 ^ v3, 16);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 63);

        // Round 7, SIGMA row {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10}.
        v0 += v4 + m[13];
        v12 = Long.rotateRight(v12 ^ v0, 32);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 24);
        v0 += v4 + m[11];
        v12 = Long.rotateRight(v12 ^ v0, 16);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 63);
        v1 += v5 + m[7];
        v13 = Long.rotateRight(v13 ^ v1, 32);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 24);
        v1 += v5 + m[14];
        v13 = Long.rotateRight(v13 ^ v1, 16);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 63);
        v2 += v6 + m[12];
        v14 = Long.rotateRight(v14 ^ v2, 32);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 24);
        v2 += v6 + m[1];
        v14 = Long.rotateRight(v14 ^ v2, 16);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 63);
        v3 += v7 + m[3];
        v15 = Long.rotateRight(v15 ^ v3, 32);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 24);
        v3 += v7 + m[9];
        v15 = Long.rotateRight(v15 ^ v3, 16);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 63);

        v0 += v5 + m[5];
        v15 = Long.rotateRight(v15 ^ v0, 32);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 24);
        v0 += v5 + m[0];
        v15 = Long.rotateRight(v15 ^ v0, 16);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 63);
        v1 += v6 + m[15];
        v12 = Long.rotateRight(v12 ^ v1, 32);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 24);
        v1 += v6 + m[4];
        v12 = Long.rotateRight(v12 ^ v1, 16);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 63);
        v2 += v7 + m[8];
        v13 = Long.rotateRight(v13 ^ v2, 32);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 24);
        v2 += v7 + m[6];
        v13 = Long.rotateRight(v13 ^ v2, 16);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 63);
        v3 += v4 + m[2];
        v14 = Long.rotateRight(v14 ^ v3, 32);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 24);
        v3 += v4 + m[10];
        v14 = Long.rotateRight(v14 ^ v3, 16);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 63);

        w0 = v0;
        w1 = v1;
        w2 = v2;
        w3 = v3;
        w4 = v4;
        w5 = v5;
        w6 = v6;
        w7 = v7;
        w8 = v8;
        w9 = v9;
        w10 = v10;
        w11 = v11;
        w12 = v12;
        w13 = v13;
        w14 = v14;
        w15 = v15;
    }

    private void rounds8And9() {
        long[] m = this.m;
        long v0 = w0, v1 = w1, v2 = w2, v3 = w3;
        long v4 = w4, v5 = w5, v6 = w6, v7 = w7;
        long v8 = w8, v9 = w9, v10 = w10, v11 = w11;
        long v12 = w12, v13 = w13, v14 = w14, v15 = w15;

        // Round 8, SIGMA row {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}.
        v0 += v4 + m[6];
        v12 = Long.rotateRight(v12 ^ v0, 32);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 24);
        v0 += v4 + m[15];
        v12 = Long.rotateRight(v12 ^ v0, 16);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 63);
        v1 += v5 + m[14];
        v13 = Long.rotateRight(v13 ^ v1, 32);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 24);
        v1 += v5 + m[9];
        v13 = Long.rotateRight(v13 ^ v1, 16);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 63);
        v2 += v6 + m[11];
        v14 = Long.rotateRight(v14 ^ v2, 32);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 24);
        v2 += v6 + m[3];
        v14 = Long.rotateRight(v14 ^ v2, 16);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 63);
        v3 += v7 + m[0];
        v15 = Long.rotateRight(v15 ^ v3, 32);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 24);
        v3 += v7 + m[8];
        v15 = Long.rotateRight(v15 ^ v3, 16);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 63);

        v0 += v5 + m[12];
        v15 = Long.rotateRight(v15 ^ v0, 32);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 24);
        v0 += v5 + m[2];
        v15 = Long.rotateRight(v15 ^ v0, 16);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 63);
        v1 += v6 + m[13];
        v12 = Long.rotateRight(v12 ^ v1, 32);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 24);
        v1 += v6 + m[7];
        v12 = Long.rotateRight(v12 ^ v1, 16);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 63);
        v2 += v7 + m[1];
        v13 = Long.rotateRight(v13 ^ v2, 32);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 24);
        v2 += v7 + m[4];
        v13 = Long.rotateRight(v13 ^ v2, 16);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 63);
        v3 += v4 + m[10];
        v14 = Long.rotateRight(v14 ^ v3, 32);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 24);
        v3 += v4 + m[5];
        v14 = Long.rotateRight(v14 ^ v3, 16);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 63);

        // Round 9, SIGMA row {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0}.
        v0 += v4 + m[10];
        v12 = Long.rotateRight(v12 ^ v0, 32);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 24);
        v0 += v4 + m[2];
        v12 = Long.rotateRight(v12 ^ v0, 16);
        v8 += v12;
        v4 = Long.rotateRight(v4 ^ v8, 63);
        v1 += v5 + m[8];
        v13 = Long.rotateRight(v13 ^ v1, 32);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 24);
        v1 += v5 + m[4];
        v13 = Long.rotateRight(v13 ^ v1, 16);
        v9 += v13;
        v5 = Long.rotateRight(v5 ^ v9, 63);
        v2 += v6 + m[7];
        v14 = Long.rotateRight(v14 ^ v2, 32);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 24);
        v2 += v6 + m[6];
        v14 = Long.rotateRight(v14 ^ v2, 16);
        v10 += v14;
        v6 = Long.rotateRight(v6 ^ v10, 63);
        v3 += v7 + m[1];
        v15 = Long.rotateRight(v15 ^ v3, 32);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 24);
        v3 += v7 + m[5];
        v15 = Long.rotateRight(v15 ^ v3, 16);
        v11 += v15;
        v7 = Long.rotateRight(v7 ^ v11, 63);

        v0 += v5 + m[15];
        v15 = Long.rotateRight(v15 ^ v0, 32);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 24);
        v0 += v5 + m[11];
        v15 = Long.rotateRight(v15 ^ v0, 16);
        v10 += v15;
        v5 = Long.rotateRight(v5 ^ v10, 63);
        v1 += v6 + m[9];
        v12 = Long.rotateRight(v12 ^ v1, 32);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 24);
        v1 += v6 + m[14];
        v12 = Long.rotateRight(v12 ^ v1, 16);
        v11 += v12;
        v6 = Long.rotateRight(v6 ^ v11, 63);
        v2 += v7 + m[3];
        v13 = Long.rotateRight(v13 ^ v2, 32);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 24);
        v2 += v7 + m[12];
        v13 = Long.rotateRight(v13 ^ v2, 16);
        v8 += v13;
        v7 = Long.rotateRight(v7 ^ v8, 63);
        v3 += v4 + m[13];
        v14 = Long.rotateRight(v14 ^ v3, 32);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 24);
        v3 += v4 + m[0];
        v14 = Long.rotateRight(v14 ^ v3, 16);
        v9 += v14;
        v4 = Long.rotateRight(v4 ^ v9, 63);

        w0 = v0;
        w1 = v1;
        w2 = v2;
        w3 = v3;
        w4 = v4;
        w5 = v5;
        w6 = v6;
        w7 = v7;
        w8 = v8;
        w9 = v9;
        w10 = v10;
        w11 = v11;
        w12 = v12;
        w13 = v13;
        w14 = v14;
        w15 = v15;
    }
}

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

import org.bouncycastle.crypto.digests.Blake2bDigest;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Random;

/**
 * Nanoseconds per fingerprint of 16-, 100- and 1000-byte values: {@link IggyFingerprint#of} (our
 * BLAKE2b-128, one hasher per thread), our hasher allocated per call, and BouncyCastle's BLAKE2b
 * held per thread as {@code IggyFingerprint} did before. Not a test; it prints figures.
 *
 * <p>Times are thread CPU time, the best of several rounds, because the build machines are shared.
 * Run it with the module's test class path (from an IDE, or {@code java -cp
 * target/test-classes:target/classes:<flink-annotations jar>:<bcprov jar>}). Argument (optional):
 * the number of rounds, default 10.
 */
public final class IggyFingerprintBenchmark {

    private static final int[] SIZES = {16, 100, 1000};
    private static final int VALUES = 64;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static final ThreadLocal<Blake2bDigest> BOUNCY_CASTLE =
            ThreadLocal.withInitial(() -> new Blake2bDigest(IggyFingerprint.SIZE * 8));

    /** Keeps the JIT from discarding the digests. */
    private static volatile long sink;

    private IggyFingerprintBenchmark() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        String[] names = {
            "ours (IggyFingerprint.of)", "ours, new hasher per call", "BouncyCastle, per thread"
        };
        double[][] best = new double[names.length][SIZES.length];
        for (double[] row : best) {
            Arrays.fill(row, Double.MAX_VALUE);
        }
        Random random = new Random(1);
        for (int round = 0; round < rounds; round++) {
            for (int s = 0; s < SIZES.length; s++) {
                byte[][] values = new byte[VALUES][SIZES[s]];
                for (byte[] value : values) {
                    random.nextBytes(value);
                }
                int iterations = 20_000_000 / (SIZES[s] + 100);
                for (int h = 0; h < names.length; h++) {
                    best[h][s] = Math.min(best[h][s], nanosPerCall(h, values, iterations));
                }
            }
        }
        for (int h = 0; h < names.length; h++) {
            StringBuilder line = new StringBuilder(String.format("%-27s", names[h]));
            for (int s = 0; s < SIZES.length; s++) {
                line.append(String.format("  %4d B: %7.1f ns", SIZES[s], best[h][s]));
            }
            System.out.println(line.append("  (best of ").append(rounds).append(')'));
        }
    }

    /** One loop for all, with plain static calls so that each is inlined like in real use. */
    private static double nanosPerCall(int hasher, byte[][] values, int iterations) {
        long checksum = 0;
        long start = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < iterations; i++) {
            byte[] value = values[i % VALUES];
            byte[] digest =
                    hasher == 0
                            ? IggyFingerprint.of(value)
                            : hasher == 1 ? newHasherPerCall(value) : bouncyCastle(value);
            checksum += digest[0];
        }
        long elapsed = THREADS.getCurrentThreadCpuTime() - start;
        sink = checksum;
        return (double) elapsed / iterations;
    }

    private static byte[] newHasherPerCall(byte[] value) {
        Blake2b128 hasher = new Blake2b128();
        hasher.update(value, 0, value.length);
        byte[] out = new byte[Blake2b128.DIGEST_LENGTH];
        hasher.digest(out, 0);
        return out;
    }

    private static byte[] bouncyCastle(byte[] value) {
        Blake2bDigest digest = BOUNCY_CASTLE.get();
        digest.update(value, 0, value.length);
        byte[] out = new byte[IggyFingerprint.SIZE];
        digest.doFinal(out, 0);
        return out;
    }
}

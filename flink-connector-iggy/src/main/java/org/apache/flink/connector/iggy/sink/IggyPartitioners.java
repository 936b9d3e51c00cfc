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

import org.apache.flink.annotation.PublicEvolving;

import org.apache.commons.codec.digest.XXHash32;

import javax.annotation.Nullable;

/** The built-in partitioners: fixed partition, balanced round-robin, and by key. */
@PublicEvolving
public final class IggyPartitioners {

    private IggyPartitioners() {}

    /** Every record to {@code partition} (default 0). */
    public static <T> IggyPartitioner<T> fixed(long partition) {
        if (partition < 0 || partition > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(
                    "An Iggy partition id is an unsigned 32-bit number, but is " + partition);
        }
        return new Fixed<>(partition);
    }

    /** Records spread round-robin over all partitions, each writer starting at its own index. */
    public static <T> IggyPartitioner<T> balanced() {
        return new Balanced<>();
    }

    /**
     * Records with equal keys to the same partition: XXH32 (seed 0) of the key bytes, unsigned,
     * modulo the partition count, exactly as Iggy's own messages-key partitioning does. Needs a key
     * serializer in the schema.
     */
    public static <T> IggyPartitioner<T> byKey() {
        return new ByKey<>();
    }

    /** The partition Iggy chooses for messages sent with {@code Partitioning.messagesKey(key)}. */
    public static long partitionForKey(byte[] key, int partitionCount) {
        XXHash32 hash = new XXHash32(0);
        hash.update(key, 0, key.length);
        return hash.getValue() % partitionCount;
    }

    private static final class Fixed<T> implements IggyPartitioner<T> {
        private static final long serialVersionUID = 1L;
        private final long partition;

        private Fixed(long partition) {
            this.partition = partition;
        }

        @Override
        public long partition(T record, @Nullable byte[] key, byte[] payload, int count) {
            return partition;
        }

        @Override
        public String toString() {
            return "fixed partition " + partition;
        }
    }

    private static final class Balanced<T> implements IggyPartitioner<T> {
        private static final long serialVersionUID = 1L;
        private transient int next;

        @Override
        public void open(IggySinkContext context) {
            next = context.subtaskId();
        }

        @Override
        public long partition(T record, @Nullable byte[] key, byte[] payload, int count) {
            int partition = Math.floorMod(next, count);
            next = partition + 1;
            return partition;
        }

        @Override
        public String toString() {
            return "balanced";
        }
    }

    static final class ByKey<T> implements IggyPartitioner<T> {
        private static final long serialVersionUID = 1L;

        @Override
        public long partition(T record, @Nullable byte[] key, byte[] payload, int count) {
            if (key == null) {
                throw new IllegalStateException(
                        "Partitioning by key needs key bytes: set a key serialization schema.");
            }
            return partitionForKey(key, count);
        }

        @Override
        public String toString() {
            return "by key";
        }
    }
}

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
package org.apache.flink.connector.iggy.sink.internal.writer;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.IggySinkContext;

import org.apache.commons.codec.digest.XXHash32;

import javax.annotation.Nullable;

/** The partitioners the builders offer: one partition, round-robin, by key. */
@Internal
public final class Partitioners {

    private Partitioners() {}

    public static long partitionForKey(byte[] key, int partitionCount) {
        XXHash32 hash = new XXHash32(0);
        hash.update(key, 0, key.length);
        return hash.getValue() % partitionCount;
    }

    /** Every record to one partition. */
    public record Fixed<T>(long partition) implements IggyPartitioner<T> {
        private static final long serialVersionUID = 1L;

        @Override
        public long partition(
                T record, @Nullable byte[] key, byte[] payload, IggySinkContext context) {
            return partition;
        }

        @Override
        public String toString() {
            return "partition " + partition;
        }
    }

    public static final class RoundRobin<T> implements IggyPartitioner<T> {
        private static final long serialVersionUID = 1L;
        private transient int next;

        @Override
        public void open(IggySinkContext context) {
            next = context.subtaskId();
        }

        @Override
        public long partition(
                T record, @Nullable byte[] key, byte[] payload, IggySinkContext context) {
            int partition = Math.floorMod(next, context.partitionCount());
            next = partition + 1;
            return partition;
        }

        @Override
        public String toString() {
            return "round-robin";
        }
    }

    /** The builders make sure there is a key serializer; a null key is the serializer's fault. */
    public static final class ByKey<T> implements IggyPartitioner<T> {
        private static final long serialVersionUID = 1L;

        @Override
        public long partition(
                T record, @Nullable byte[] key, byte[] payload, IggySinkContext context) {
            if (key == null) {
                throw new IggyConnectorException(
                        "Partitioning by key needs key bytes, but the key serialization schema"
                                + " returned null for a record. Make it return bytes for every"
                                + " record.");
            }
            return partitionForKey(key, context.partitionCount());
        }

        @Override
        public String toString() {
            return "by key";
        }
    }
}

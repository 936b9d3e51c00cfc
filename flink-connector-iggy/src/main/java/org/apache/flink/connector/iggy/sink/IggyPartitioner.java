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
import org.apache.flink.connector.iggy.sink.internal.writer.Partitioners;

import javax.annotation.Nullable;

import java.io.Serializable;

/**
 * Chooses the target partition of a record ({@link IggySinkBuilder#setPartitioner}); the writer
 * chooses, not the server, so that every batch goes to one partition.
 *
 * @param <T> the sink's record type
 */
@PublicEvolving
@FunctionalInterface
public interface IggyPartitioner<T> extends Serializable {

    /** Called once per writer before the first record, before it connects. */
    default void open(IggySinkContext context) {}

    /**
     * The partition id for {@code record}, in {@code [0, context.partitionCount())}.
     *
     * @param key the record's key bytes if the sink has a key serializer, else {@code null}
     * @param payload the record's message payload
     */
    long partition(T record, @Nullable byte[] key, byte[] payload, IggySinkContext context);

    /** Records spread round-robin over all partitions, each writer starting at its own index. */
    static <T> IggyPartitioner<T> roundRobin() {
        return new Partitioners.RoundRobin<>();
    }

    /**
     * The partition Iggy's messages-key partitioning chooses for {@code key}: XXH32 (seed 0) of the
     * key bytes, unsigned, modulo the partition count, as {@code setPartitionByKey()} does.
     */
    static long partitionForKey(byte[] key, int partitionCount) {
        return Partitioners.partitionForKey(key, partitionCount);
    }
}

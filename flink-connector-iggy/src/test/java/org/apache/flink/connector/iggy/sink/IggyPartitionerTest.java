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

import org.apache.flink.connector.iggy.sink.internal.writer.Partitioners;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggyPartitionerTest {

    /** XXH32 vectors of docs/development/iggy-protocol.md §7.1, modulo 3 as the server computes. */
    @ParameterizedTest
    @CsvSource({"test-key, 2523710439", "key-1, 962816521", "user-123, 214559884"})
    void keyPartitioningIsIggysXxh32ModuloCount(String key, long xxh32) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        assertThat(IggyPartitioner.partitionForKey(bytes, 3)).isEqualTo(xxh32 % 3);
        assertThat(IggyPartitioner.partitionForKey(bytes, 1_000_000)).isEqualTo(xxh32 % 1_000_000);
        assertThat(
                        new Partitioners.ByKey<String>()
                                .partition("x", bytes, new byte[0], TestSinkContext.partitions(7)))
                .isEqualTo(xxh32 % 7);
    }

    @Test
    void emptyKeyHashesToTheStandardXxh32Value() {
        assertThat(IggyPartitioner.partitionForKey(new byte[0], Integer.MAX_VALUE))
                .isEqualTo(46947589L % Integer.MAX_VALUE);
    }

    @Test
    void byKeyWithoutKeyBytesIsAClearError() {
        assertThatThrownBy(
                        () ->
                                new Partitioners.ByKey<String>()
                                        .partition(
                                                "x",
                                                null,
                                                new byte[0],
                                                TestSinkContext.partitions(3)))
                .hasMessageContaining("key serialization schema");
    }

    @Test
    void fixedAlwaysReturnsItsPartition() {
        IggyPartitioner<String> fixed = new Partitioners.Fixed<>(2);
        assertThat(fixed.partition("a", null, new byte[0], TestSinkContext.partitions(3)))
                .isEqualTo(2);
        assertThat(fixed.partition("b", null, new byte[0], TestSinkContext.partitions(3)))
                .isEqualTo(2);
    }

    @Test
    void roundRobinCyclesThroughAllPartitionsStartingAtTheSubtask() {
        IggyPartitioner<String> balanced = IggyPartitioner.roundRobin();
        TestSinkContext context = new TestSinkContext(1, 2, 3, null);
        balanced.open(context);
        List<Long> partitions = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            partitions.add(balanced.partition("r", null, new byte[0], context));
        }
        assertThat(partitions).containsExactly(1L, 2L, 0L, 1L, 2L, 0L);
    }
}

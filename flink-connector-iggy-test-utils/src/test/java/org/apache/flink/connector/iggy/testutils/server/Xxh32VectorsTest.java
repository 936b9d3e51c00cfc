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
package org.apache.flink.connector.iggy.testutils.server;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The XXH32 (seed 0) vectors of docs/development/iggy-protocol.md §7.1, used for messages-key
 * partitioning and for the offset key of named consumers.
 */
class Xxh32VectorsTest {

    @Test
    void matchesTheReferenceVectors() {
        assertThat(hash("")).isEqualTo(46_947_589L);
        assertThat(hash("test-key")).isEqualTo(2_523_710_439L);
        assertThat(hash("key-1")).isEqualTo(962_816_521L);
        assertThat(hash("user-123")).isEqualTo(214_559_884L);
    }

    @Test
    void isUnsignedSoTheModuloIsNeverNegative() {
        assertThat(hash("test-key") % 3).isZero();
        assertThat(hash("key-1") % 3).isEqualTo(1);
        assertThat(hash("user-123") % 3).isEqualTo(1);
    }

    private static long hash(String key) {
        return ConsumerRef.xxh32(key.getBytes(StandardCharsets.UTF_8));
    }
}

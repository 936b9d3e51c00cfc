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

import static org.assertj.core.api.Assertions.assertThat;

/** Slab-like id reuse (docs/development/iggy-protocol.md §4). */
class IdAllocatorTest {

    @Test
    void freedIdsAreReusedMostRecentlyFreedFirst() {
        IdAllocator ids = new IdAllocator();
        assertThat(ids.allocate()).isZero();
        assertThat(ids.allocate()).isEqualTo(1);
        assertThat(ids.allocate()).isEqualTo(2);

        ids.free(0);
        ids.free(2);

        assertThat(ids.allocate()).isEqualTo(2);
        assertThat(ids.allocate()).isZero();
        assertThat(ids.allocate()).isEqualTo(3);
    }
}

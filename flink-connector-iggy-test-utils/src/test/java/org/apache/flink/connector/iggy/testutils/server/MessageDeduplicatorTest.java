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

/** The id window of deduplication: size bound and expiry, driven by explicit timestamps. */
class MessageDeduplicatorTest {

    @Test
    void anIdIsRefusedWithinTheWindowAndAcceptedAfterItExpires() {
        MessageDeduplicator deduplicator = new MessageDeduplicator(10, 1_000);

        assertThat(deduplicator.recordIfNew(1, 0, 0)).isTrue();
        assertThat(deduplicator.recordIfNew(1, 0, 999)).isFalse();
        assertThat(deduplicator.recordIfNew(1, 0, 1_000)).isTrue();
    }

    @Test
    void theOldestIdIsForgottenBeyondMaxEntries() {
        MessageDeduplicator deduplicator = new MessageDeduplicator(2, 1_000_000);

        deduplicator.recordIfNew(1, 0, 0);
        deduplicator.recordIfNew(2, 0, 0);
        deduplicator.recordIfNew(3, 0, 0);

        assertThat(deduplicator.recordIfNew(1, 0, 1)).isTrue();
        assertThat(deduplicator.recordIfNew(3, 0, 1)).isFalse();
    }

    @Test
    void bothHalvesOfTheIdCount() {
        MessageDeduplicator deduplicator = new MessageDeduplicator(10, 1_000);

        deduplicator.recordIfNew(1, 2, 0);

        assertThat(deduplicator.recordIfNew(1, 3, 0)).isTrue();
        assertThat(deduplicator.recordIfNew(2, 2, 0)).isTrue();
        assertThat(deduplicator.recordIfNew(1, 2, 0)).isFalse();
    }
}

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
package org.apache.flink.connector.iggy.common;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The names a misspelt option, stream or topic most likely meant. */
class DidYouMeanTest {

    @Test
    void allowsOneEditInFourCharacters() {
        List<String> known = List.of("scan.startup.mode", "scan.bounded.mode", "topic");

        assertThat(DidYouMean.closest("scan.startup.mod", known))
                .containsExactly("scan.startup.mode");
        assertThat(DidYouMean.closest("scan_startup_mode", known))
                .containsExactly("scan.startup.mode");
        assertThat(DidYouMean.closest("topc", known)).containsExactly("topic");
        assertThat(DidYouMean.closest("stream", known)).isEmpty();
    }

    @Test
    void aSwapOfNeighboursIsOneEdit() {
        assertThat(DidYouMean.distance("ordres", "orders")).isEqualTo(1);
        assertThat(DidYouMean.closest("ordres", List.of("orders", "payments")))
                .containsExactly("orders");
    }

    @Test
    void namesEveryCandidateEquallyClose() {
        List<String> topics = List.of("events-eu", "events-us", "events", "orders");

        assertThat(DidYouMean.closest("events-usa", topics)).containsExactly("events-us");
        assertThat(DidYouMean.closest("events-xx", topics))
                .containsExactly("events-eu", "events-us");
        assertThat(DidYouMean.hint("events-xx", topics))
                .isEqualTo(" (did you mean 'events-eu' or 'events-us'?)");
        assertThat(DidYouMean.hint("evnts", topics)).isEqualTo(" (did you mean 'events'?)");
    }

    @Test
    void theNameItselfAndFarNamesGiveNoHint() {
        assertThat(DidYouMean.hint("events", List.of("events"))).isEmpty();
        assertThat(DidYouMean.hint("payments", List.of("events", "orders"))).isEmpty();
        assertThat(DidYouMean.hint("events", List.of())).isEmpty();
    }
}

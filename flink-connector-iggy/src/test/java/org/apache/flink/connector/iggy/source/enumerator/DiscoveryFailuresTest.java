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
package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.metrics.SimpleCounter;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The policy of failed partition discoveries and its {@code discoveryFailures} counter. */
class DiscoveryFailuresTest {

    private final SimpleCounter counter = new SimpleCounter();
    private final DiscoveryFailures failures = new DiscoveryFailures(counter);

    @Test
    void countsEveryFailureAndFailsOnlyAfterFiveInARow() {
        RuntimeException timeout = new IllegalStateException("timed out");
        for (int i = 1; i < DiscoveryFailures.MAX_CONSECUTIVE; i++) {
            assertThat(failures.failed("topic 't'", timeout)).as("failure %s", i).isNull();
        }
        failures.succeeded();
        for (int i = 1; i < DiscoveryFailures.MAX_CONSECUTIVE; i++) {
            assertThat(failures.failed("topic 't'", timeout)).isNull();
        }
        assertThat(failures.failed("topic 't'", timeout))
                .hasMessageContaining("failed 5 times in a row for topic 't'")
                .hasMessageContaining("timed out");
        assertThat(counter.getCount()).isEqualTo(2L * DiscoveryFailures.MAX_CONSECUTIVE - 1);
    }

    @Test
    void aConfigurationErrorFailsAtOnceAndKeepsItsCauseForFlinksNoRestart() {
        IggyConfigurationException denied =
                new IggyConfigurationException("The Iggy server denied the permission");

        assertThat(failures.failed("topic 't'", denied))
                .hasMessageContaining("Partition discovery failed for topic 't'")
                .hasCause(denied);
        assertThat(counter.getCount()).isOne();
    }
}

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
package org.apache.flink.connector.iggy.benchmark;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The arithmetic of {@link SteadyRate}, on made-up samples. */
class SteadyRateTest {

    private static final long MILLI = 1_000_000L;

    @Test
    void aStaircaseOfCommitsHasItsAverageRate() {
        // 1,000 records a second, appended as one step of 10,000 every 10 s after a 12 s start,
        // sampled every 100 ms for 100 s: the slope is the average rate, not a step's.
        List<SteadyRate.Sample> samples = new ArrayList<>();
        for (long millis = 0; millis <= 100_000; millis += 100) {
            long steps = millis < 12_000 ? 0 : (millis - 12_000) / 10_000 + 1;
            samples.add(new SteadyRate.Sample(millis * MILLI, Math.min(90_000, steps * 10_000)));
        }
        SinkRate.Measured measured = SteadyRate.steady(samples, 90_000);
        assertThat(measured.recordsPerSecond()).isCloseTo(1000, within(50.0));
        // the middle 60 % of the 12 s .. 92 s between the first append and the last
        assertThat(measured.fromNanos()).isEqualTo(28_000 * MILLI);
        assertThat(measured.toNanos()).isEqualTo(76_000 * MILLI);
    }

    @Test
    void anEvenStreamHasItsRate() {
        List<SteadyRate.Sample> samples = new ArrayList<>();
        for (long millis = 0; millis <= 30_000; millis += 100) {
            samples.add(new SteadyRate.Sample(millis * MILLI, millis * 2));
        }
        assertThat(SteadyRate.steady(samples, 60_000).recordsPerSecond())
                .isCloseTo(2000, within(0.01));
    }

    @Test
    void aRunTooShortForTheMiddleIsRefused() {
        List<SteadyRate.Sample> samples = new ArrayList<>();
        for (long millis = 0; millis <= 2_000; millis += 100) {
            samples.add(new SteadyRate.Sample(millis * MILLI, millis));
        }
        assertThatThrownBy(() -> SteadyRate.steady(samples, 2_000))
                .hasMessageContaining("give it more records");
    }

    @Test
    void samplesThatNeverSawTheLastAppendAreRefused() {
        List<SteadyRate.Sample> samples = List.of(new SteadyRate.Sample(0, 5));
        assertThatThrownBy(() -> SteadyRate.steady(samples, 100))
                .hasMessageContaining("never saw the first and the last append");
    }
}

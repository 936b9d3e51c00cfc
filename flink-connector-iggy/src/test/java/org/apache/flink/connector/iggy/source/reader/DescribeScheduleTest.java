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
package org.apache.flink.connector.iggy.source.reader;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** When a split reader describes its topic: the pace, the back-off and the spread. */
class DescribeScheduleTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** A schedule with the default back-off: 250 times the longest delay. */
    private static DescribeSchedule schedule(long minMillis, long maxMillis) {
        return new DescribeSchedule(
                Duration.ofMillis(minMillis),
                Duration.ofMillis(maxMillis),
                Duration.ofMillis(maxMillis * 250),
                0);
    }

    @Test
    void byDefaultDescribesAtTheStepOfThePollInterval() {
        DescribeSchedule schedule = schedule(100, 100);
        schedule.described(0, 4);
        assertThat(schedule.delayNanos(0)).isEqualTo(100 * MS);
        assertThat(schedule.delayNanos(60_000 * MS)).isEqualTo(100 * MS);
    }

    @Test
    void aShortMinimumBacksOffWithTheTimeSinceData() {
        DescribeSchedule schedule = schedule(4, 100);
        schedule.described(0, 4);
        assertThat(schedule.delayNanos(0)).isBetween(4 * MS, 5 * MS);
        assertThat(schedule.delayNanos(500 * MS))
                .as("the first second after data")
                .isBetween(4 * MS, 5 * MS);
        assertThat(schedule.delayNanos(2000 * MS)).isEqualTo(8 * MS);
        assertThat(schedule.delayNanos(60_000 * MS)).isEqualTo(100 * MS);
        schedule.described(0, 1000);
        assertThat(schedule.delayNanos(0))
                .as("describing many partitions costs more")
                .isEqualTo(24 * MS);
    }

    @Test
    void theBackOffIsTheQuietTimeAfterWhichTheDelayIsTheLongest() {
        DescribeSchedule schedule =
                new DescribeSchedule(
                        Duration.ofMillis(4), Duration.ofMillis(100), Duration.ofSeconds(10), 0);
        schedule.described(0, 0);
        assertThat(schedule.delayNanos(0)).isEqualTo(4 * MS);
        assertThat(schedule.delayNanos(400 * MS))
                .as("the shortest delay until it is the quiet time's share")
                .isEqualTo(4 * MS);
        assertThat(schedule.delayNanos(2_000 * MS))
                .as("in proportion to the quiet time: 2 s of 10 s")
                .isEqualTo(20 * MS);
        assertThat(schedule.delayNanos(5_000 * MS)).isEqualTo(50 * MS);
        assertThat(schedule.delayNanos(10_000 * MS)).isEqualTo(100 * MS);
        assertThat(schedule.delayNanos(3_600_000 * MS)).isEqualTo(100 * MS);
    }

    @Test
    void aBackOffOfHoursDoesNotOverflow() {
        DescribeSchedule schedule =
                new DescribeSchedule(
                        Duration.ofMillis(4), Duration.ofSeconds(60), Duration.ofHours(10), 0);
        schedule.described(0, 0);
        assertThat(schedule.delayNanos(TimeUnit.HOURS.toNanos(5)))
                .isEqualTo(TimeUnit.SECONDS.toNanos(30));
        assertThat(schedule.delayNanos(TimeUnit.HOURS.toNanos(11)))
                .isEqualTo(TimeUnit.SECONDS.toNanos(60));
    }

    @Test
    void spreadsTheDescriptionsOfReadersStartedTogether() {
        Set<Long> firstDelays = new HashSet<>();
        for (int reader = 0; reader < 20; reader++) {
            DescribeSchedule schedule = schedule(100, 100);
            schedule.described(0, 4);
            long delay = schedule.nanosUntilDue(0);
            assertThat(delay).isBetween(80 * MS, 120 * MS);
            firstDelays.add(delay / MS);
        }
        assertThat(firstDelays).as("distinct delays in ms").hasSizeGreaterThan(5);
    }

    @Test
    void dataBringsTheNextDescriptionForwardNeverBack() {
        DescribeSchedule schedule = schedule(4, 100);
        schedule.described(60_000 * MS, 4);
        assertThat(schedule.nanosUntilDue(60_000 * MS)).isGreaterThanOrEqualTo(80 * MS);
        schedule.caughtUpAfterData(60_001 * MS);
        assertThat(schedule.nanosUntilDue(60_001 * MS)).isBetween(3 * MS, 6 * MS);
        schedule.waitLongest(60_001 * MS);
        assertThat(schedule.nanosUntilDue(60_001 * MS)).isEqualTo(100 * MS);
    }
}

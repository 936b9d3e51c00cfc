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

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * When the split reader next describes its topic to learn whether watched partitions grew (Iggy 0.8
 * has no long poll): the delay trades an idle reader's CPU against its latency.
 *
 * <p>Right after data (or new partitions) the delay is {@code minInterval} plus {@link
 * #DELAY_PER_PARTITION_NANOS} per partition; it then grows with the quiet time, reaching {@code
 * maxInterval} after {@code backOff}. Every delay is drawn within ±{@link #JITTER_PERCENT}%, so
 * that readers started together do not describe in lock-step.
 *
 * <p>Fetcher thread only. Not final: a test counts how often readers ask it whether a topic is due.
 */
class DescribeSchedule {

    /** Each partition adds this to the shortest delay: a description costs more. */
    static final long DELAY_PER_PARTITION_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    static final int JITTER_PERCENT = 20;

    private final long minNanos;
    private final long maxNanos;
    private final long backOffNanos;
    private int topicPartitions;
    private long nextAtNanos;

    /** When data last arrived, or partitions were added: the back-off counts from here. */
    private long lastDataNanos;

    DescribeSchedule(Duration minInterval, Duration maxInterval, Duration backOff, long nowNanos) {
        this.minNanos = minInterval.toNanos();
        this.maxNanos = Math.max(minNanos, maxInterval.toNanos());
        this.backOffNanos = Math.max(1, backOff.toNanos());
        this.nextAtNanos = nowNanos;
        this.lastDataNanos = nowNanos;
    }

    /** The longest delay: how long to wait for things that are not data (a missing topic). */
    long maxNanos() {
        return maxNanos;
    }

    long nanosUntilDue(long nowNanos) {
        return nextAtNanos - nowNanos;
    }

    void described(long nowNanos, int partitions) {
        topicPartitions = partitions;
        nextAtNanos = nowNanos + jittered(delayNanos(nowNanos - lastDataNanos));
    }

    void caughtUpAfterData(long nowNanos) {
        lastDataNanos = nowNanos;
        nextAtNanos = Math.min(nextAtNanos, nowNanos + jittered(delayNanos(0)));
    }

    /** Describes at once; a fresh reader is not an idle one. */
    void partitionsAdded(long nowNanos) {
        lastDataNanos = nowNanos;
        nextAtNanos = nowNanos;
    }

    void describeNow(long nowNanos) {
        nextAtNanos = nowNanos;
    }

    /** Nothing to learn before the longest delay (the topic is missing). */
    void waitLongest(long nowNanos) {
        nextAtNanos = nowNanos + maxNanos;
    }

    /** The delay {@link #described} would wait now, before its jitter. */
    long currentDelayNanos(long nowNanos) {
        return delayNanos(nowNanos - lastDataNanos);
    }

    long delayNanos(long sinceDataNanos) {
        long shortest = minNanos + topicPartitions * DELAY_PER_PARTITION_NANOS;
        // In double: the product overflows a long after about a minute of quiet.
        long backedOff =
                sinceDataNanos >= backOffNanos
                        ? maxNanos
                        : Math.round((double) sinceDataNanos * maxNanos / backOffNanos);
        return Math.min(maxNanos, Math.max(shortest, backedOff));
    }

    /** {@code nanos} drawn at random within ±{@link #JITTER_PERCENT}%. */
    static long jittered(long nanos) {
        long spread = nanos * JITTER_PERCENT / 100;
        return spread <= 0
                ? nanos
                : nanos - spread + ThreadLocalRandom.current().nextLong(2 * spread + 1);
    }
}

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
 * When the split reader next describes its topic to learn whether watched partitions grew. Iggy 0.8
 * has no long poll, so a reader learns about new data only by asking, and each description costs
 * CPU (about half a millisecond, most of it in the SDK's hand-offs between its threads): the delay
 * between descriptions trades an idle reader's CPU against its latency.
 *
 * <p>Right after data arrived (or the reader got partitions) the delay is the shortest one, {@code
 * minInterval} plus {@link #DELAY_PER_PARTITION_NANOS} per partition of the topic (a larger
 * description costs more); from there it grows in proportion to the quiet time, reaching {@code
 * maxInterval} after {@code backOff} of quiet: the delay is the time since data times {@code
 * maxInterval / backOff}, never below the shortest delay. With {@code minInterval} and {@code
 * maxInterval} equal (the default) the topic is described at a steady pace. Every delay is drawn at
 * random within ±{@link #JITTER_PERCENT}% of its value, so that readers started together do not
 * describe in lock-step.
 *
 * <p>Fetcher thread only. Not final: a test counts how often readers ask it whether a topic is due.
 */
class DescribeSchedule {

    /** Each partition of the topic adds this to the shortest delay: a description costs more. */
    static final long DELAY_PER_PARTITION_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    /** How far each delay is spread around its value, in per cent. */
    static final int JITTER_PERCENT = 20;

    private final long minNanos;
    private final long maxNanos;
    private final long backOffNanos;
    private int topicPartitions;
    private long nextAtNanos;

    /** When data last arrived, or partitions were added: the back-off counts from here. */
    private long lastDataNanos;

    /**
     * @param minInterval the shortest delay, right after data
     * @param maxInterval the longest delay, in an idle topic
     * @param backOff the quiet time after which the delay is {@code maxInterval}
     */
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

    /** Nanoseconds until the next description is due; 0 or less when due. */
    long nanosUntilDue(long nowNanos) {
        return nextAtNanos - nowNanos;
    }

    /** A description answered: the next one after the delay the quiet time calls for. */
    void described(long nowNanos, int partitions) {
        topicPartitions = partitions;
        nextAtNanos = nowNanos + jittered(delayNanos(nowNanos - lastDataNanos));
    }

    /** A partition caught up right after data: more may follow soon, so look again soon. */
    void caughtUpAfterData(long nowNanos) {
        lastDataNanos = nowNanos;
        nextAtNanos = Math.min(nextAtNanos, nowNanos + jittered(delayNanos(0)));
    }

    /**
     * New partitions, found out about by describing at once; data is as likely to come now as right
     * after data: a fresh reader is not an idle one.
     */
    void partitionsAdded(long nowNanos) {
        lastDataNanos = nowNanos;
        nextAtNanos = nowNanos;
    }

    /** A partition was resumed: describe at once. */
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

    /** The delay before the next description, given the time since data last arrived. */
    long delayNanos(long sinceDataNanos) {
        long shortest = minNanos + topicPartitions * DELAY_PER_PARTITION_NANOS;
        // In double: the product overflows a long after about a minute of quiet at a 150 ms poll
        // interval; the delay stays exact to within a nanosecond.
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

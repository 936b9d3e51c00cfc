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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A run's rate in its steady middle: the partition's current offset is sampled ten times a second
 * while the job runs, and the rate is the least-squares slope of offset over time across the middle
 * {@value #MIDDLE_PERCENT} % of the time between the first append and the last. Start-up, the first
 * checkpoint's wait and the last one's are outside it. Exactly-once output arrives one checkpoint
 * at a time, a staircase; over several intervals the slope of a staircase is its average rate, so a
 * run should last at least eight intervals. Both guarantees are measured alike.
 *
 * <p>The topic is limited to {@value #MAX_TOPIC_BYTES} bytes, so that a run of a minute or more
 * fits in memory: the server deletes the partition's oldest segments as it fills (the in-JVM server
 * when configured as {@link SinkBenchmark} does; a real server needs {@code
 * system.topic.delete_oldest_segments = true}). Immutable; each {@link Measuring} owns a sampler
 * thread, whose samples the benchmark's main thread reads once the sampler has ended.
 */
final class SteadyRate implements SinkRate {

    static final long MAX_TOPIC_BYTES = 1L << 30;

    private static final long SAMPLE_MILLIS = 100;

    private static final int MIDDLE_PERCENT = 60;

    /** Fewer samples than this in the middle cannot show a rate. */
    private static final int MIN_SAMPLES = 20;

    private final SinkBenchmarkSetup setup;

    SteadyRate(SinkBenchmarkSetup setup) {
        this.setup = setup;
    }

    @Override
    public String newTopic() {
        return setup.newTopic(MAX_TOPIC_BYTES);
    }

    /** The partition's current offset at one moment ({@link System#nanoTime()}). */
    record Sample(long nanos, long offset) {}

    @Override
    public Measuring start(String stream) {
        List<Sample> samples = new ArrayList<>(); // the sampler's until it has ended
        ScheduledExecutorService sampler =
                Executors.newSingleThreadScheduledExecutor(
                        task -> new Thread(task, "append-sampler"));
        sampler.scheduleAtFixedRate(
                () -> samples.add(new Sample(System.nanoTime(), offset(stream))),
                0,
                SAMPLE_MILLIS,
                TimeUnit.MILLISECONDS);
        return (records, checkpoints) -> {
            sampler.shutdown();
            try {
                if (!sampler.awaitTermination(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("The append sampler did not end");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted waiting for the append sampler", e);
            }
            return steady(samples, records - 1);
        };
    }

    private long offset(String stream) {
        return setup.iggy().currentOffset(stream, "t", 0);
    }

    /**
     * The steady rate of a run whose samples these are and whose last message has {@code
     * lastOffset}.
     */
    static Measured steady(List<Sample> samples, long lastOffset) {
        Sample first = samples.stream().filter(s -> s.offset() > 0).findFirst().orElse(null);
        Sample last =
                samples.stream().filter(s -> s.offset() == lastOffset).findFirst().orElse(null);
        if (first == null || last == null) {
            throw new IllegalStateException(
                    "The sampler never saw the first and the last append (it stops when a sample"
                            + " fails): "
                            + samples.size()
                            + " samples, last offset "
                            + (samples.isEmpty() ? -1 : samples.get(samples.size() - 1).offset()));
        }
        long edge = (last.nanos() - first.nanos()) * (100 - MIDDLE_PERCENT) / 200;
        long from = first.nanos() + edge;
        long to = last.nanos() - edge;
        List<Sample> middle =
                samples.stream().filter(s -> s.nanos() >= from && s.nanos() <= to).toList();
        if (middle.size() < MIN_SAMPLES) {
            throw new IllegalStateException(
                    "Only "
                            + middle.size()
                            + " samples in the steady middle of the run: give it more records");
        }
        double meanTime = middle.stream().mapToDouble(Sample::nanos).average().orElseThrow();
        double meanOffset = middle.stream().mapToDouble(Sample::offset).average().orElseThrow();
        double covariance = 0;
        double variance = 0;
        for (Sample sample : middle) {
            covariance += (sample.nanos() - meanTime) * (sample.offset() - meanOffset);
            variance += (sample.nanos() - meanTime) * (sample.nanos() - meanTime);
        }
        return new Measured(covariance / variance * 1e9, from, to, 0);
    }
}

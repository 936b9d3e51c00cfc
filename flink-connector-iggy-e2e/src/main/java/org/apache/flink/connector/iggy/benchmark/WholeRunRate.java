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

import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;

/**
 * A run's rate over all of it, from the messages it left in the partition: records ÷ the time from
 * the first record the writer took (its origin timestamp) to the last record's append on the
 * server, less the time it only waited for the checkpoint after the input ended. Needs every
 * message kept, so it suits runs of a few seconds. Immutable.
 *
 * <p>Exactly-once output is sent when the checkpoint that took it completes: in a running job it
 * appears one checkpoint later, on average half an interval of latency that is not throughput. A
 * bounded job's last records wait for the next periodic checkpoint, up to a whole interval with
 * nothing to do, which would dominate a run shorter than a few intervals; that wait (from the last
 * record taken, or the last append before it, to the checkpoint's trigger) is left out. Everything
 * else exactly-once costs counts: writing the write-ahead files, the checkpoints, and the
 * committer's reads and sends. An at-least-once job's last append precedes that checkpoint, so
 * nothing is left out of its rate.
 */
final class WholeRunRate implements SinkRate {

    private final SinkBenchmarkSetup setup;

    WholeRunRate(SinkBenchmarkSetup setup) {
        this.setup = setup;
    }

    @Override
    public String newTopic() {
        return setup.newTopic();
    }

    @Override
    public Measuring start(String stream) {
        long nanoTimeOffset = System.nanoTime() - System.currentTimeMillis() * 1_000_000L;
        return (records, checkpoints) -> {
            long firstTaken = originMicros(stream, 0);
            long lastTaken = originMicros(stream, records - 1);
            long lastAppended = setup.timestampMicros(stream, records - 1);
            long finalTrigger = finalTrigger(checkpoints, lastTaken);
            // Output that waited for the checkpoint was appended after its trigger.
            long finalWait =
                    finalTrigger < lastAppended
                            ? Math.max(
                                    0,
                                    finalTrigger
                                            - Math.max(
                                                    lastTaken,
                                                    lastAppendedBefore(
                                                            stream, records, finalTrigger)))
                            : 0;
            double seconds = Math.max(1, lastAppended - firstTaken - finalWait) / 1e6;
            return new Measured(
                    records / seconds,
                    firstTaken * 1000 + nanoTimeOffset,
                    lastTaken * 1000 + nanoTimeOffset,
                    finalWait / 1000);
        };
    }

    /**
     * The trigger time (µs) of the first checkpoint completed at or after {@code lastTaken}: the
     * one that committed the last records. Only the latest checkpoints are kept (Flink's {@code
     * web.checkpoints.history}); if it is not among them, {@link Long#MAX_VALUE}, and nothing is
     * left out.
     */
    private static long finalTrigger(CheckpointStatsSnapshot checkpoints, long lastTaken) {
        long finalTrigger = Long.MAX_VALUE;
        for (AbstractCheckpointStats checkpoint : checkpoints.getHistory().getCheckpoints()) {
            long trigger = checkpoint.getTriggerTimestamp() * 1000;
            if (checkpoint.getStatus() == CheckpointStatsStatus.COMPLETED && trigger >= lastTaken) {
                finalTrigger = Math.min(finalTrigger, trigger);
            }
        }
        return finalTrigger;
    }

    private long originMicros(String stream, long offset) {
        return setup.iggy()
                .poll(stream, "t", 0, offset, 1)
                .get(0)
                .header()
                .originTimestamp()
                .longValueExact();
    }

    /** The append time of the last message appended before {@code micros}, or 0 if none. */
    private long lastAppendedBefore(String stream, long messages, long micros) {
        long low = -1;
        long high = messages;
        // binary search: every message before low+1 was appended before micros, none from high on
        while (high - low > 1) {
            long middle = (low + high) >>> 1;
            if (setup.timestampMicros(stream, middle) < micros) {
                low = middle;
            } else {
                high = middle;
            }
        }
        return low < 0 ? 0 : setup.timestampMicros(stream, low);
    }
}

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

import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;

/**
 * How {@link CheckpointedSinkJob} measures a run's rate: over the whole run ({@link WholeRunRate})
 * or over its steady middle ({@link SteadyRate}). Used by the benchmark's main thread.
 */
interface SinkRate {

    /** Creates the one-partition topic "t" a run writes to; returns its stream's name. */
    String newTopic();

    /** Starts measuring a run into {@code stream}, just before its job is submitted. */
    Measuring start(String stream);

    /** One run being measured. */
    interface Measuring {
        /**
         * After the job ended, with all {@code records} appended.
         *
         * @param checkpoints the job's checkpoint statistics
         */
        Measured finish(long records, CheckpointStatsSnapshot checkpoints);
    }

    /**
     * What a run measured.
     *
     * @param recordsPerSecond the rate
     * @param fromNanos the start of the stretch the rate covers, as {@link System#nanoTime()}
     * @param toNanos its end
     * @param leftOutMillis time within the run left out of the rate
     */
    record Measured(double recordsPerSecond, long fromNanos, long toNanos, long leftOutMillis) {}
}

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

import java.util.Map;

/**
 * The figures of one run of the SDK loop or of a job; filled in by the thread that ran it, read
 * after.
 */
final class ThroughputRun {
    long records;
    double steadyRate;
    double submitToLastRate;
    long firstRecordDelayNanos;

    /** From the last record to the job's end: the tasks' close and Flink ending the job. */
    long lastRecordToEndNanos;

    Map<String, Long> cpu;

    /** The sink's clock readings at each eighth of the records (parallelism 1 only). */
    long[] eighthMarks;

    String cpuPerRecord() {
        return ThreadCpu.format(cpu, records);
    }

    String eighths() {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i < eighthMarks.length; i++) {
            text.append(i > 1 ? " " : "")
                    .append(String.format("%.1f", (eighthMarks[i] - eighthMarks[i - 1]) / 1e6));
        }
        return text.toString();
    }
}

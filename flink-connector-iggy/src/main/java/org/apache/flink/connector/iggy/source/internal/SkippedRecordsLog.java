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
package org.apache.flink.connector.iggy.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.metrics.Counter;

import org.slf4j.Logger;

import javax.annotation.Nullable;

/**
 * Counts skipped messages and logs them at most once per interval, with how many were skipped since
 * the last line: never a log line per record.
 */
@Internal
public final class SkippedRecordsLog {

    private static final long INTERVAL_MS = 10_000;

    private final Logger log;
    private final String what;
    private final Counter counter;
    private long lastLogMillis;
    private long sinceLastLog;

    /** {@code what} completes "Skipped N message(s) ..." in the log line. */
    public SkippedRecordsLog(Logger log, String what, Counter counter) {
        this.log = log;
        this.what = what;
        this.counter = counter;
    }

    public void skipped(IggyMessage message, @Nullable Throwable cause) {
        counter.inc();
        sinceLastLog++;
        long now = System.currentTimeMillis();
        if (now - lastLogMillis >= INTERVAL_MS) {
            log.warn(
                    "Skipped {} message(s) {}, latest at offset {} of partition {} (topic {}, stream {})",
                    sinceLastLog,
                    what,
                    message.offset(),
                    message.partition(),
                    message.topic(),
                    message.stream(),
                    cause);
            lastLogMillis = now;
            sinceLastLog = 0;
        }
    }
}

package org.apache.flink.connector.iggy.source;

import org.apache.flink.annotation.Internal;
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
    @Nullable private final Counter counter;
    private long lastLogMillis;
    private long sinceLastLog;

    /** {@code what} completes "Skipped N message(s) ..." in the log line. */
    public SkippedRecordsLog(Logger log, String what, @Nullable Counter counter) {
        this.log = log;
        this.what = what;
        this.counter = counter;
    }

    public void skipped(IggyMessage message, @Nullable Throwable cause) {
        if (counter != null) {
            counter.inc();
        }
        sinceLastLog++;
        long now = System.currentTimeMillis();
        if (now - lastLogMillis >= INTERVAL_MS) {
            log.warn(
                    "Skipped {} message(s) {}, latest at offset {} of partition {} (topic {}, stream {})",
                    sinceLastLog,
                    what,
                    message.offset(),
                    message.partitionId(),
                    message.topic(),
                    message.stream(),
                    cause);
            lastLogMillis = now;
            sinceLastLog = 0;
        }
    }
}

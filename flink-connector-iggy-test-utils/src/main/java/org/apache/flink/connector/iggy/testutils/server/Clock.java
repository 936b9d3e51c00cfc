package org.apache.flink.connector.iggy.testutils.server;

import java.time.Instant;

/** Timestamps as Iggy writes them: microseconds since the Unix epoch. */
final class Clock {
    private Clock() {}

    static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}

package org.apache.flink.connector.iggy.testutils.server;

import org.apache.commons.codec.digest.XXHash32;

import java.nio.charset.StandardCharsets;

/** The consumer of a poll or an offset command: a single consumer or a consumer group. */
record ConsumerRef(boolean isGroup, EntityId id) {

    /**
     * The key under which a single consumer's offsets are kept: its numeric id, or XXH32 (seed 0)
     * of its name, as the real server does. So a named and a numeric consumer can share offsets.
     */
    long offsetKey() {
        if (id.isNumeric()) {
            return id.numeric();
        }
        return xxh32(id.name().getBytes(StandardCharsets.UTF_8));
    }

    static long xxh32(byte[] bytes) {
        XXHash32 hash = new XXHash32(0);
        hash.update(bytes, 0, bytes.length);
        return hash.getValue();
    }
}

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

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.client.TopicDescription.TopicSummary;

import java.math.BigInteger;

/**
 * How many messages a poll asks for. An Iggy poll takes a message count, not a byte limit, so
 * unless the user fixed the count, it follows the topic's average message size (from its
 * descriptions) to answers of about {@link #TARGET_BYTES}: small messages come in large batches,
 * which costs less per message, large ones in small batches, which bounds memory. Owned by the
 * fetcher thread, as its topic's watch.
 */
@Internal
final class PollSize {

    /** About what one answer holds, counted as the server counts a message's bytes. */
    static final long TARGET_BYTES = 1024 * 1024;

    /** The most messages a poll asks for: each decoded message costs the SDK heap objects. */
    static final int MAX_MESSAGES = 10_000;

    /** Asked for before a description reported a size: small, as messages could be large. */
    static final int BEFORE_SIZE_KNOWN = 100;

    private final int fixed;
    private int messages;

    /**
     * @param fixed the messages per poll the user set; 0 follows the message size
     */
    PollSize(int fixed) {
        this.fixed = fixed;
        this.messages = fixed > 0 ? fixed : BEFORE_SIZE_KNOWN;
    }

    int messages() {
        return messages;
    }

    /** Learns the topic's average message size from a description, unless the count is fixed. */
    void described(TopicSummary details) {
        if (fixed > 0) {
            return;
        }
        long bytes = parseBytes(details.size());
        BigInteger stored = details.messagesCount();
        if (bytes <= 0 || stored == null || stored.signum() <= 0) {
            return; // an empty topic says nothing about its messages' size
        }
        long count = stored.bitLength() < Long.SIZE ? stored.longValue() : Long.MAX_VALUE;
        long averageBytes = Math.max(1, bytes / count);
        messages = (int) Math.max(1, Math.min(MAX_MESSAGES, TARGET_BYTES / averageBytes));
    }

    /** The decimal number of bytes; anything else is unknown (-1). */
    private static long parseBytes(String size) {
        try {
            return Long.parseLong(size);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}

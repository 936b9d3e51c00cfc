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
 * unless the user fixed the count, it follows the topic's average message size, which every topic
 * description reports (bytes stored ÷ messages stored), to answers of about {@link #TARGET_BYTES}.
 * Small messages then come in large batches, which costs less per message: each request costs the
 * SDK hand-offs between its threads, whatever it carries. Large messages come in small batches,
 * which bounds the memory the polls in flight hold; answers of several MiB also read slower
 * (docs/development/testing.md).
 */
@Internal
final class PollSize {

    /** About what one answer holds, counted as the server counts a message's bytes. */
    static final long TARGET_BYTES = 1024 * 1024;

    /**
     * The most messages a poll asks for, however small they are: past a few thousand, the
     * per-request cost is already a few ns a message, while every message decoded costs the SDK
     * several objects on the heap.
     */
    static final int MAX_MESSAGES = 10_000;

    /**
     * Asked for while no description has reported a size yet. Polls follow a description that
     * showed data, so this is seldom used; small, because the messages could be large.
     */
    static final int BEFORE_SIZE_KNOWN = 100;

    /** The count the user set; 0 when the count follows the message size. */
    private final int fixed;

    private int messages;

    private PollSize(int fixed) {
        this.fixed = fixed;
        this.messages = fixed > 0 ? fixed : BEFORE_SIZE_KNOWN;
    }

    /** Always {@code messages} a poll. */
    static PollSize fixed(int messages) {
        if (messages < 1) {
            throw new IllegalArgumentException("A poll asks for at least 1 message: " + messages);
        }
        return new PollSize(messages);
    }

    /** As many messages a poll as fit in {@link #TARGET_BYTES} by the topic's average size. */
    static PollSize followingMessageSize() {
        return new PollSize(0);
    }

    /** Messages the next poll asks for. */
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

    /** The SDK reports a size as the decimal number of bytes; anything else counts as unknown. */
    private static long parseBytes(String size) {
        if (size == null) {
            return -1;
        }
        try {
            return Long.parseLong(size);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}

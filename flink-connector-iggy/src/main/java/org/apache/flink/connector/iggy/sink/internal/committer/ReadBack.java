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
package org.apache.flink.connector.iggy.sink.internal.committer;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.MessageBatch;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.WireFormat;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.metrics.Counter;

import java.time.Duration;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;

/**
 * Finds which messages of a committable its partition holds already, by their ids: the committer
 * reads back before it sends a committable that may have been sent in part before.
 *
 * <p>It reads from the partition's end when the committable was made ({@link
 * IggyCommittable#readFrom}), or from its start if its end is below that now (the partition was
 * purged, or deleted and created again: messages sent since then start at 0), up to the partition's
 * end now, and stops early once every message was found.
 *
 * <p>Bounded in time: a read-back that has not ended within the connection's request timeout fails
 * the commit attempt, which Flink retries. Bounded in bytes as far as Iggy 0.8 allows: a poll
 * cannot leave out payloads nor stop at a byte count, so the first poll asks for {@value
 * #FIRST_POLL} messages and each later one for as many as fit the batch byte bound at the average
 * size seen so far, never more than the batch size; only the ids found are kept.
 *
 * <p>Confined to the committer's task thread; the metric gauge only reads.
 */
@Internal
final class ReadBack {

    /** The messages of the first poll, before any size is known. */
    static final long FIRST_POLL = 16;

    /** Reading back never stores an offset, so any plain consumer will do. */
    private static final String READ_BACK = "flink-sink-read-back";

    private final IggyWriterConfig config;
    private final Duration deadline;
    private final Counter messagesReadBack;

    /** Written by the task thread only; volatile for the metric reporter's gauge. */
    private volatile long lastTimeMs;

    /**
     * @param deadline how long one read-back may take: the committer gives the request timeout
     * @param messagesReadBack counts every message read
     */
    ReadBack(IggyWriterConfig config, Duration deadline, Counter messagesReadBack) {
        this.config = config;
        this.deadline = deadline;
        this.messagesReadBack = messagesReadBack;
    }

    /**
     * Which of the committable's {@code size} messages (by sequence number) the partition holds,
     * reading up to {@code end}, its end offset now.
     *
     * @throws IggyConnectorException if a poll fails, or the read-back did not end in time
     */
    BitSet present(IggyServerClient client, IggyCommittable committable, int size, long end) {
        long started = System.nanoTime();
        try {
            long from = committable.readFrom() <= end ? committable.readFrom() : 0;
            return present(client, committable, size, from, end, started + deadline.toNanos());
        } finally {
            lastTimeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        }
    }

    private BitSet present(
            IggyServerClient client,
            IggyCommittable committable,
            int size,
            long from,
            long end,
            long deadlineNanos) {
        BitSet present = new BitSet(size);
        long offset = from;
        long messagesSeen = 0;
        long bytesSeen = 0;
        while (offset < end && present.cardinality() < size) {
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0) {
                throw new IggyConnectorException(
                        String.format(
                                "Reading back the %s did not end within %s, the connection's"
                                        + " request timeout: %,d of the %,d messages from offset"
                                        + " %d to %d were read. The commit is tried again. If the"
                                        + " partition holds that much, raise the request timeout"
                                        + " (setRequestTimeout, 'request.timeout' in SQL).",
                                committable, deadline, offset - from, end - from, from, end));
            }
            long count =
                    messagesSeen == 0
                            ? Math.min(FIRST_POLL, end - offset)
                            : pollSize(
                                    config.maxBatchBytes(),
                                    config.batchSize(),
                                    bytesSeen / messagesSeen,
                                    end - offset);
            MessageBatch polled =
                    IggyClients.await(
                            client.poll(
                                    committable.stream(),
                                    committable.topic(),
                                    committable.partition(),
                                    READ_BACK,
                                    offset,
                                    count),
                            Duration.ofNanos(remaining),
                            "read back partition " + committable.partition());
            if (polled.isEmpty()) {
                break;
            }
            for (int i = 0; i < polled.size(); i++) {
                messagesReadBack.inc();
                messagesSeen++;
                bytesSeen += polled.sizeInBytes(i);
                int sequence = committable.sequenceOf(WireFormat.wireId(polled.messageId(i)));
                if (sequence >= 0) {
                    present.set(sequence);
                }
                offset = polled.offset(i) + 1;
            }
        }
        return present;
    }

    /**
     * How many messages to poll: as many as fit {@code maxBytes} at {@code averageBytes} each, at
     * least one, at most {@code maxMessages} and the {@code left} ones.
     */
    static long pollSize(long maxBytes, int maxMessages, long averageBytes, long left) {
        long fitting = Math.max(1, maxBytes / Math.max(1, averageBytes));
        return Math.min(Math.min(fitting, maxMessages), left);
    }

    /** How long the last read-back took, in milliseconds (0 before the first). */
    long lastTimeMs() {
        return lastTimeMs;
    }
}

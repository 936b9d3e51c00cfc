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
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.MessageBatch;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.WireFormat;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.Counter;

import java.time.Duration;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
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
 * <p>A read-back that fails keeps what it read: the committer's next attempt at the same
 * committable resumes at the offset it reached, with the messages found so far. Messages the
 * committer sends after a read-back are appended after the end it read to, so they are found when
 * it resumes. Each poll may take the connection's request timeout, so the time allowed grows with
 * the messages to read, however many other producers appended to the partition.
 *
 * <p>Bounded in bytes as far as Iggy 0.8 allows: a poll cannot leave out payloads nor stop at a
 * byte count, so the first poll asks for {@value #FIRST_POLL} messages and each later one for as
 * many as fit the batch byte bound at the average size seen so far, never more than the batch size;
 * only the ids found are kept.
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
    private final Duration pollTimeout;
    private final Counter messagesReadBack;

    /** How far the read-backs of committables not yet committed got, by write-ahead file. */
    private final Map<Path, Progress> progress = new HashMap<>();

    /** Written by the task thread only; volatile for the metric reporter's gauge. */
    private volatile long lastTimeMs;

    /**
     * @param pollTimeout how long one poll may take: the committer gives the request timeout
     * @param messagesReadBack counts every message read
     */
    ReadBack(IggyWriterConfig config, Duration pollTimeout, Counter messagesReadBack) {
        this.config = config;
        this.pollTimeout = pollTimeout;
        this.messagesReadBack = messagesReadBack;
    }

    /**
     * Which of the committable's {@code size} messages (by sequence number) the partition holds,
     * reading up to {@code end}, its end offset now; resumes where an earlier read-back of the
     * committable stopped.
     *
     * @throws IggyConnectorException if a poll fails or gets no answer within the request timeout
     */
    BitSet present(IggyServerClient client, IggyCommittable committable, int size, long end) {
        long started = System.nanoTime();
        Progress read = progress.get(committable.file().path());
        if (read == null || read.offset > end) {
            // first read-back, or the partition is shorter than where the last one stopped
            long from = committable.readFrom() <= end ? committable.readFrom() : 0;
            read = new Progress(from, size);
            progress.put(committable.file().path(), read);
        }
        try {
            readUpTo(client, committable, size, end, read);
            return (BitSet) read.present.clone();
        } finally {
            lastTimeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        }
    }

    /** The committable is committed: its progress is no longer needed. */
    void forget(IggyCommittable committable) {
        progress.remove(committable.file().path());
    }

    private void readUpTo(
            IggyServerClient client,
            IggyCommittable committable,
            int size,
            long end,
            Progress read) {
        while (read.offset < end && read.present.cardinality() < size) {
            long count =
                    read.messagesSeen == 0
                            ? Math.min(FIRST_POLL, end - read.offset)
                            : pollSize(
                                    config.maxBatchBytes(),
                                    config.batchSize(),
                                    read.bytesSeen / read.messagesSeen,
                                    end - read.offset);
            MessageBatch polled;
            try {
                polled =
                        IggyClients.await(
                                client.poll(
                                        committable.stream(),
                                        committable.topic(),
                                        committable.partition(),
                                        READ_BACK,
                                        read.offset,
                                        count),
                                pollTimeout,
                                "read back partition " + committable.partition());
            } catch (IggyConfigurationException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new IggyConnectorException(
                        String.format(
                                "Reading back the %s stopped at offset %d of %d (started at %d):"
                                        + " %s. The commit is tried again and resumes there.",
                                committable, read.offset, end, read.from, IggyClients.describe(e)),
                        e);
            }
            if (polled.isEmpty()) {
                break;
            }
            for (int i = 0; i < polled.size(); i++) {
                messagesReadBack.inc();
                read.messagesSeen++;
                read.bytesSeen += polled.sizeInBytes(i);
                int sequence = committable.sequenceOf(WireFormat.wireId(polled.messageId(i)));
                if (sequence >= 0) {
                    read.present.set(sequence);
                }
                read.offset = polled.offset(i) + 1;
            }
        }
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

    /** What the read-backs of one committable found so far. */
    private static final class Progress {
        final long from;
        final BitSet present;
        long offset;
        long messagesSeen;
        long bytesSeen;

        Progress(long from, int size) {
            this.from = from;
            this.offset = from;
            this.present = new BitSet(size);
        }
    }
}

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
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsRemoval;
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.message.PollingStrategy;

import java.io.IOException;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Polls every assigned partition with an explicit partition id, {@code PollingStrategy.offset} and
 * auto-commit off: Flink, not Iggy, decides who reads what and where.
 *
 * <p>Polls of different partitions are in flight at the same time, so a slow or idle partition
 * never holds back the others; a partition with data is polled again as soon as its batch arrives,
 * while the task thread emits that batch. A partition whose poll came back empty is not polled
 * again before the poll interval has passed; when no partition is due the fetcher waits, and {@link
 * #wakeUp()} ends that wait at once.
 */
@Internal
public final class IggyPartitionSplitReader implements SplitReader<Message, IggyPartitionSplit> {

    private final AsyncIggyTcpClient client;
    private final Consumer consumer;
    private final long batchSize;
    private final long pollIntervalNanos;
    private final Duration requestTimeout;
    private final String address;
    private final Map<String, IggyPartitionSplitState> splitStates;

    private final Map<String, Cursor> cursors = new LinkedHashMap<>();
    private volatile CompletableFuture<Void> wakeUp = new CompletableFuture<>();

    /**
     * @param splitStates the reader's split states by split id, to publish partition ends to
     */
    public IggyPartitionSplitReader(
            AsyncIggyTcpClient client,
            Consumer consumer,
            int batchSize,
            Duration pollInterval,
            Duration requestTimeout,
            String address,
            Map<String, IggyPartitionSplitState> splitStates) {
        this.client = client;
        this.consumer = consumer;
        this.batchSize = batchSize;
        this.pollIntervalNanos = pollInterval.toNanos();
        this.requestTimeout = requestTimeout;
        this.address = address;
        this.splitStates = splitStates;
    }

    /** Fetcher-side position of one split. */
    private static final class Cursor {
        final IggyPartitionSplit split;
        long nextOffset;
        long dueAtNanos;
        boolean paused;
        CompletableFuture<PolledMessages> inFlight;

        /** The offset the in-flight poll started at. */
        long inFlightFrom;

        Cursor(IggyPartitionSplit split) {
            this.split = split;
            this.nextOffset = split.startingOffset();
            this.dueAtNanos = System.nanoTime();
        }

        boolean reachedEnd() {
            return nextOffset >= split.stoppingOffset();
        }
    }

    @Override
    public RecordsWithSplitIds<Message> fetch() throws IOException {
        RecordsBySplits.Builder<Message> records = new RecordsBySplits.Builder<>();
        if (finishReachedSplits(records)) {
            return records.build();
        }
        startDuePolls(System.nanoTime());
        if (!anyInFlight()) {
            waitUntilDueOrWokenUp();
            startDuePolls(System.nanoTime());
            if (!anyInFlight()) {
                return records.build();
            }
        }
        if (!waitForAnyPollOrWakeUp()) {
            return records.build();
        }
        harvestCompletedPolls(records);
        finishReachedSplits(records);
        return records.build();
    }

    private boolean finishReachedSplits(RecordsBySplits.Builder<Message> records) {
        boolean any = false;
        for (Iterator<Cursor> it = cursors.values().iterator(); it.hasNext(); ) {
            Cursor cursor = it.next();
            if (cursor.inFlight == null && cursor.reachedEnd()) {
                records.addFinishedSplit(cursor.split.splitId());
                it.remove();
                any = true;
            }
        }
        return any;
    }

    private void startDuePolls(long nowNanos) {
        for (Cursor cursor : cursors.values()) {
            if (cursor.inFlight == null
                    && !cursor.paused
                    && !cursor.reachedEnd()
                    && nowNanos - cursor.dueAtNanos >= 0) {
                startPoll(cursor);
            }
        }
    }

    private void startPoll(Cursor cursor) {
        long count = Math.min(batchSize, cursor.split.stoppingOffset() - cursor.nextOffset);
        cursor.inFlightFrom = cursor.nextOffset;
        cursor.inFlight =
                client.messages()
                        .pollMessages(
                                cursor.split.stream().toStreamId(),
                                cursor.split.topic().toTopicId(),
                                Optional.of(cursor.split.partitionId()),
                                consumer,
                                PollingStrategy.offset(BigInteger.valueOf(cursor.nextOffset)),
                                count,
                                false)
                        .orTimeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private boolean anyInFlight() {
        for (Cursor cursor : cursors.values()) {
            if (cursor.inFlight != null) {
                return true;
            }
        }
        return false;
    }

    private void waitUntilDueOrWokenUp() {
        long now = System.nanoTime();
        long waitNanos = Long.MAX_VALUE;
        for (Cursor cursor : cursors.values()) {
            if (!cursor.paused && !cursor.reachedEnd()) {
                waitNanos = Math.min(waitNanos, Math.max(0, cursor.dueAtNanos - now));
            }
        }
        if (waitNanos == Long.MAX_VALUE) {
            // Everything is paused: wait for a resume, which wakes us up.
            waitNanos = pollIntervalNanos;
        }
        if (waitNanos > 0) {
            awaitWakeUp(waitNanos);
        }
    }

    /** Waits until a poll completes or a wake-up comes; false when interrupted. */
    private boolean waitForAnyPollOrWakeUp() throws IOException {
        List<CompletableFuture<?>> waitFor = new ArrayList<>();
        for (Cursor cursor : cursors.values()) {
            if (cursor.inFlight != null) {
                waitFor.add(cursor.inFlight);
            }
        }
        CompletableFuture<Void> wake = wakeUp;
        waitFor.add(wake);
        try {
            // Every poll carries its own timeout, so this completes; the bound is a safety net.
            CompletableFuture.anyOf(waitFor.toArray(new CompletableFuture<?>[0]))
                    .get(requestTimeout.toMillis() * 2, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            // A failed poll: reported while harvesting.
        } catch (TimeoutException e) {
            throw new IOException("No poll answer from Iggy at " + address + " in time", e);
        }
        if (wake.isDone()) {
            wakeUp = new CompletableFuture<>();
        }
        return true;
    }

    private void awaitWakeUp(long nanos) {
        CompletableFuture<Void> wake = wakeUp;
        try {
            wake.get(nanos, TimeUnit.NANOSECONDS);
            wakeUp = new CompletableFuture<>();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException | ExecutionException e) {
            // Due time reached.
        }
    }

    private void harvestCompletedPolls(RecordsBySplits.Builder<Message> records)
            throws IOException {
        long now = System.nanoTime();
        for (Cursor cursor : cursors.values()) {
            CompletableFuture<PolledMessages> poll = cursor.inFlight;
            if (poll == null || !poll.isDone()) {
                continue;
            }
            cursor.inFlight = null;
            PolledMessages polled;
            try {
                polled = poll.join();
            } catch (RuntimeException e) {
                Throwable cause = IggyClients.asRuntime(e);
                throw new IOException(
                        "Polling partition "
                                + cursor.split.partitionId()
                                + " of topic "
                                + cursor.split.topic()
                                + " in stream "
                                + cursor.split.stream()
                                + " at "
                                + address
                                + " from offset "
                                + cursor.inFlightFrom
                                + " failed: "
                                + cause,
                        cause);
            }
            int added = addRecords(cursor, polled.messages(), records);
            publishEnd(cursor, polled);
            if (added == 0) {
                cursor.dueAtNanos = now + pollIntervalNanos;
            } else if (!cursor.paused && !cursor.reachedEnd()) {
                // Ask for the next batch while the task thread emits this one.
                startPoll(cursor);
            }
        }
    }

    private int addRecords(
            Cursor cursor, List<Message> messages, RecordsBySplits.Builder<Message> records) {
        String splitId = cursor.split.splitId();
        long stop = cursor.split.stoppingOffset();
        int added = 0;
        for (Message message : messages) {
            long offset = message.header().offset().longValue();
            // Duplicates from the server are dropped (the first copy wins); nothing past the end.
            if (offset < cursor.nextOffset || offset >= stop) {
                continue;
            }
            records.add(splitId, message);
            cursor.nextOffset = offset + 1;
            added++;
        }
        return added;
    }

    private void publishEnd(Cursor cursor, PolledMessages polled) {
        IggyPartitionSplitState state = splitStates.get(cursor.split.splitId());
        if (state == null) {
            return;
        }
        long current = polled.currentOffset() == null ? 0 : polled.currentOffset().longValue();
        // current_offset is 0 for an empty partition and for one with a single message, so an
        // empty answer at our position means: we are at the end.
        long end =
                polled.messages().isEmpty()
                        ? Math.max(cursor.nextOffset, current == 0 ? 0 : current + 1)
                        : current + 1;
        state.setEndOffset(end);
        state.setCaughtUpOffsetIfUnknown(end);
    }

    @Override
    public void handleSplitsChanges(SplitsChange<IggyPartitionSplit> splitsChanges) {
        if (splitsChanges instanceof SplitsAddition) {
            for (IggyPartitionSplit split : splitsChanges.splits()) {
                cursors.put(split.splitId(), new Cursor(split));
            }
        } else if (splitsChanges instanceof SplitsRemoval) {
            for (IggyPartitionSplit split : splitsChanges.splits()) {
                Cursor removed = cursors.remove(split.splitId());
                if (removed != null && removed.inFlight != null) {
                    removed.inFlight.cancel(false);
                }
            }
        }
    }

    @Override
    public void pauseOrResumeSplits(
            Collection<IggyPartitionSplit> splitsToPause,
            Collection<IggyPartitionSplit> splitsToResume) {
        for (IggyPartitionSplit split : splitsToPause) {
            Cursor cursor = cursors.get(split.splitId());
            if (cursor != null) {
                cursor.paused = true;
            }
        }
        for (IggyPartitionSplit split : splitsToResume) {
            Cursor cursor = cursors.get(split.splitId());
            if (cursor != null) {
                cursor.paused = false;
                cursor.dueAtNanos = System.nanoTime();
            }
        }
    }

    @Override
    public void wakeUp() {
        wakeUp.complete(null);
    }

    @Override
    public void close() {
        for (Cursor cursor : cursors.values()) {
            if (cursor.inFlight != null) {
                cursor.inFlight.cancel(false);
            }
        }
        cursors.clear();
        // The client belongs to the source reader, which closes it.
    }
}

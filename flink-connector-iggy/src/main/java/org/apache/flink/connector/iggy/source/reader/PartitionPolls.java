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

import org.apache.flink.connector.iggy.common.client.MessageBatch;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import javax.annotation.Nullable;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The partitions of one split reader and their polls. Only partitions known to hold unread data are
 * polled; one known to hold more than the batch in flight has the next batch asked for too (a
 * read-ahead), so that a request waits at the server while an answer travels. At most {@link
 * #MAX_POLLS_IN_FLIGHT} polls are in flight; beyond its first, each takes a permit of the JVM's
 * {@link SharedPollLimit}. The only writer of the {@link PartitionCursor}s.
 *
 * <p>Fetcher thread only; answers come through {@code events}.
 */
final class PartitionPolls {

    /** Polls in flight at once, whatever the number of partitions. */
    static final int MAX_POLLS_IN_FLIGHT = 16;

    private final IggyReadRequests requests;
    private final Consumer<FetchEvent> events;
    private final SharedPollLimit sharedLimit;
    private final Map<String, PartitionCursor> cursors = new HashMap<>();

    /** The same cursors by topic and partition id. */
    private final Map<TopicPath, Map<Long, PartitionCursor>> byTopic = new HashMap<>();

    private final ArrayDeque<PartitionCursor> due = new ArrayDeque<>();
    private final List<PartitionCursor> reachedStop = new ArrayList<>();
    private int pollsInFlight;

    /** Shared permits held: always the polls in flight beyond the reader's own. */
    private int sharedHeld;

    private boolean closed;

    /** A first end was learned, which the task thread needs to know: hand over now. */
    private boolean firstEndLearned;

    PartitionPolls(
            IggyReadRequests requests, Consumer<FetchEvent> events, SharedPollLimit sharedLimit) {
        this.requests = requests;
        this.events = events;
        this.sharedLimit = sharedLimit;
    }

    void add(IggyPartitionSplit split, IggySourceProgress.Partition progress, PollSize pollSize) {
        PartitionCursor cursor = new PartitionCursor(split, progress, pollSize);
        forget(cursors.put(split.splitId(), cursor));
        byTopic.computeIfAbsent(cursor.topic, t -> new HashMap<>())
                .put(cursor.partitionId(), cursor);
        if (cursor.reachedStop()) {
            reachedStop.add(cursor);
        }
    }

    void remove(String splitId) {
        PartitionCursor removed = cursors.remove(splitId);
        if (removed != null) {
            forget(removed);
            removed.removed = true;
            removed.dropPolls();
        }
    }

    private void forget(@Nullable PartitionCursor cursor) {
        if (cursor == null) {
            return;
        }
        Map<Long, PartitionCursor> ofTopic = byTopic.get(cursor.topic);
        if (ofTopic != null && ofTopic.remove(cursor.partitionId(), cursor) && ofTopic.isEmpty()) {
            byTopic.remove(cursor.topic);
        }
    }

    /** The cursors of one topic's partitions, by partition id; read-only. */
    Map<Long, PartitionCursor> ofTopic(TopicPath topic) {
        Map<Long, PartitionCursor> ofTopic = byTopic.get(topic);
        return ofTopic == null ? Map.of() : Collections.unmodifiableMap(ofTopic);
    }

    /** Flink pauses a split (watermark alignment): no poll until it is resumed. */
    void pause(String splitId) {
        PartitionCursor cursor = cursors.get(splitId);
        if (cursor != null) {
            cursor.paused = true;
        }
    }

    /** Polls a resumed split with unread data; else returns it: only a description can tell. */
    @Nullable
    PartitionCursor resume(String splitId) {
        PartitionCursor cursor = cursors.get(splitId);
        if (cursor == null) {
            return null;
        }
        cursor.paused = false;
        if (cursor.hasUnreadData()) {
            markDue(cursor);
            return null;
        }
        return cursor;
    }

    /** Nothing more to read at the cursor until a description says otherwise. */
    void watchFromHere(PartitionCursor cursor) {
        cursor.knownEnd = cursor.nextOffset;
    }

    /** The topic is gone and skipped: its splits finish where they stand. */
    void finishTopic(TopicPath topic) {
        for (PartitionCursor cursor : ofTopic(topic).values()) {
            cursor.dropPolls();
            reachedStop.add(cursor);
        }
    }

    boolean isEmpty() {
        return cursors.isEmpty();
    }

    boolean takeFirstEndLearned() {
        boolean learned = firstEndLearned;
        firstEndLearned = false;
        return learned;
    }

    /** Notes a topic's next offsets before its description; true if a partition is watched. */
    boolean prepareDescription(TopicPath topic) {
        boolean anyWatched = false;
        for (PartitionCursor cursor : ofTopic(topic).values()) {
            cursor.offsetAtDescribe = cursor.nextOffset;
            anyWatched |= cursor.watched();
        }
        return anyWatched;
    }

    void finishReachedSplits(IggyPolledRecords records) {
        for (PartitionCursor cursor : reachedStop) {
            if (!cursor.removed) {
                records.addFinishedSplit(cursor.splitId);
                cursor.removed = true;
                cursors.remove(cursor.splitId);
                forget(cursor);
            }
        }
        reachedStop.clear();
    }

    void startDuePolls() {
        while (!due.isEmpty() && mayStartPoll()) {
            PartitionCursor cursor = due.poll();
            cursor.queued = false;
            if (cursor.mayPoll()) {
                cursor.inFlightTo = endOfBatchFrom(cursor, cursor.nextOffset);
                cursor.inFlight = sendPoll(cursor, cursor.nextOffset, cursor.inFlightTo);
                startReadAheadIfUseful(cursor);
            } else {
                releaseUnused();
            }
        }
    }

    private boolean mayStartPoll() {
        if (pollsInFlight >= MAX_POLLS_IN_FLIGHT) {
            return false;
        }
        if (sharedHeld >= pollsInFlight + 1 - SharedPollLimit.OWN_POLLS) {
            return true; // one of its own, or a permit taken and not used yet
        }
        if (!sharedLimit.tryAcquire()) {
            return false;
        }
        sharedHeld++;
        return true;
    }

    private void releaseUnused() {
        int needed = closed ? 0 : Math.max(0, pollsInFlight - SharedPollLimit.OWN_POLLS);
        if (sharedHeld > needed) {
            sharedLimit.release(sharedHeld - needed);
            sharedHeld = needed;
        }
    }

    void markDue(PartitionCursor cursor) {
        if (!cursor.queued && cursor.ahead == null && cursor.mayPoll()) {
            cursor.queued = true;
            due.add(cursor);
        }
    }

    /** A description told the partition's end: polls it if it grew. */
    void learnedEnd(PartitionCursor cursor, long end) {
        if (cursor.inFlight == null) {
            cursor.knownEnd = Math.max(end, cursor.nextOffset);
            publishEnd(cursor);
            if (cursor.hasUnreadData()) {
                markDue(cursor);
            }
        }
    }

    void readFromStart(PartitionCursor cursor) {
        cursor.restartFromZero();
        markDue(cursor);
    }

    /**
     * Returns the cursor whose poll in flight this answers, or null: an answer to a dropped poll,
     * or the read-ahead's, kept until the poll in flight has answered.
     */
    PartitionCursor answered(FetchEvent.PollAnswer answer) {
        pollsInFlight--;
        releaseUnused();
        PartitionCursor cursor = answer.cursor();
        if (cursor.removed || answer.generation() != cursor.generation) {
            return null;
        }
        if (answer.poll() == cursor.ahead) {
            if (answer.error() == null) {
                cursor.aheadAnswer = answer.polled();
            } else {
                cursor.ahead = null; // asked for again after the poll in flight, if need be
            }
            return null;
        }
        cursor.inFlight = null;
        return cursor;
    }

    /** Hands an answer's unread messages over; true when it caught up right after data. */
    boolean polled(PartitionCursor cursor, MessageBatch polled, IggyPolledRecords records) {
        MessageBatch messages = polled;
        int size = messages.size();
        if (size == 0) {
            // Nothing at our position: as far as we know, this is the end; watch it.
            cursor.knownEnd = cursor.nextOffset;
            publishEnd(cursor);
            return false;
        }
        long first = messages.offset(0);
        long last = messages.offset(size - 1);
        long stop = cursor.split.stoppingOffset();
        if (first < cursor.nextOffset || last >= stop || last - first + 1 != size) {
            messages = messages.unreadWithin(cursor.nextOffset, stop);
            last =
                    messages.isEmpty()
                            ? cursor.nextOffset - 1
                            : messages.offset(messages.size() - 1);
        }
        if (!messages.isEmpty()) {
            records.add(cursor.split, messages);
            cursor.nextOffset = last + 1;
            if (cursor.reachedStop()) {
                reachedStop.add(cursor);
            }
        }
        // currentOffset() is -1 when unknown: then nothing is known beyond what was read.
        cursor.knownEnd = Math.max(cursor.nextOffset, polled.currentOffset() + 1);
        publishEnd(cursor);
        if (cursor.hasUnreadData()) {
            markDue(cursor); // ask for the next batch while the task thread emits this one
            return false;
        }
        return true;
    }

    /**
     * The read-ahead becomes the poll in flight (or its answer is used) when it starts where
     * reading stands; else it is dropped and the partition polled again. Returns what {@link
     * #polled} returned for the read-ahead's answer, if it was used.
     */
    boolean followWithReadAhead(PartitionCursor cursor, IggyPolledRecords records) {
        if (cursor.ahead == null || cursor.removed) {
            return false;
        }
        if (cursor.inFlightTo != cursor.nextOffset) {
            cursor.dropPolls();
            if (cursor.hasUnreadData()) {
                markDue(cursor);
            }
            return false;
        }
        CompletableFuture<MessageBatch> ahead = cursor.ahead;
        MessageBatch answered = cursor.aheadAnswer;
        cursor.ahead = null;
        cursor.aheadAnswer = null;
        if (answered != null) {
            return polled(cursor, answered, records);
        }
        cursor.inFlight = ahead;
        cursor.inFlightTo = cursor.aheadTo;
        startReadAheadIfUseful(cursor);
        return false;
    }

    void close() {
        for (PartitionCursor cursor : cursors.values()) {
            cursor.dropPolls();
        }
        cursors.clear();
        byTopic.clear();
        closed = true;
        releaseUnused();
    }

    /** Asks for the next batch when the partition holds it and no other partition is due. */
    private void startReadAheadIfUseful(PartitionCursor cursor) {
        long from = cursor.inFlightTo;
        if (cursor.ahead == null
                && cursor.inFlight != null
                && !cursor.paused
                && cursor.knownEnd > from
                && from < cursor.split.stoppingOffset()
                && due.isEmpty()
                && mayStartPoll()) {
            cursor.aheadTo = endOfBatchFrom(cursor, from);
            cursor.ahead = sendPoll(cursor, from, cursor.aheadTo);
        }
    }

    private long endOfBatchFrom(PartitionCursor cursor, long from) {
        return Math.min(from + cursor.pollSize.messages(), cursor.split.stoppingOffset());
    }

    private CompletableFuture<MessageBatch> sendPoll(PartitionCursor cursor, long from, long to) {
        int generation = cursor.generation;
        CompletableFuture<MessageBatch> poll =
                requests.poll(cursor.topic, cursor.partitionId(), from, to - from);
        pollsInFlight++;
        poll.whenComplete(
                (polled, error) ->
                        events.accept(
                                new FetchEvent.PollAnswer(
                                        cursor, poll, generation, polled, error)));
        return poll;
    }

    private void publishEnd(PartitionCursor cursor) {
        firstEndLearned |= IggySourceProgress.publishEnd(cursor.progress, cursor.knownEnd);
    }
}

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
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsRemoval;
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyErrorCode;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;

import org.apache.iggy.message.Message;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.partition.Partition;
import org.apache.iggy.topic.TopicDetails;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads the assigned partitions with explicit partition polls ({@code PollingStrategy.offset},
 * auto-commit off): Flink, not Iggy, decides who reads what and where.
 *
 * <p>Only partitions known to hold unread data are polled. A partition whose poll returned a full
 * answer is polled again at once, while the task thread emits that answer, and one known to hold
 * more than the batch in flight has the batch after it asked for too (a read-ahead), so that a
 * request waits at the server while an answer travels through the hand-offs; one that reached its
 * end is watched instead: one topic description (a single request, whatever the number of
 * partitions) tells every partition's current end, and only partitions that grew are polled. How
 * often the topic is described adapts: {@link #MIN_DESCRIBE_DELAY_NANOS} apart for the first second
 * after data arrived (or after the reader started), then backing off with the time since, to the
 * poll interval for an idle topic. Each description costs about 0.5 ms of CPU, most of it in the
 * SDK's hand-offs between its threads (docs/development/testing.md), so the shortest delay trades
 * the CPU of a sparse topic against its latency. At most {@link #MAX_POLLS_IN_FLIGHT} polls are in
 * flight, far below what the SDK's connection pool queues, however many partitions a reader holds.
 *
 * <p>The description also guards against a topic deleted and re-created under the source: a new
 * topic identity, or a partition whose end is behind what was already read, fails the source (or,
 * when configured, makes it read the new topic from its start), never skipped silently.
 *
 * <p>Answers come back on the SDK's threads into one queue; a fetch handles only what arrived, so
 * its cost follows the partitions with data. How many messages a poll asks for is {@link
 * PollSize}'s to say, from the same descriptions.
 */
@Internal
public final class IggyPartitionSplitReader implements SplitReader<Message, IggyPartitionSplit> {

    private static final Logger LOG = LoggerFactory.getLogger(IggyPartitionSplitReader.class);

    /** Polls in flight at once, whatever the number of partitions; the SDK queues up to 1000. */
    static final int MAX_POLLS_IN_FLIGHT = 16;

    /**
     * The shortest time between two topic descriptions: a message that arrives within a second of
     * the last one waits 2 ms for the next description on average, at 250 descriptions a second.
     * With the round trips of a description and a poll, the send and the hand-over, that keeps the
     * median delay from send to sink under 5 ms on our test machine; 5 ms apart did not always.
     */
    static final long MIN_DESCRIBE_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(4);

    /** Each partition of the topic adds this to the shortest delay: a description costs more. */
    static final long DESCRIBE_DELAY_PER_PARTITION_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    /**
     * The delay between descriptions is the time since data last arrived divided by this, so that
     * it stays at the shortest for the first second and grows from there (8 ms after two seconds).
     */
    static final int BACK_OFF_DIVISOR = 250;

    /** A fetch returns at least this often, empty if need be. */
    private static final long MAX_FETCH_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final IggyReadRequests requests;
    private final IggySourceReaderMetrics metrics;
    private final PollSize pollSize;
    private final long pollIntervalNanos;
    private final boolean readRecreatedTopicFromStart;

    private final Map<Long, Cursor> cursors = new HashMap<>();
    private final ArrayDeque<Cursor> due = new ArrayDeque<>();
    private final LinkedBlockingQueue<Answer> answers = new LinkedBlockingQueue<>();
    private final List<Cursor> reachedStop = new ArrayList<>();
    private int pollsInFlight;
    private boolean describing;
    private long nextDescribeAtNanos = System.nanoTime();

    /** When data last arrived, or partitions were added: the back-off counts from here. */
    private long lastDataNanos = System.nanoTime();

    private int topicPartitions;
    @Nullable private TopicIdentity topicIdentity;
    private boolean topicMissingLogged;

    /** An answer changed what the task thread needs to know (a first end): hand over now. */
    private boolean handOverEmpty;

    IggyPartitionSplitReader(
            IggyReadRequests requests,
            IggySourceReaderMetrics metrics,
            PollSize pollSize,
            Duration pollInterval,
            boolean readRecreatedTopicFromStart) {
        this.requests = requests;
        this.metrics = metrics;
        this.pollSize = pollSize;
        this.pollIntervalNanos = pollInterval.toNanos();
        this.readRecreatedTopicFromStart = readRecreatedTopicFromStart;
    }

    /** Fetcher-side position of one split. */
    private static final class Cursor {
        final IggyPartitionSplit split;
        final String splitId;
        final IggySourceReaderMetrics.Partition published;
        long nextOffset;

        /** The partition's exclusive end as last learned, or UNKNOWN. */
        long knownEnd = IggySourceReaderMetrics.UNKNOWN;

        /** {@link #nextOffset} when the description in flight was asked for. */
        long offsetAtDescribe;

        boolean paused;
        boolean removed;
        boolean queued;
        @Nullable CompletableFuture<PolledMessages> inFlight;

        /** The exclusive end of what the poll in flight asked for; the read-ahead starts here. */
        long inFlightTo;

        /**
         * A poll for the batch after the one in flight, asked for before that one answered, so that
         * a partition with more data keeps a request at the server while an answer travels.
         */
        @Nullable CompletableFuture<PolledMessages> ahead;

        long aheadTo;

        /** The read-ahead's answer when it came before the answer of the poll in flight. */
        @Nullable PolledMessages aheadAnswer;

        /** Bumped by {@link #dropPolls()}: answers to older polls are not used. */
        int generation;

        /** Cancels this partition's polls; answers that still come are not used. */
        void dropPolls() {
            if (inFlight != null) {
                inFlight.cancel(false);
                inFlight = null;
            }
            if (ahead != null) {
                ahead.cancel(false);
                ahead = null;
            }
            aheadAnswer = null;
            generation++;
        }

        Cursor(IggyPartitionSplit split, IggySourceReaderMetrics.Partition published) {
            this.split = split;
            this.splitId = split.splitId();
            this.published = published;
            this.nextOffset = split.startingOffset();
        }

        boolean reachedStop() {
            return nextOffset >= split.stoppingOffset();
        }

        boolean hasUnreadData() {
            return knownEnd > nextOffset;
        }
    }

    /** One answer from the SDK's threads, or a wake-up. */
    private static final class Answer {
        static final Answer WAKE_UP = new Answer(null, null, 0, null, null);

        @Nullable final Cursor cursor;

        /** The poll answered, to tell the poll in flight from the read-ahead. */
        @Nullable final CompletableFuture<PolledMessages> poll;

        final int generation;
        @Nullable final Object value;
        @Nullable final Throwable error;

        Answer(
                @Nullable Cursor cursor,
                @Nullable CompletableFuture<PolledMessages> poll,
                int generation,
                @Nullable Object value,
                @Nullable Throwable error) {
            this.cursor = cursor;
            this.poll = poll;
            this.generation = generation;
            this.value = value;
            this.error = error;
        }
    }

    /** What tells a re-created topic from the one read so far. */
    private static final class TopicIdentity {
        final long id;
        final BigInteger createdAt;

        TopicIdentity(TopicDetails details) {
            this.id = details.id();
            this.createdAt = details.createdAt();
        }

        boolean sameAs(TopicIdentity other) {
            return id == other.id && createdAt.equals(other.createdAt);
        }

        @Override
        public String toString() {
            return "id " + id + ", created at " + createdAt + " µs";
        }
    }

    @Override
    public RecordsWithSplitIds<Message> fetch() throws IOException {
        IggyPolledRecords records = new IggyPolledRecords();
        long returnByNanos = System.nanoTime() + MAX_FETCH_NANOS;
        try {
            while (true) {
                Answer answer;
                boolean wokenUp = false;
                while ((answer = answers.poll()) != null) {
                    wokenUp |= handle(answer, records);
                }
                finishReachedSplits(records);
                // Before the hand-over, which waits while the task thread is two batches behind:
                // the next batches are read meanwhile.
                startDuePolls();
                if (!records.isEmpty() || wokenUp || handOverEmpty || cursors.isEmpty()) {
                    handOverEmpty = false;
                    return records;
                }
                long now = System.nanoTime();
                if (now - returnByNanos >= 0) {
                    return records;
                }
                long waitNanos = Math.min(describeIfDue(now), returnByNanos - now);
                answer = answers.poll(waitNanos, TimeUnit.NANOSECONDS);
                if (answer != null && handle(answer, records)) {
                    return records;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return records;
        }
    }

    /** Handles one answer; true for a wake-up. */
    private boolean handle(Answer answer, IggyPolledRecords records) throws IOException {
        if (answer == Answer.WAKE_UP) {
            return true;
        }
        if (answer.cursor != null) {
            pollsInFlight--;
            Cursor cursor = answer.cursor;
            if (cursor.removed || answer.generation != cursor.generation) {
                return false;
            }
            if (answer.poll == cursor.ahead) {
                if (answer.error == null) {
                    cursor.aheadAnswer = (PolledMessages) answer.value;
                } else {
                    cursor.ahead = null; // asked for again after the poll in flight, if need be
                }
                return false;
            }
            cursor.inFlight = null;
            if (answer.error != null) {
                pollFailed(cursor, answer.error);
            } else {
                polled(cursor, (PolledMessages) answer.value, records);
            }
            followWithReadAhead(cursor, records);
        } else {
            describing = false;
            if (answer.error != null) {
                describeFailed(answer.error);
            } else {
                @SuppressWarnings("unchecked")
                Optional<TopicDetails> details = (Optional<TopicDetails>) answer.value;
                described(details);
            }
        }
        return false;
    }

    private void finishReachedSplits(IggyPolledRecords records) {
        for (Cursor cursor : reachedStop) {
            if (!cursor.removed) {
                records.addFinishedSplit(cursor.splitId);
                cursor.removed = true;
                cursors.remove(cursor.split.partitionId());
            }
        }
        reachedStop.clear();
    }

    private void startDuePolls() {
        while (pollsInFlight < MAX_POLLS_IN_FLIGHT && !due.isEmpty()) {
            Cursor cursor = due.poll();
            cursor.queued = false;
            if (!cursor.removed
                    && !cursor.paused
                    && cursor.inFlight == null
                    && !cursor.reachedStop()) {
                startPoll(cursor);
            }
        }
    }

    private void markDue(Cursor cursor) {
        if (!cursor.queued
                && !cursor.removed
                && !cursor.paused
                && cursor.inFlight == null
                && cursor.ahead == null
                && !cursor.reachedStop()) {
            cursor.queued = true;
            due.add(cursor);
        }
    }

    private void startPoll(Cursor cursor) {
        cursor.inFlightTo = endOfBatchFrom(cursor, cursor.nextOffset);
        cursor.inFlight = sendPoll(cursor, cursor.nextOffset, cursor.inFlightTo);
        startReadAheadIfUseful(cursor);
    }

    private long endOfBatchFrom(Cursor cursor, long from) {
        return Math.min(from + pollSize.messages(), cursor.split.stoppingOffset());
    }

    private CompletableFuture<PolledMessages> sendPoll(Cursor cursor, long from, long to) {
        int generation = cursor.generation;
        CompletableFuture<PolledMessages> poll =
                requests.poll(cursor.split.partitionId(), from, to - from);
        pollsInFlight++;
        poll.whenComplete(
                (polled, error) ->
                        answers.add(new Answer(cursor, poll, generation, polled, error)));
        return poll;
    }

    /**
     * Asks for the batch after the poll in flight when the partition is known to hold it, no other
     * partition waits for its first poll, and the limit of polls in flight allows.
     */
    private void startReadAheadIfUseful(Cursor cursor) {
        long from = cursor.inFlightTo;
        if (cursor.ahead == null
                && cursor.inFlight != null
                && !cursor.paused
                && cursor.knownEnd > from
                && from < cursor.split.stoppingOffset()
                && due.isEmpty()
                && pollsInFlight < MAX_POLLS_IN_FLIGHT) {
            cursor.aheadTo = endOfBatchFrom(cursor, from);
            cursor.ahead = sendPoll(cursor, from, cursor.aheadTo);
        }
    }

    /**
     * After the answer of the poll in flight: the read-ahead becomes the poll in flight (or its
     * answer is used at once) when it starts where reading now stands; otherwise (a short answer, a
     * reset) it is dropped and the partition polled again from where it stands.
     */
    private void followWithReadAhead(Cursor cursor, IggyPolledRecords records) {
        if (cursor.ahead == null || cursor.removed) {
            return;
        }
        if (cursor.inFlightTo != cursor.nextOffset) {
            cursor.dropPolls();
            if (cursor.hasUnreadData()) {
                markDue(cursor);
            }
            return;
        }
        CompletableFuture<PolledMessages> ahead = cursor.ahead;
        PolledMessages answered = cursor.aheadAnswer;
        cursor.ahead = null;
        cursor.aheadAnswer = null;
        if (answered != null) {
            polled(cursor, answered, records);
        } else {
            cursor.inFlight = ahead;
            cursor.inFlightTo = cursor.aheadTo;
            startReadAheadIfUseful(cursor);
        }
    }

    /**
     * Describes the topic when a watched partition exists and the delay since the last description
     * has passed; returns how long the fetch may wait for an answer.
     */
    private long describeIfDue(long now) {
        if (describing) {
            return pollIntervalNanos;
        }
        if (now - nextDescribeAtNanos < 0) {
            return nextDescribeAtNanos - now;
        }
        boolean anyWatched = false;
        for (Cursor cursor : cursors.values()) {
            cursor.offsetAtDescribe = cursor.nextOffset;
            anyWatched |=
                    !cursor.paused
                            && !cursor.queued
                            && cursor.inFlight == null
                            && !cursor.reachedStop();
        }
        if (!anyWatched) {
            // Everything is polled or paused; answers, resumes and wake-ups end the wait.
            return pollIntervalNanos;
        }
        describing = true;
        requests.describeTopic()
                .whenComplete(
                        (details, error) -> answers.add(new Answer(null, null, 0, details, error)));
        return pollIntervalNanos;
    }

    /** The delay before the next description, given the time since data last arrived. */
    @VisibleForTesting
    static long describeDelayNanos(
            long sinceDataNanos, int topicPartitions, long pollIntervalNanos) {
        long shortest =
                MIN_DESCRIBE_DELAY_NANOS + topicPartitions * DESCRIBE_DELAY_PER_PARTITION_NANOS;
        long backedOff = sinceDataNanos / BACK_OFF_DIVISOR;
        return Math.min(pollIntervalNanos, Math.max(shortest, backedOff));
    }

    private void polled(Cursor cursor, PolledMessages polled, IggyPolledRecords records) {
        List<Message> messages = polled.messages();
        int size = messages.size();
        if (size == 0) {
            // Nothing at our position: as far as we know, this is the end; watch it.
            cursor.knownEnd = cursor.nextOffset;
            publishEnd(cursor);
            return;
        }
        long first = messages.get(0).header().offset().longValue();
        long last = messages.get(size - 1).header().offset().longValue();
        long stop = cursor.split.stoppingOffset();
        if (first < cursor.nextOffset || last >= stop || last - first + 1 != size) {
            messages = unreadWithin(messages, cursor.nextOffset, stop);
            last = messages.isEmpty() ? cursor.nextOffset - 1 : offsetOf(messages, -1);
        }
        if (!messages.isEmpty()) {
            records.add(cursor.splitId, messages);
            cursor.nextOffset = last + 1;
            if (cursor.reachedStop()) {
                reachedStop.add(cursor);
            }
        }
        BigInteger current = polled.currentOffset();
        cursor.knownEnd =
                Math.max(cursor.nextOffset, current == null ? 0 : current.longValue() + 1);
        publishEnd(cursor);
        if (cursor.hasUnreadData()) {
            markDue(cursor); // ask for the next batch while the task thread emits this one
        } else {
            // Caught up right after data: more may follow soon, so look again soon.
            lastDataNanos = System.nanoTime();
            nextDescribeAtNanos =
                    Math.min(
                            nextDescribeAtNanos,
                            lastDataNanos
                                    + describeDelayNanos(0, topicPartitions, pollIntervalNanos));
        }
    }

    private static long offsetOf(List<Message> messages, int index) {
        int i = index < 0 ? messages.size() + index : index;
        return messages.get(i).header().offset().longValue();
    }

    /** The messages in [from, stop), first copy of each offset, in order. */
    private static List<Message> unreadWithin(List<Message> messages, long from, long stop) {
        List<Message> kept = new ArrayList<>(messages.size());
        long next = from;
        for (Message message : messages) {
            long offset = message.header().offset().longValue();
            if (offset >= next && offset < stop) {
                kept.add(message);
                next = offset + 1;
            }
        }
        return kept;
    }

    private void publishEnd(Cursor cursor) {
        boolean first = cursor.published.caughtUpOffset == IggySourceReaderMetrics.UNKNOWN;
        IggySourceReaderMetrics.publishEnd(cursor.published, cursor.knownEnd);
        handOverEmpty |= first;
    }

    private void described(Optional<TopicDetails> answer) throws IOException {
        long now = System.nanoTime();
        if (answer.isEmpty()) {
            topicMissing();
            nextDescribeAtNanos = now + pollIntervalNanos;
            return;
        }
        TopicDetails details = answer.get();
        topicMissingLogged = false;
        topicPartitions = details.partitions().size();
        pollSize.described(details);
        TopicIdentity identity = new TopicIdentity(details);
        if (topicIdentity == null) {
            topicIdentity = identity;
        } else if (!topicIdentity.sameAs(identity)) {
            TopicIdentity old = topicIdentity;
            topicIdentity = identity;
            recreated(
                    "it was deleted and created again (it had "
                            + old
                            + ", it has "
                            + identity
                            + ")",
                    cursors.values());
        }
        for (Partition partition : details.partitions()) {
            Cursor cursor = cursors.get(partition.id());
            if (cursor == null || cursor.removed) {
                continue;
            }
            long end = endOf(partition);
            if (end < cursor.offsetAtDescribe && !maybeOneExpiredMessage(partition, cursor)) {
                recreated(
                        "partition "
                                + partition.id()
                                + " ends at offset "
                                + end
                                + " but offsets up to "
                                + (cursor.offsetAtDescribe - 1)
                                + " were read already",
                        List.of(cursor));
                continue;
            }
            if (cursor.inFlight == null) {
                cursor.knownEnd = Math.max(end, cursor.nextOffset);
                publishEnd(cursor);
                if (cursor.hasUnreadData()) {
                    markDue(cursor);
                }
            }
        }
        nextDescribeAtNanos =
                now + describeDelayNanos(now - lastDataNanos, topicPartitions, pollIntervalNanos);
    }

    /**
     * The exclusive end of a partition. {@code current_offset} is 0 both when the partition is
     * empty and when it holds one message, so emptiness comes from the message count.
     */
    static long endOf(Partition partition) {
        long current = partition.currentOffset().longValue();
        boolean empty =
                partition.messagesCount() == null || partition.messagesCount().signum() == 0;
        return empty && current == 0 ? 0 : current + 1;
    }

    /** A partition whose single message expired reports what an empty one does. */
    private static boolean maybeOneExpiredMessage(Partition partition, Cursor cursor) {
        return cursor.offsetAtDescribe == 1 && endOf(partition) == 0;
    }

    private void recreated(String what, Collection<Cursor> affected) throws IOException {
        String message =
                "Iggy "
                        + requests.description()
                        + " changed under the running source: "
                        + what
                        + ".";
        if (!readRecreatedTopicFromStart) {
            throw new IggyConnectorException(
                    message
                            + " Reading on would skip messages silently, so the source stops. Restart the job from a"
                            + " savepoint or checkpoint taken before, start it without state, or let the source read"
                            + " a re-created topic from its start (IggySourceBuilder#setReadRecreatedTopicFromStart, SQL"
                            + " 'scan.recreated-topic.read-from-start').");
        }
        LOG.warn("{} Reading the affected partitions again from their start (offset 0).", message);
        for (Cursor cursor : affected) {
            cursor.dropPolls();
            cursor.nextOffset = 0;
            cursor.offsetAtDescribe = 0;
            cursor.knownEnd = IggySourceReaderMetrics.UNKNOWN;
            markDue(cursor);
        }
    }

    private void topicMissing() throws IOException {
        String message =
                "Iggy "
                        + requests.description()
                        + " no longer exists: it was deleted under the running source.";
        if (!readRecreatedTopicFromStart) {
            throw new IggyConnectorException(
                    message
                            + " Re-create it and restart the job; to read a re-created topic from its start, set"
                            + " IggySourceBuilder#setReadRecreatedTopicFromStart (SQL"
                            + " 'scan.recreated-topic.read-from-start').");
        }
        if (!topicMissingLogged) {
            topicMissingLogged = true;
            LOG.warn("{} Waiting for it to be created again.", message);
        }
    }

    private void pollFailed(Cursor cursor, Throwable error) throws IOException {
        Throwable cause = IggyClients.asRuntime(error);
        if (IggyErrorCode.STREAM_ID_NOT_FOUND.isCauseOf(cause)
                || IggyErrorCode.TOPIC_ID_NOT_FOUND.isCauseOf(cause)) {
            topicMissing();
            cursor.knownEnd = cursor.nextOffset; // watched until the topic is back
            return;
        }
        throw new IOException(
                "Polling partition "
                        + cursor.split.partitionId()
                        + " of "
                        + requests.description()
                        + " from offset "
                        + cursor.nextOffset
                        + " failed: "
                        + cause,
                cause);
    }

    private void describeFailed(Throwable error) throws IOException {
        Throwable cause = IggyClients.asRuntime(error);
        if (IggyErrorCode.STREAM_ID_NOT_FOUND.isCauseOf(cause)
                || IggyErrorCode.TOPIC_ID_NOT_FOUND.isCauseOf(cause)) {
            topicMissing();
            nextDescribeAtNanos = System.nanoTime() + pollIntervalNanos;
            return;
        }
        if (cause instanceof IggyConnectorException) {
            throw (IggyConnectorException) cause; // cannot connect or log in: says so itself
        }
        throw new IOException("Describing " + requests.description() + " failed: " + cause, cause);
    }

    @Override
    public void handleSplitsChanges(SplitsChange<IggyPartitionSplit> splitsChanges) {
        if (splitsChanges instanceof SplitsAddition) {
            for (IggyPartitionSplit split : splitsChanges.splits()) {
                Cursor cursor = new Cursor(split, metrics.partition(split.partitionId()));
                cursors.put(split.partitionId(), cursor);
                if (cursor.reachedStop()) {
                    reachedStop.add(cursor);
                }
            }
            // New partitions are found out about by describing the topic at once, and data is
            // as likely to come now as right after data: a fresh reader is not an idle one.
            nextDescribeAtNanos = System.nanoTime();
            lastDataNanos = nextDescribeAtNanos;
        } else if (splitsChanges instanceof SplitsRemoval) {
            for (IggyPartitionSplit split : splitsChanges.splits()) {
                Cursor removed = cursors.remove(split.partitionId());
                if (removed != null) {
                    removed.removed = true;
                    removed.dropPolls();
                }
            }
        }
    }

    @Override
    public void pauseOrResumeSplits(
            Collection<IggyPartitionSplit> splitsToPause,
            Collection<IggyPartitionSplit> splitsToResume) {
        for (IggyPartitionSplit split : splitsToPause) {
            Cursor cursor = cursors.get(split.partitionId());
            if (cursor != null) {
                cursor.paused = true;
            }
        }
        for (IggyPartitionSplit split : splitsToResume) {
            Cursor cursor = cursors.get(split.partitionId());
            if (cursor != null) {
                cursor.paused = false;
                if (cursor.hasUnreadData()) {
                    markDue(cursor);
                } else {
                    nextDescribeAtNanos = System.nanoTime();
                }
            }
        }
    }

    @Override
    public void wakeUp() {
        answers.add(Answer.WAKE_UP);
    }

    @Override
    public void close() {
        for (Cursor cursor : cursors.values()) {
            cursor.dropPolls();
        }
        cursors.clear();
        // The requests belong to the source reader, which closes them.
    }
}

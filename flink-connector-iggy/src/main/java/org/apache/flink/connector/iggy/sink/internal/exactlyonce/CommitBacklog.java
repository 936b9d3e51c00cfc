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
package org.apache.flink.connector.iggy.sink.internal.exactlyonce;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.connector.iggy.sink.internal.send.MailboxWait;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriteAheadFile;
import org.apache.flink.metrics.Counter;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Keeps an exactly-once writer about one checkpoint ahead of its committer. Writing a message to a
 * write-ahead file costs less than sending it, so a writer that never waited would take input
 * faster than its committer sends it: the files not yet sent would grow without bound on disk, and
 * each commit, which holds the committer's task until it ends, would delay the next checkpoint
 * longer, until checkpoints time out.
 *
 * <p>So a message waits while at least two of the writer's checkpoints are not yet committed and
 * the messages written after the oldest of them (those of later checkpoints and those since the
 * last one) hold more bytes than that oldest one, or than {@link #MIN_AHEAD_BYTES}. The waits end
 * as the committer deletes the oldest checkpoint's files, looked for again and again while the
 * task's mails run. The writer then writes about as much as its committer sends, at the same time.
 *
 * <p>A wait never needs the writer: the checkpoints it waits for have passed it, and the oldest is
 * committed once it or the one after it completes. Only if both failed would its messages wait for
 * a checkpoint the writer has yet to take part in; so the writer waits at most {@link #GIVE_UP} for
 * one checkpoint's commit, and then goes on without waiting for it.
 *
 * <p>Confined to the task thread.
 */
@Internal
final class CommitBacklog {

    private static final Logger LOG = LoggerFactory.getLogger(CommitBacklog.class);

    /** How long the writer waits at most for one checkpoint's commit. */
    static final Duration GIVE_UP = Duration.ofMinutes(2);

    /** How far ahead of the oldest uncommitted checkpoint the writer may always get. */
    static final long MIN_AHEAD_BYTES = 64L << 20;

    /** How often a wait looks for deleted files: from the first to the last, doubling. */
    private static final long FIRST_LOOK_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private static final long LAST_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final MailboxExecutor mailbox;
    private final Counter waitedMs;
    private final Duration giveUp;
    private final LongSupplier nanoTime;
    private final Predicate<WriteAheadFile> deleted;

    /** Each checkpoint taken and not known to be committed, oldest first. */
    private final Deque<Taken> uncommitted = new ArrayDeque<>();

    /** The bytes of every checkpoint in {@link #uncommitted} but the oldest. */
    private long bytesAfterOldest;

    /**
     * @param waitedMs counts the milliseconds the writer waited for its committer
     * @param deleted whether a file was deleted, which its committer does once it committed it:
     *     {@link #isDeleted} but in tests
     */
    CommitBacklog(
            MailboxExecutor mailbox,
            Counter waitedMs,
            Duration giveUp,
            LongSupplier nanoTime,
            Predicate<WriteAheadFile> deleted) {
        this.mailbox = mailbox;
        this.waitedMs = waitedMs;
        this.giveUp = giveUp;
        this.nanoTime = nanoTime;
        this.deleted = deleted;
    }

    /**
     * A checkpoint took these committables, of {@code bytes} in all: their committer deletes their
     * files once sent.
     */
    void taken(Collection<IggyCommittable> committables, long bytes) {
        if (committables.isEmpty()) {
            return;
        }
        List<WriteAheadFile> files =
                committables.stream()
                        .map(IggyCommittable::file)
                        .collect(Collectors.toCollection(ArrayList::new));
        if (!uncommitted.isEmpty()) {
            bytesAfterOldest += bytes;
        }
        uncommitted.addLast(new Taken(files, bytes));
        // what was committed meanwhile is forgotten here, since a writer that is never too far
        // ahead never waits: its backlog stays short whatever the number of checkpoints
        while (uncommitted.size() > 1 && committed(uncommitted.peekFirst())) {
            removeOldest();
        }
    }

    /**
     * Before each message: waits while the writer is too far ahead of its committer.
     *
     * @param openBytes the bytes written since the last checkpoint
     */
    void beforeMessage(long openBytes) throws IOException {
        if (!tooFarAhead(openBytes)) {
            return;
        }
        long start = nanoTime.getAsLong();
        long oldestSince = start;
        long pause = FIRST_LOOK_NANOS;
        while (tooFarAhead(openBytes)) {
            Taken oldest = uncommitted.peekFirst();
            boolean committed = committed(oldest);
            boolean givenUp = !committed && nanoTime.getAsLong() - oldestSince >= giveUp.toNanos();
            if (givenUp) {
                LOG.warn(
                        "Going on after waiting {} for the commit of {}: the checkpoints that"
                                + " hold them may have failed, and then they are sent after the"
                                + " next one completes",
                        giveUp,
                        oldest.files());
            }
            if (committed || givenUp) {
                removeOldest();
                oldestSince = nanoTime.getAsLong();
                pause = FIRST_LOOK_NANOS;
                continue;
            }
            pauseRunningMails(pause);
            pause = Math.min(2 * pause, LAST_LOOK_NANOS);
        }
        waitedMs.inc(TimeUnit.NANOSECONDS.toMillis(nanoTime.getAsLong() - start));
    }

    private boolean tooFarAhead(long openBytes) {
        return uncommitted.size() > 1
                && bytesAfterOldest + openBytes
                        > Math.max(uncommitted.peekFirst().bytes(), MIN_AHEAD_BYTES);
    }

    private void removeOldest() {
        uncommitted.removeFirst();
        bytesAfterOldest -= uncommitted.isEmpty() ? 0 : uncommitted.peekFirst().bytes();
    }

    /** Whether every file of the checkpoint was deleted; forgets those that were. */
    private boolean committed(Taken checkpoint) {
        checkpoint.files().removeIf(deleted);
        return checkpoint.files().isEmpty();
    }

    /** Whether the file was deleted; false if that cannot be told. */
    static boolean isDeleted(WriteAheadFile file) {
        try {
            return file.isDiscarded();
        } catch (IOException e) {
            LOG.debug("Could not tell whether {} was committed", file, e);
            return false;
        }
    }

    private void pauseRunningMails(long nanos) throws InterruptedIOException {
        try {
            MailboxWait.await(
                    mailbox,
                    CompletableFuture.runAsync(
                            () -> {},
                            CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS)),
                    "Iggy commit backlog check");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(
                    "Interrupted while waiting for the commit of earlier checkpoints");
        }
    }

    /** The files of one checkpoint not yet seen deleted, and the bytes it took. */
    private record Taken(List<WriteAheadFile> files, long bytes) {}
}

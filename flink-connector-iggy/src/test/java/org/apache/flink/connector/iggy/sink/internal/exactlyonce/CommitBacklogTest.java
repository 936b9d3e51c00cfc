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

import org.apache.flink.connector.base.sink.writer.TestSinkInitContext;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriteAheadFile;
import org.apache.flink.connector.iggy.testutils.Conditions;
import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.SimpleCounter;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The writer waits while it is more than about a checkpoint ahead of its committer, and never for
 * the checkpoint it just took.
 */
class CommitBacklogTest {

    private static final Duration GIVE_UP = Duration.ofMinutes(2);
    private static final long MIN = CommitBacklog.MIN_AHEAD_BYTES;

    private final SimpleCounter waitedMs = new SimpleCounter();
    private final AtomicLong now = new AtomicLong();

    /** Every file of the test, by identity: what the backlog looks at. */
    private final Map<WriteAheadFile, Held> held = new ConcurrentHashMap<>();

    @Test
    void theCheckpointJustTakenIsNeverWaitedFor() throws Exception {
        CommitBacklog backlog = backlog(System::nanoTime);
        Held only = new Held();
        backlog.taken(List.of(only.committable(1)), 10 * MIN);
        backlog.beforeMessage(100 * MIN);
        assertThat(only.looks).as("nothing older to wait for").hasValue(0);
    }

    @Test
    void aWriterAsFarAheadAsTheOldestCheckpointHoldsGoesOn() throws Exception {
        CommitBacklog backlog = backlog(System::nanoTime);
        Held oldest = new Held();
        backlog.taken(List.of(oldest.committable(1)), 3 * MIN);
        backlog.taken(List.of(new Held().committable(2)), MIN);
        backlog.beforeMessage(2 * MIN);
        assertThat(oldest.looks).as("looked at once, when the second was taken").hasValue(1);

        CommitBacklog small = backlog(System::nanoTime);
        Held tiny = new Held();
        small.taken(List.of(tiny.committable(1)), 1);
        small.taken(List.of(new Held().committable(2)), 1);
        small.beforeMessage(MIN - 2);
        assertThat(tiny.looks).as("at least MIN_AHEAD_BYTES ahead").hasValue(1);
        assertThat(waitedMs.getCount()).isZero();
    }

    @Test
    void aWriterFurtherAheadWaitsUntilTheOldestCheckpointIsCommitted() throws Exception {
        Held oldest = new Held();
        Held newer = new Held();
        // the mailbox belongs to the thread that made it: the wait runs there
        CompletableFuture<Void> message = new CompletableFuture<>();
        Thread task =
                new Thread(
                        () -> {
                            try {
                                CommitBacklog backlog = backlog(System::nanoTime);
                                backlog.taken(List.of(oldest.committable(1)), 2 * MIN);
                                backlog.taken(List.of(newer.committable(2)), 2 * MIN);
                                backlog.beforeMessage(1);
                                message.complete(null);
                            } catch (Throwable e) {
                                message.completeExceptionally(e);
                            }
                        });
        task.start();
        Conditions.waitUntil(
                "the writer looked for the oldest commit three more times",
                Duration.ofSeconds(30),
                () -> oldest.looks.get() >= 4 || message.isDone());
        assertThat(message).as("still waiting").isNotDone();

        oldest.discarded = true;
        message.get(30, TimeUnit.SECONDS);
        task.join();
        assertThat(newer.looks).as("the checkpoint just taken is not waited for").hasValue(0);
    }

    @Test
    void committedCheckpointsAreForgottenWhenTheNextIsTaken() throws Exception {
        CommitBacklog backlog = backlog(System::nanoTime);
        Held committed = new Held();
        committed.discarded = true;
        backlog.taken(List.of(), 0);
        backlog.taken(List.of(committed.committable(1)), MIN);
        Held last = new Held();
        backlog.taken(List.of(last.committable(2)), MIN);
        assertThat(committed.looks).hasValue(1);

        backlog.beforeMessage(100 * MIN);
        assertThat(last.looks).as("only the last is left, and it is never waited for").hasValue(0);
        assertThat(committed.looks).hasValue(1);
        assertThat(waitedMs.getCount()).isZero();
    }

    @Test
    void aWaitForOneCheckpointEndsAfterTheGiveUpTimeEvenIfNothingWasCommitted() throws Exception {
        // each look at the clock is a minute later
        CommitBacklog backlog = backlog(() -> now.addAndGet(Duration.ofMinutes(1).toNanos()));
        Held neverCommitted = new Held();
        Held alsoNot = new Held();
        Held last = new Held();
        backlog.taken(List.of(neverCommitted.committable(1)), MIN);
        backlog.taken(List.of(alsoNot.committable(2)), MIN);
        backlog.taken(List.of(last.committable(3)), MIN);

        backlog.beforeMessage(MIN);

        assertThat(neverCommitted.looks.get()).isGreaterThan(1);
        assertThat(alsoNot.looks.get()).as("waited for once the first was given up").isPositive();
        assertThat(last.looks).hasValue(0);
        assertThat(waitedMs.getCount()).isGreaterThanOrEqualTo(2 * GIVE_UP.toMillis());
        int looks = neverCommitted.looks.get();
        backlog.beforeMessage(100 * MIN);
        assertThat(neverCommitted.looks)
                .as("a checkpoint given up on is not waited for again")
                .hasValue(looks);
    }

    private CommitBacklog backlog(LongSupplier clock) {
        return new CommitBacklog(
                new TestSinkInitContext().getMailboxExecutor(),
                waitedMs,
                GIVE_UP,
                clock,
                file -> held.get(file).looked());
    }

    /** A checkpoint's file for one partition, deleted when the test says. */
    private final class Held {
        final WriteAheadFile file = new WriteAheadFile(new Path("file:/held/" + held.size()), 1, 1);
        final AtomicInteger looks = new AtomicInteger();
        volatile boolean discarded;

        Held() {
            held.put(file, this);
        }

        IggyCommittable committable(long checkpointId) {
            return new IggyCommittable(
                    IggyId.of("s"),
                    IggyId.of("t"),
                    0,
                    checkpointId,
                    IggyCommittable.tag(7, checkpointId),
                    0,
                    file);
        }

        boolean looked() {
            looks.incrementAndGet();
            return discarded;
        }
    }
}

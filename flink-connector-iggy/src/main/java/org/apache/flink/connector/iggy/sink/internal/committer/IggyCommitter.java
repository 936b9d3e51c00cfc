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
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.sink.internal.committer.InFlightSends.Attempt;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.IggyClientBatchSender;
import org.apache.flink.connector.iggy.sink.internal.send.OpenBatch;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriteAheadFile;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.runtime.metrics.scope.ScopeFormat;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Sends the {@link IggyCommittable}s of an exactly-once sink once their checkpoint completed.
 *
 * <p>It runs in a task of its own, apart from the writer (see {@link CommitterHandoff}), and sends
 * through the writer's kind of {@link IggyClientBatchSender}: batches cut as the writer cuts them
 * ({@link OpenBatch}), up to {@link IggyWriterConfig#maxInFlightRequests} of them unanswered but
 * only one per partition ({@link InFlightSends}), over one connection. Once that connection closed,
 * the sender sends nothing more, so no batch overtakes a lost or refused one. Flink commits the
 * committables of one checkpoint after those of every earlier one, so each partition receives them
 * in order.
 *
 * <p>A committable that may have been sent in part before (a retry, or one restored from a
 * checkpoint) is read back first ({@link ReadBack}), recognising its messages by their ids, and
 * only the messages not found are sent, one batch at a time. This holds whatever the server's
 * deduplication setting and however long the job was down.
 *
 * <p>A committable wholly in its partition has its write-ahead file deleted in the background
 * ({@link CommittedFiles}): the next checkpoint need not wait for that. If the sink asks for it,
 * its partition is first flushed to disk with fsync ({@link BeforeDeleting}).
 *
 * <p>A send that fails, times out or loses its connection ends the attempt: the connection is
 * closed, and every committable not wholly acknowledged is retried (Flink's {@code
 * sink.committer.retries}), the later ones too, so none of a partition overtakes an earlier one. A
 * send of the closed connection may still be applied by the server later, so a retry reads back
 * only once the server no longer lists that connection (see {@link ClientFence}). The same holds
 * for the connections of an earlier committer of its subtask, a zombie after a failover: this
 * committer starts a new epoch and waits for them, and a zombie that connects later sends nothing
 * ({@link CommitterEpochs}).
 *
 * <p>A target stream, topic or partition that no longer exists, or any other configuration error,
 * fails the job with an error naming it: the output of a completed checkpoint is never skipped. An
 * interrupt ends the task instead of spending a retry.
 *
 * <p>Connects on its first commit. Confined to the committer's task thread; the metric gauges only
 * read.
 */
@Internal
public final class IggyCommitter implements Committer<IggyCommittable> {

    private static final Logger LOG = LoggerFactory.getLogger(IggyCommitter.class);

    /**
     * What a test runs before each send of a committable but its first, once fewer than the allowed
     * number of batches are unanswered, to fail or stop there. Test code gives it to an
     * exactly-once sink (their {@code withBetweenSends}), which ships it to every committer.
     */
    @VisibleForTesting
    @FunctionalInterface
    public interface BetweenSends extends Serializable {
        void run(IggyCommittable committable, int messagesSent) throws Exception;
    }

    /** What production committers run between two sends: nothing. */
    public static final BetweenSends NOTHING = (committable, messagesSent) -> {};

    private final BetweenSends betweenSends;

    private final IggyWriterConfig config;
    private final long restoredCheckpointId;
    private final Counter reconnects;
    @Nullable private IggyClientBatchSender sender;

    /** Each sender after the first counts as a reconnect: a sender never reconnects itself. */
    private int sendersOpened;

    /** The server's id of {@link #sender}'s connection. */
    @Nullable private Long clientId;

    private final ClientFence fence;
    private final ReadBack readBack;
    private final InFlightSends inFlight;
    private final BeforeDeleting beforeDeleting;
    private final CommittedFiles committedFiles;

    private final Counter messagesCommitted;
    private final Counter messagesReadBack;
    private final Counter messagesResent;

    /** Written by the task thread only; volatile for the metric reporter's gauge. */
    private volatile int pendingCommittables;

    /**
     * A committer of the sink operator and subtask {@code context} names, whose metric group gets
     * {@code messagesCommitted}, {@code messagesReadBack}, {@code messagesResent}, {@code
     * readBackTimeMs} and {@code iggyPendingCommittables}, and {@code reconnects}: connections
     * opened again after a failure. Its epochs go to the write-ahead directory (see {@link
     * CommitterEpochs}).
     */
    public IggyCommitter(
            IggyWriterConfig config, CommitterInitContext context, BetweenSends betweenSends) {
        this(
                config,
                context.getRestoredCheckpointId(),
                context.metricGroup(),
                betweenSends,
                WriteAheadFile::discard,
                new CommitterEpochs(
                        CommitterEpochs.directory(
                                config.writeAhead().directory(),
                                context.getJobInfo().getJobId().toHexString(),
                                context.metricGroup()
                                        .getAllVariables()
                                        .getOrDefault(ScopeFormat.SCOPE_OPERATOR_ID, "committer")),
                        context.getTaskInfo().getIndexOfThisSubtask(),
                        context.getTaskInfo().getNumberOfParallelSubtasks()));
    }

    /**
     * @param deletion deletes the write-ahead file of a committed committable
     * @param epochs this committer's epoch and its subtask's earlier ones
     */
    @VisibleForTesting
    IggyCommitter(
            IggyWriterConfig config,
            OptionalLong restoredCheckpointId,
            MetricGroup metrics,
            BetweenSends betweenSends,
            CommittedFiles.Deletion deletion,
            CommitterEpochs epochs) {
        this.config = config;
        this.betweenSends = betweenSends;
        this.restoredCheckpointId = restoredCheckpointId.orElse(0);
        this.reconnects = metrics.counter(IggyClients.RECONNECTS, new ThreadSafeSimpleCounter());
        this.fence = new ClientFence(config.connection(), epochs);
        this.messagesCommitted = metrics.counter("messagesCommitted");
        this.messagesReadBack = metrics.counter("messagesReadBack");
        this.messagesResent = metrics.counter("messagesResent");
        this.readBack =
                new ReadBack(config, config.connection().requestTimeout(), messagesReadBack);
        this.inFlight = new InFlightSends(config.connection().requestTimeout(), messagesCommitted);
        this.beforeDeleting = BeforeDeleting.of(config);
        this.committedFiles = new CommittedFiles("iggy-sink-discard " + config.stream(), deletion);
        metrics.gauge("readBackTimeMs", readBack::lastTimeMs);
        metrics.gauge("iggyPendingCommittables", () -> pendingCommittables);
    }

    @Override
    public void commit(Collection<CommitRequest<IggyCommittable>> requests)
            throws IOException, InterruptedException {
        pendingCommittables = requests.size();
        List<Started> started = new ArrayList<>();
        RuntimeException failure = null;
        for (CommitRequest<IggyCommittable> request : requests) {
            if (failure != null) {
                // A later committable of the same partition must not overtake the failed one.
                request.retryLater();
                continue;
            }
            IggyCommittable committable = request.getCommittable();
            boolean maybeSentBefore =
                    request.getNumberOfRetries() > 0
                            || committable.checkpointId() <= restoredCheckpointId;
            Attempt attempt = new Attempt(committable);
            try {
                start(attempt, maybeSentBefore);
            } catch (IggyConfigurationException e) {
                // no retry mends it: Flink fails the job
                request.signalFailedWithUnknownReason(
                        e instanceof CannotCommit || e instanceof ClientFence.CannotFence
                                ? e
                                : new CannotCommit(committable, e.getMessage()));
                failure = e;
                continue;
            } catch (RuntimeException e) {
                failure = e;
            } catch (InterruptedException e) {
                throw interrupted(e);
            }
            started.add(new Started(request, attempt));
        }
        if (failure == null) {
            try {
                inFlight.awaitAll();
            } catch (RuntimeException e) {
                failure = e;
            } catch (InterruptedException e) {
                throw interrupted(e);
            }
        }
        if (failure != null) {
            if (Thread.currentThread().isInterrupted()) {
                throw interrupted(failure);
            }
            giveUp(failure);
        }
        List<Started> done = new ArrayList<>();
        for (Started one : started) {
            if (one.attempt.isDone()) {
                done.add(one);
            } else {
                one.request.retryLater();
            }
        }
        if (!runBeforeDeleting(done)) {
            return;
        }
        for (Started one : done) {
            if (!one.attempt.sentAny()) {
                one.request.signalAlreadyCommitted();
            }
            pendingCommittables--;
            readBack.forget(one.attempt.committable);
            committedFiles.discard(one.attempt.committable);
        }
    }

    /** A commit request and its attempt, begun in one {@link #commit} call. */
    private record Started(CommitRequest<IggyCommittable> request, Attempt attempt) {}

    /**
     * Runs {@link #beforeDeleting} for the partitions of the committed attempts; if it fails, their
     * files stay and their requests are retried (or fail the job, for a configuration error).
     *
     * @return whether it succeeded
     */
    private boolean runBeforeDeleting(List<Started> done) throws InterruptedException {
        if (done.isEmpty()) {
            return true;
        }
        Set<IggyTopicPartition> partitions = new LinkedHashSet<>();
        for (Started one : done) {
            partitions.add(one.attempt.committable.target());
        }
        try {
            beforeDeleting.run(() -> sender().client(), partitions);
            return true;
        } catch (IggyConfigurationException e) {
            done.forEach(one -> one.request.signalFailedWithUnknownReason(e));
        } catch (IOException | RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw interrupted(e);
            }
            giveUp(e);
            done.forEach(one -> one.request.retryLater());
        }
        return false;
    }

    /**
     * Reads back if the committable may have been sent before, then sends the messages missing,
     * waiting only for room among the unanswered batches.
     */
    private void start(Attempt attempt, boolean maybeSentBefore)
            throws IOException, InterruptedException {
        IggyCommittable committable = attempt.committable;
        int count = committable.messageCount();
        BitSet present = new BitSet(count);
        if (maybeSentBefore) {
            // Everything sent before is acknowledged (or the attempt failed) before reading back.
            inFlight.awaitAll();
        }
        // Nothing is read back or sent while an earlier connection may still append.
        fence.await(sender().client());
        // Fails with CannotCommit if the target is gone, on a first attempt too.
        long end = endOffset(committable);
        if (maybeSentBefore) {
            present = readBack.present(sender().client(), committable, count, end);
            LOG.info(
                    "Committing {} again: {} of them were in the partition already",
                    committable,
                    present.cardinality());
            messagesResent.inc(count - present.cardinality());
        }
        // After a failure, one batch at a time.
        int window = maybeSentBefore ? 1 : config.maxInFlightRequests();
        OpenBatch batch = new OpenBatch(config);
        int sent = 0;
        if (present.cardinality() < count) {
            // Opened only when something is missing: a restored commit found complete needs no
            // write-ahead file, which its first commit deleted.
            try (WriteAheadFile.Reader messages = committable.openMessages()) {
                for (int i = 0; i < count; i++) {
                    OutgoingMessage message = messages.next();
                    if (!present.get(i)) {
                        batch.add(message);
                        if (batch.isFull()) {
                            sent = send(attempt, batch, sent, window);
                        }
                    }
                }
            }
        }
        if (!batch.isEmpty()) {
            send(attempt, batch, sent, window);
        }
        inFlight.sentAll(attempt);
    }

    /**
     * @return the messages of the committable sent so far
     */
    private int send(Attempt attempt, OpenBatch batch, int sentBefore, int window)
            throws IOException, InterruptedException {
        inFlight.awaitRoom(window, attempt);
        if (sentBefore > 0) {
            try {
                betweenSends.run(attempt.committable, sentBefore);
            } catch (Exception e) {
                throw new IOException("The test hook between two sends failed", e);
            }
        }
        int size = batch.size();
        inFlight.send(sender(), attempt, batch.take());
        return sentBefore + size;
    }

    /** Closes the connection after a failure; its sends may still be applied (see the fence). */
    private void giveUp(Exception failure) {
        LOG.warn(
                "Failed to commit to {}; retrying: {}",
                config.target(),
                IggyClients.describe(failure));
        abandon();
    }

    /** The task is being cancelled: end it instead of spending a retry. */
    private InterruptedException interrupted(Exception e) {
        abandon();
        InterruptedException ended =
                new InterruptedException("Interrupted while committing to " + config.target());
        ended.initCause(e);
        return ended;
    }

    /** Gives up the unanswered sends; the connection's requests may still be applied. */
    private void abandon() {
        inFlight.abandon();
        if (clientId != null) {
            fence.closedAfterFailure(clientId);
        }
        closeSender();
    }

    /** The partition's end offset now; fails with {@link CannotCommit} if it no longer exists. */
    private long endOffset(IggyCommittable committable) throws IOException {
        TopicDescription topic;
        try {
            topic = sender().client().describe(committable.stream(), committable.topic());
        } catch (IggyConfigurationException e) {
            throw new CannotCommit(committable, e.getMessage());
        }
        Long end = topic.endOffsets().get(committable.partition());
        if (end != null) {
            return end;
        }
        throw new CannotCommit(committable, "the partition no longer exists");
    }

    /**
     * Connects on first use, and records the connection before anything is sent on it (see {@link
     * ClientFence#opened}); fails with an {@link IggyConfigurationException} if the target is gone,
     * the credentials are refused or the user may not list the server's clients.
     */
    private IggyClientBatchSender sender() throws IOException {
        if (sender == null) {
            if (sendersOpened++ > 0) {
                reconnects.inc();
            }
            IggyClientBatchSender opened = IggyClientBatchSender.openWithoutReconnecting(config);
            try {
                long id = opened.client().clientId();
                fence.opened(opened.client(), id);
                clientId = id;
            } catch (IOException | RuntimeException e) {
                opened.close();
                throw e;
            }
            sender = opened;
        }
        return sender;
    }

    private void closeSender() {
        if (sender != null) {
            sender.close();
            sender = null;
            clientId = null;
        }
    }

    /** Messages read back since this committer was made. */
    @VisibleForTesting
    long messagesReadBack() {
        return messagesReadBack.getCount();
    }

    /** Messages sent again by commits that read back first. */
    @VisibleForTesting
    long messagesResent() {
        return messagesResent.getCount();
    }

    @Override
    public void close() {
        if (inFlight.isEmpty()) {
            closeSender();
            fence.closedCleanly();
        } else {
            abandon();
        }
        committedFiles.close();
    }

    /** A committable cannot be committed by any retry: the job must fail, not skip it. */
    private static final class CannotCommit extends IggyConfigurationException {
        private static final long serialVersionUID = 1L;

        CannotCommit(IggyCommittable committable, String why) {
            super(
                    "Cannot commit the "
                            + committable
                            + ": "
                            + why
                            + ". An exactly-once Iggy sink never skips the output of a completed"
                            + " checkpoint: mend that (recreate what is gone) and restart the job"
                            + " from its last checkpoint, or restart it without that checkpoint to"
                            + " give that output up.");
        }
    }
}

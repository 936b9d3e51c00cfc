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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyTopics;
import org.apache.flink.connector.iggy.common.SdkIds;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.message.PollingStrategy;
import org.apache.iggy.partition.Partition;
import org.apache.iggy.topic.TopicDetails;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.io.Serializable;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * Sends the {@link IggyCommittable}s of an exactly-once sink once their checkpoint completed.
 *
 * <p>Flink commits the committables of one checkpoint after those of every earlier one, so each
 * partition receives them in order. Within a committable, batches are sent one after the other,
 * each after the previous one was acknowledged, so a committable that failed half-way has a prefix
 * of its messages in the partition and never a later message without an earlier one.
 *
 * <p>A committable that may have been sent in part before (a retry, or one restored from a
 * checkpoint) is read back first: from the partition's end offset when it was made ({@link
 * IggyCommittable#readFrom}) to the partition's end now, recognising its messages by their ids.
 * Only the messages not found are sent. This holds whatever the server's deduplication setting and
 * however long the job was down; the read covers the committable's own messages and whatever else
 * reached the partition since it was made.
 *
 * <p>A send that timed out or lost its connection may still be applied by the server later, so a
 * retry reads back only once the server no longer lists the failed connection (see {@link
 * ClientFence}). After a failure the committables after it are retried too, so none of a partition
 * overtakes an earlier one.
 *
 * <p>A target stream, topic or partition that no longer exists fails the job with an error naming
 * it: the output of a completed checkpoint is never skipped. Any other failure is retried (Flink's
 * {@code sink.committer.retries}), reading back first; an interrupt ends the task instead.
 *
 * <p>Connects on its first commit. Confined to the committer's task thread; the metric gauges only
 * read.
 */
@Internal
public final class IggyCommitter implements Committer<IggyCommittable> {

    private static final Logger LOG = LoggerFactory.getLogger(IggyCommitter.class);

    /** Reading back never stores an offset, so any plain consumer will do. */
    private static final Consumer READ_BACK = Consumer.of(ConsumerId.of("flink-sink-read-back"));

    /**
     * What a test runs between two sends of one committable, to fail or stop there; given to a sink
     * by {@link #withBetweenSends}, and shipped with it to every committer.
     */
    @VisibleForTesting
    @FunctionalInterface
    public interface BetweenSends extends Serializable {
        void run(IggyCommittable committable, int messagesSent) throws Exception;
    }

    /** What production committers run between two sends: nothing. */
    static final BetweenSends NOTHING = (committable, messagesSent) -> {};

    private final BetweenSends betweenSends;

    private final IggyWriterConfig config;
    private final long restoredCheckpointId;
    private final Counter reconnects;
    @Nullable private AsyncIggyTcpClient client;

    /** The server's id of {@link #client}'s connection. */
    @Nullable private Long clientId;

    private final ClientFence fence;

    private final Counter messagesCommitted;
    private final Counter messagesReadBack;
    private final Counter messagesResent;

    /** Written by the task thread only; volatile for the metric reporter's gauges. */
    private volatile long readBackTimeMs;

    private volatile int pendingCommittables;

    /**
     * @param metrics the committer's group: it gets {@code messagesCommitted}, {@code
     *     messagesReadBack}, {@code messagesResent}, {@code readBackTimeMs} and {@code
     *     iggyPendingCommittables}, and {@code reconnects} (see {@link
     *     IggyClients#connect(org.apache.flink.connector.iggy.common.IggyConnectionConfig,
     *     Counter)})
     */
    IggyCommitter(
            IggyWriterConfig config,
            OptionalLong restoredCheckpointId,
            MetricGroup metrics,
            BetweenSends betweenSends) {
        this.config = config;
        this.betweenSends = betweenSends;
        this.restoredCheckpointId = restoredCheckpointId.orElse(0);
        this.reconnects = metrics.counter(IggyClients.RECONNECTS, new ThreadSafeSimpleCounter());
        this.fence = new ClientFence(config.connection().requestTimeout());
        this.messagesCommitted = metrics.counter("messagesCommitted");
        this.messagesReadBack = metrics.counter("messagesReadBack");
        this.messagesResent = metrics.counter("messagesResent");
        metrics.gauge("readBackTimeMs", () -> readBackTimeMs);
        metrics.gauge("iggyPendingCommittables", () -> pendingCommittables);
    }

    /**
     * The same exactly-once sink, built by {@link IggySink#builder()} or {@link
     * IggySink#keyedMap()}, whose committers run {@code hook} between two sends of a committable.
     */
    @VisibleForTesting
    public static <IN> Sink<IN> withBetweenSends(Sink<IN> exactlyOnceSink, BetweenSends hook) {
        if (exactlyOnceSink instanceof ExactlyOnceIggySink) {
            return ((ExactlyOnceIggySink<IN>) exactlyOnceSink).withBetweenSends(hook);
        }
        if (exactlyOnceSink instanceof ExactlyOnceKeyedMapSink) {
            return ((ExactlyOnceKeyedMapSink<IN>) exactlyOnceSink).withBetweenSends(hook);
        }
        throw new IllegalArgumentException("Not an exactly-once Iggy sink: " + exactlyOnceSink);
    }

    @Override
    public void commit(Collection<CommitRequest<IggyCommittable>> requests)
            throws IOException, InterruptedException {
        pendingCommittables = requests.size();
        boolean failed = false;
        for (CommitRequest<IggyCommittable> request : requests) {
            if (failed) {
                // A later committable of the same partition must not overtake the failed one.
                request.retryLater();
                continue;
            }
            IggyCommittable committable = request.getCommittable();
            boolean maybeSentBefore =
                    request.getNumberOfRetries() > 0
                            || committable.checkpointId() <= restoredCheckpointId;
            try {
                if (!commit(committable, maybeSentBefore)) {
                    request.signalAlreadyCommitted();
                }
                pendingCommittables--;
                discardMessages(committable);
            } catch (TargetGone e) {
                request.signalFailedWithUnknownReason(e);
            } catch (RuntimeException e) {
                if (Thread.currentThread().isInterrupted()) {
                    // The task is being cancelled: end it instead of spending a retry.
                    closeClient();
                    throw new InterruptedException("Interrupted while committing " + committable);
                }
                LOG.warn(
                        "Failed to commit {} to {}; retrying: {}",
                        committable,
                        config.connection().address(),
                        IggyClients.describe(e));
                if (clientId != null) {
                    fence.closedAfterFailure(clientId);
                }
                closeClient();
                request.retryLater();
                failed = true;
            }
        }
    }

    /**
     * @return whether anything was sent
     */
    private boolean commit(IggyCommittable committable, boolean maybeSentBefore)
            throws IOException, InterruptedException {
        if (maybeSentBefore) {
            fence.await(client());
        }
        long end = endOffset(committable);
        int count = committable.messageCount();
        BitSet present = maybeSentBefore ? readBack(committable, end) : new BitSet(count);
        int missing = count - present.cardinality();
        if (maybeSentBefore) {
            LOG.info(
                    "Committing {} again: {} of them were in the partition already",
                    committable,
                    count - missing);
        }
        if (missing == 0) {
            return false;
        }
        if (maybeSentBefore) {
            messagesResent.inc(missing);
        }
        List<Message> batch = new ArrayList<>();
        long batchBytes = 0;
        int sent = 0;
        try (WriteAheadMessages.Reader messages = committable.openMessages()) {
            for (int i = 0; i < count; i++) {
                Message message = messages.next();
                if (present.get(i)) {
                    continue;
                }
                long size = IggyWireMessages.wireSize(message);
                if (!batch.isEmpty()
                        && (batch.size() >= config.batchSize()
                                || batchBytes + size > config.maxBatchBytes())) {
                    send(committable, batch);
                    sent += batch.size();
                    runBetweenSends(committable, sent);
                    batch = new ArrayList<>();
                    batchBytes = 0;
                }
                batch.add(message);
                batchBytes += size;
            }
        }
        send(committable, batch);
        return true;
    }

    /** The partition's end offset now; fails with {@link TargetGone} if it no longer exists. */
    private long endOffset(IggyCommittable committable) {
        Optional<TopicDetails> details =
                IggyClients.await(
                        client().topics()
                                .getTopic(
                                        SdkIds.streamId(committable.stream()),
                                        SdkIds.topicId(committable.topic())),
                        config.connection().requestTimeout(),
                        "read topic " + committable.topic() + " of stream " + committable.stream());
        if (details.isEmpty()) {
            String why;
            try {
                IggyTopics.describe(
                        client(), config.connection(), committable.stream(), committable.topic());
                why = "its topic was deleted";
            } catch (IggyConnectorException e) {
                why = e.getMessage();
            }
            throw new TargetGone(committable, why);
        }
        for (Partition partition : details.get().partitions()) {
            if (partition.id() == committable.partition()) {
                return IggyTopics.endOffset(partition);
            }
        }
        throw new TargetGone(committable, "the partition no longer exists");
    }

    /**
     * Which of the committable's messages are in the partition already. Reads from the partition's
     * end when the committable was made, or from its start if its end is below that now (the
     * partition was purged, or deleted and created again): messages sent since then start at 0.
     */
    private BitSet readBack(IggyCommittable committable, long end) {
        long started = System.nanoTime();
        try {
            return readBack(
                    committable, committable.readFrom() <= end ? committable.readFrom() : 0, end);
        } finally {
            readBackTimeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        }
    }

    private BitSet readBack(IggyCommittable committable, long from, long end) {
        int size = committable.messageCount();
        BitSet present = new BitSet(size);
        long offset = from;
        while (offset < end && present.cardinality() < size) {
            PolledMessages polled =
                    IggyClients.await(
                            client().messages()
                                    .pollMessages(
                                            SdkIds.streamId(committable.stream()),
                                            SdkIds.topicId(committable.topic()),
                                            Optional.of(committable.partition()),
                                            READ_BACK,
                                            PollingStrategy.offset(BigInteger.valueOf(offset)),
                                            Math.min(config.batchSize(), end - offset),
                                            false),
                            config.connection().requestTimeout(),
                            "read back partition " + committable.partition());
            if (polled.messages().isEmpty()) {
                break;
            }
            for (Message m : polled.messages()) {
                messagesReadBack.inc();
                int sequence =
                        committable.sequenceOf(
                                IggyWireMessages.wireId(m.header().id().toBigInteger()));
                if (sequence >= 0) {
                    present.set(sequence);
                }
                offset = m.header().offset().longValueExact() + 1;
            }
        }
        return present;
    }

    private void send(IggyCommittable committable, List<Message> batch) {
        IggyClients.await(
                client().messages()
                        .sendMessages(
                                SdkIds.streamId(committable.stream()),
                                SdkIds.topicId(committable.topic()),
                                Partitioning.partitionId(committable.partition()),
                                batch),
                config.connection().requestTimeout(),
                "send " + batch.size() + " of the " + committable);
        messagesCommitted.inc(batch.size());
    }

    /** Deletes a committed committable's write-ahead file; a failure leaves it for cleanup. */
    private static void discardMessages(IggyCommittable committable) {
        try {
            committable.discardMessages();
        } catch (IOException e) {
            LOG.warn(
                    "Could not delete the write-ahead messages of the committed {}",
                    committable,
                    e);
        }
    }

    private void runBetweenSends(IggyCommittable committable, int sent) throws IOException {
        try {
            betweenSends.run(committable, sent);
        } catch (Exception e) {
            throw new IOException("The test hook between two sends failed", e);
        }
    }

    private AsyncIggyTcpClient client() {
        if (client == null) {
            client = IggyClients.connectWithOneConnection(config.connection(), reconnects);
            clientId =
                    IggyClients.await(
                                    client.system().getMe(),
                                    config.connection().requestTimeout(),
                                    "read the committer's client id")
                            .clientId();
        }
        return client;
    }

    private void closeClient() {
        if (client != null) {
            IggyClients.closeAndWait(client);
            client = null;
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
        closeClient();
    }

    /** The target of a committable no longer exists: the job must fail, not skip it. */
    private static final class TargetGone extends IggyConnectorException {
        private static final long serialVersionUID = 1L;

        TargetGone(IggyCommittable committable, String why) {
            super(
                    "Cannot commit the "
                            + committable
                            + ": "
                            + why
                            + ". An exactly-once Iggy sink never skips the output of a completed"
                            + " checkpoint: recreate the stream, topic and partition and restart"
                            + " the job from its last checkpoint, or restart it without that"
                            + " checkpoint to give that output up.");
        }
    }
}

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
package org.apache.flink.connector.iggy.sink.internal.batching;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.FailureCopy;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.common.client.IggyErrorCode;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.IggyBatchSender;
import org.apache.flink.connector.iggy.sink.internal.send.IggyClientBatchSender;
import org.apache.flink.connector.iggy.sink.internal.send.OpenBatch;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writer.SinkDelivery;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

import javax.annotation.Nullable;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Delivery for {@link DeliveryGuarantee#AT_LEAST_ONCE} and {@link DeliveryGuarantee#NONE}: collects
 * messages per (stream, topic, partition) in an {@link OpenBatch} and sends each batch
 * asynchronously, with at most {@code maxInFlightRequests} batches sent or waiting to be sent, over
 * all topics together.
 *
 * <p>A batch is closed when {@link OpenBatch} says it is full (its byte bound, or its message cap
 * if one is set), when its oldest record has waited for the linger time (a processing-time timer,
 * so an idle buffer is flushed too), and on {@link #flush}. With linger zero a record is sent at
 * once if its partition has nothing in flight, else it waits for the next acknowledgement, so
 * batches grow with the server's latency.
 *
 * <p>Every send is issued from the task thread: the sender's single connection carries requests in
 * the order they were issued (see {@link IggyClientBatchSender}), so several batches of one
 * partition may be in flight and still be appended in order, while the task collects the next
 * batch. The one exception: a batch with client message ids (idempotent writes) waits until its
 * partition has nothing in flight. Were it appended while an earlier batch failed, the replay after
 * recovery would append the earlier batch behind it and deduplication would drop the later one's
 * replay, reordering the partition.
 *
 * <p>With {@code AT_LEAST_ONCE} {@code flush} runs the task's mails until every batch is
 * acknowledged, so a checkpoint completes only after the server acknowledged everything before its
 * barrier; with {@code NONE} only at the end of the input. A send unanswered after the request
 * timeout fails. A failed send fails the next {@code add} or {@code flush} with its cause, and no
 * later batch of any partition is sent after it: nothing is silently dropped.
 *
 * <p>Threads: every field is owned by the task thread; send results come back to it as mails. Only
 * {@code lastSendTimeMillis} is written by the sender's completion callbacks, for the {@code
 * currentSendTime} gauge.
 */
@Internal
public final class AtLeastOnceDelivery implements SinkDelivery {

    private final IggyWriterConfig config;
    private final Supplier<IggyBatchSender> sender;
    private final ProcessingTimeService timeService;
    private final MailboxExecutor mailbox;
    private final long lingerMillis;
    private final Duration requestTimeout;
    private final boolean awaitAcknowledgements;

    private final Map<IggyTopicPartition, PartitionBuffer> buffers = new HashMap<>();

    /** Batches sent and unanswered, plus closed batches waiting for their partition. */
    private int pendingBatches;

    @Nullable private IggyConnectorException sendFailure;
    @Nullable private ScheduledFuture<?> lingerTimer;
    private boolean closed;

    private final Counter numRecordsSend;
    private final Counter numBytesSend;
    private final Counter numRecordsSendErrors;

    /** Written by the sender's completion callbacks; read by the metric reporter. */
    private volatile long lastSendTimeMillis;

    public AtLeastOnceDelivery(
            IggyWriterConfig config, Supplier<IggyBatchSender> sender, WriterInitContext context) {
        this.config = config;
        this.sender = sender;
        this.timeService = context.getProcessingTimeService();
        this.mailbox = context.getMailboxExecutor();
        this.lingerMillis = config.linger().toMillis();
        this.requestTimeout = config.connection().requestTimeout();
        this.awaitAcknowledgements = config.deliveryGuarantee() != DeliveryGuarantee.NONE;
        SinkWriterMetricGroup metrics = context.metricGroup();
        this.numRecordsSend = metrics.getNumRecordsSendCounter();
        this.numBytesSend = metrics.getNumBytesSendCounter();
        this.numRecordsSendErrors = metrics.getNumRecordsSendErrorsCounter();
        metrics.setCurrentSendTimeGauge(() -> lastSendTimeMillis);
    }

    @Override
    public void add(IggyTopicPartition target, OutgoingMessage message)
            throws IOException, InterruptedException {
        checkSendFailure();
        PartitionBuffer buffer = buffer(target);
        buffer.add(message);
        if (buffer.open.isFull() || (lingerMillis == 0 && buffer.isIdle())) {
            awaitCapacity();
            closeBatch(buffer);
        } else if (lingerMillis > 0 && lingerTimer == null) {
            armLingerTimer(buffer.firstAddedAt + lingerMillis);
        }
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
        for (PartitionBuffer buffer : buffers.values()) {
            if (!buffer.open.isEmpty()) {
                awaitCapacity();
                closeBatch(buffer);
            }
        }
        if (endOfInput || awaitAcknowledgements) {
            while (pendingBatches > 0 && sendFailure == null) {
                mailbox.yield();
            }
        }
        checkSendFailure();
    }

    /** Nothing: the batches are sent already. */
    @Override
    public Collection<IggyCommittable> prepareCommit() {
        return Collections.emptyList();
    }

    @Override
    public void close() {
        closed = true;
        if (lingerTimer != null) {
            lingerTimer.cancel(false);
            lingerTimer = null;
        }
    }

    private PartitionBuffer buffer(IggyTopicPartition target) {
        return buffers.computeIfAbsent(target, PartitionBuffer::new);
    }

    /** Runs the task's mails until a batch may be closed without exceeding the bound. */
    private void awaitCapacity() throws IOException, InterruptedException {
        while (pendingBatches >= config.maxInFlightRequests() && sendFailure == null) {
            mailbox.yield();
        }
        checkSendFailure();
    }

    /**
     * Turns the buffered records into a batch and sends what its partition allows. The buffer may
     * be empty already: mails run while waiting for capacity may have closed it.
     */
    private void closeBatch(PartitionBuffer buffer) {
        if (buffer.open.isEmpty()) {
            return;
        }
        buffer.waiting.add(buffer.takeBatch());
        pendingBatches++;
        sendWaiting(buffer);
    }

    private void sendWaiting(PartitionBuffer buffer) {
        Batch next;
        while (sendFailure == null
                && (next = buffer.waiting.peek()) != null
                && !(next.hasMessageIds() && buffer.inFlight > 0)) {
            buffer.waiting.poll();
            buffer.inFlight++;
            send(next);
        }
    }

    private void send(Batch batch) {
        long start = System.currentTimeMillis();
        CompletableFuture<Void> result;
        try {
            result = sender.get().send(batch.target(), batch.messages());
        } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
        }
        // The SDK never enforces its request timeout.
        result.orTimeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete(
                        (ok, error) -> {
                            if (error == null) {
                                lastSendTimeMillis = System.currentTimeMillis() - start;
                            }
                            try {
                                mailbox.execute(
                                        () -> onSendCompleted(batch, error), "Iggy send completed");
                            } catch (RejectedExecutionException e) {
                                // The task is shutting down; nothing is left to send.
                            }
                        });
    }

    private void onSendCompleted(Batch batch, @Nullable Throwable error) {
        PartitionBuffer buffer = buffers.get(batch.target());
        buffer.inFlight--;
        pendingBatches--;
        if (error != null) {
            numRecordsSendErrors.inc(batch.messages().size());
            if (sendFailure == null) {
                sendFailure = describeFailure(batch, error);
            }
            return;
        }
        numRecordsSend.inc(batch.messages().size());
        numBytesSend.inc(batch.bytes());
        if (closed) {
            return;
        }
        sendWaiting(buffer);
        closeLingeredBatches(timeService.getCurrentProcessingTime());
    }

    private void onLingerTimer(long time) {
        lingerTimer = null;
        closeLingeredBatches(time);
        // A lingered batch that found no capacity is closed by the next acknowledgement instead.
        long next = Long.MAX_VALUE;
        for (PartitionBuffer buffer : buffers.values()) {
            long due = buffer.firstAddedAt + lingerMillis;
            if (!buffer.open.isEmpty() && due > time) {
                next = Math.min(next, due);
            }
        }
        if (next != Long.MAX_VALUE) {
            armLingerTimer(next);
        }
    }

    /** Closes the batches whose oldest record waited for the linger time, while capacity lasts. */
    private void closeLingeredBatches(long now) {
        for (PartitionBuffer buffer : buffers.values()) {
            if (sendFailure != null || pendingBatches >= config.maxInFlightRequests()) {
                return;
            }
            if (!buffer.open.isEmpty()
                    && now - buffer.firstAddedAt >= lingerMillis
                    && (lingerMillis > 0 || buffer.isIdle())) {
                closeBatch(buffer);
            }
        }
    }

    private void armLingerTimer(long time) {
        lingerTimer = timeService.registerTimer(time, this::onLingerTimer);
    }

    private void checkSendFailure() throws IOException {
        if (sendFailure != null) {
            throw new IOException(sendFailure.getMessage(), sendFailure);
        }
    }

    private IggyConnectorException describeFailure(Batch batch, Throwable error) {
        Throwable cause = error instanceof CompletionException ? error.getCause() : error;
        String where = batch.target() + " at " + config.connection().address();
        if (cause instanceof TimeoutException) {
            return new IggyConnectorException(
                    "Timed out after "
                            + requestTimeout
                            + " waiting for the server to acknowledge "
                            + batch.messages().size()
                            + " messages to "
                            + where
                            + ". Check that the server is reachable and not overloaded, or raise the request timeout.",
                    cause);
        }
        cause = IggyClients.asRuntime(cause);
        String hint =
                IggyErrorCode.PARTITION_NOT_FOUND.isCauseOf(cause)
                        ? " (partition " + batch.target().partition() + " does not exist)"
                        : "";
        return new IggyConnectorException(
                "Failed to send "
                        + batch.messages().size()
                        + " messages to "
                        + where
                        + hint
                        + ": "
                        + cause.getMessage(),
                FailureCopy.serializable(cause));
    }

    @VisibleForTesting
    public int pendingBatches() {
        return pendingBatches;
    }

    @VisibleForTesting
    public int bufferedRecords() {
        int n = 0;
        for (PartitionBuffer b : buffers.values()) {
            n += b.open.size();
        }
        return n;
    }

    /** The records of one partition not yet in a batch, and its batches not yet answered. */
    private final class PartitionBuffer {
        private final IggyTopicPartition target;
        private final OpenBatch open = new OpenBatch(config);
        private boolean hasMessageIds;
        private long firstAddedAt;

        /** Closed batches in order, waiting until the partition may take them. */
        private final ArrayDeque<Batch> waiting = new ArrayDeque<>();

        private int inFlight;

        PartitionBuffer(IggyTopicPartition target) {
            this.target = target;
        }

        void add(OutgoingMessage message) {
            if (open.isEmpty()) {
                firstAddedAt = timeService.getCurrentProcessingTime();
            }
            open.add(message);
            hasMessageIds |= message.wireId() != null;
        }

        boolean isIdle() {
            return inFlight == 0 && waiting.isEmpty();
        }

        /** Hands the records to a batch and starts a new one. */
        Batch takeBatch() {
            long bytes = open.bytes();
            Batch batch = new Batch(target, open.take(), bytes, hasMessageIds);
            hasMessageIds = false;
            return batch;
        }
    }

    private record Batch(
            IggyTopicPartition target,
            List<OutgoingMessage> messages,
            long bytes,
            boolean hasMessageIds) {}
}

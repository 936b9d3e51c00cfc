package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

import org.apache.iggy.message.BigIntegerMessageId;
import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderValue;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.MessageHeader;
import org.apache.iggy.message.MessageId;

import javax.annotation.Nullable;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Batches records per partition and sends each batch asynchronously, with at most {@code
 * maxInFlightRequests} batches unacknowledged.
 *
 * <p>A batch is sent when it reaches the batch size or byte bound, when its oldest record has
 * waited for the linger time (a processing-time timer, so an idle buffer is flushed too), and on
 * {@link #flush}. Each partition has at most one batch being sent: the SDK spreads concurrent
 * requests over several connections, so two batches of one partition could otherwise be appended
 * out of order. A full batch of a busy partition is chained behind the one in flight; a partial one
 * keeps filling until the partition is free (rather than being cut by the linger time), so batches
 * grow with the server's latency. With {@link DeliveryGuarantee#AT_LEAST_ONCE} {@code flush} waits
 * for every send, so a checkpoint completes only after the server acknowledged everything before
 * its barrier. A failed send fails the next {@code write} or {@code flush} with its cause: nothing
 * is silently dropped.
 *
 * <p>Everything but the send callbacks runs on the task (mailbox) thread.
 */
@Internal
class IggySinkWriter<T> implements SinkWriter<T> {

    private final IggyWriterConfig config;
    private final IggyRecordSerializationSchema<T> schema;
    private final IggyBatchSender sender;
    private final IggySinkContext sinkContext;
    private final ProcessingTimeService timeService;
    private final long lingerMillis;

    private final Map<Long, PartitionBuffer> buffers = new HashMap<>();

    /** Unacknowledged batches in send order, for the in-flight bound and the metrics. */
    private final ArrayDeque<InFlightBatch> inFlight = new ArrayDeque<>();

    private final AtomicReference<Throwable> sendFailure = new AtomicReference<>();
    private final MailboxExecutor mailbox;
    @Nullable private ScheduledFuture<?> lingerTimer;
    private volatile boolean closed;

    private final Counter numRecordsSend;
    private final Counter numBytesSend;
    private final Counter numRecordsSendErrors;
    private volatile long lastSendTimeMillis;

    IggySinkWriter(
            IggyWriterConfig config,
            IggyRecordSerializationSchema<T> schema,
            IggyBatchSender sender,
            WriterInitContext context)
            throws IOException {
        this.config = config;
        this.schema = schema;
        this.sender = sender;
        this.timeService = context.getProcessingTimeService();
        this.mailbox = context.getMailboxExecutor();
        this.lingerMillis = config.linger().toMillis();
        int subtask = context.getTaskInfo().getIndexOfThisSubtask();
        int parallelism = context.getTaskInfo().getNumberOfParallelSubtasks();
        int partitions = sender.partitionCount();
        this.sinkContext =
                new IggySinkContext() {
                    @Override
                    public int subtaskId() {
                        return subtask;
                    }

                    @Override
                    public int parallelism() {
                        return parallelism;
                    }

                    @Override
                    public int partitionCount() {
                        return partitions;
                    }
                };
        SinkWriterMetricGroup metrics = context.metricGroup();
        this.numRecordsSend = metrics.getNumRecordsSendCounter();
        this.numBytesSend = metrics.getNumBytesSendCounter();
        this.numRecordsSendErrors = metrics.getNumRecordsSendErrorsCounter();
        metrics.setCurrentSendTimeGauge(() -> lastSendTimeMillis);
        try {
            schema.open(context.asSerializationSchemaInitializationContext(), sinkContext);
        } catch (Exception e) {
            throw new IOException("Cannot open the Iggy serialization schema", e);
        }
    }

    @Override
    public void write(T element, Context context) throws IOException, InterruptedException {
        retireCompleted();
        checkSendFailure();
        IggySinkRecord record = schema.serialize(element, sinkContext, context.timestamp());
        if (record == null) {
            return;
        }
        PartitionBuffer buffer =
                buffers.computeIfAbsent(record.partition(), p -> new PartitionBuffer());
        buffer.add(toMessage(record), timeService.getCurrentProcessingTime());
        if (buffer.isFull()) {
            send(record.partition(), buffer);
        } else if (lingerMillis == 0) {
            if (buffer.isIdle()) {
                send(record.partition(), buffer);
            }
        } else if (lingerTimer == null) {
            armLingerTimer(buffer.firstAddedAt + lingerMillis);
        }
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
        for (Map.Entry<Long, PartitionBuffer> e : buffers.entrySet()) {
            if (!e.getValue().messages.isEmpty()) {
                send(e.getKey(), e.getValue());
            }
        }
        if (endOfInput || config.deliveryGuarantee() != DeliveryGuarantee.NONE) {
            while (!inFlight.isEmpty()) {
                awaitOldest();
            }
        }
        retireCompleted();
        checkSendFailure();
    }

    @Override
    public void close() throws Exception {
        closed = true;
        if (lingerTimer != null) {
            lingerTimer.cancel(false);
            lingerTimer = null;
        }
        sender.close();
    }

    private void onLingerTimer(long time) throws IOException, InterruptedException {
        lingerTimer = null;
        long next = Long.MAX_VALUE;
        for (Map.Entry<Long, PartitionBuffer> e : buffers.entrySet()) {
            PartitionBuffer buffer = e.getValue();
            if (buffer.messages.isEmpty()) {
                continue;
            }
            if (time - buffer.firstAddedAt < lingerMillis) {
                next = Math.min(next, buffer.firstAddedAt + lingerMillis);
            } else if (buffer.isIdle()) {
                send(e.getKey(), buffer);
            }
            // else: sent when the partition's batch in flight is acknowledged
        }
        if (next != Long.MAX_VALUE) {
            armLingerTimer(next);
        }
        retireCompleted();
    }

    /** Runs in the mailbox when a batch of {@code partition} was answered. */
    private void onSendCompleted(long partition) throws IOException, InterruptedException {
        if (closed) {
            return;
        }
        retireCompleted();
        PartitionBuffer buffer = buffers.get(partition);
        if (!buffer.isIdle()) {
            return; // a later batch is in flight; its own completion comes here again
        }
        if (sendFailure.get() != null || buffer.messages.isEmpty()) {
            return;
        }
        long age = timeService.getCurrentProcessingTime() - buffer.firstAddedAt;
        if (buffer.isFull() || age >= lingerMillis) {
            send(partition, buffer);
        }
    }

    private void armLingerTimer(long time) {
        lingerTimer = timeService.registerTimer(time, this::onLingerTimer);
    }

    /**
     * Sends the buffer as one batch, right away if its partition has no batch in flight, else as
     * soon as that one is acknowledged (chained on the client's threads, so the task goes on).
     */
    private void send(long partition, PartitionBuffer buffer)
            throws IOException, InterruptedException {
        while (inFlight.size() >= config.maxInFlightRequests()) {
            awaitOldest();
        }
        if (buffer.sending != null && buffer.sending.result.isCompletedExceptionally()) {
            await(buffer.sending); // throws its failure: nothing may overtake a failed batch
        }
        checkSendFailure();
        List<Message> batch = buffer.messages;
        InFlightBatch sending = new InFlightBatch(partition, batch.size(), buffer.bytes);
        buffer.clear();
        long[] start = new long[1];
        if (buffer.isIdle()) {
            start[0] = System.currentTimeMillis();
            sending.result = sendNow(partition, batch);
        } else {
            sending.result =
                    buffer.sending.result.thenCompose(
                            ok -> {
                                start[0] = System.currentTimeMillis();
                                return sendNow(partition, batch);
                            });
        }
        buffer.sending = sending;
        inFlight.add(sending);
        sending.result.whenComplete(
                (ok, error) -> {
                    // A cancellation comes from await's timeout, which records it itself.
                    if (error != null && !(error instanceof CancellationException)) {
                        sendFailure.compareAndSet(
                                null, describeFailure(partition, sending.records, error));
                    } else if (error == null) {
                        lastSendTimeMillis = System.currentTimeMillis() - start[0];
                    }
                    if (!closed) {
                        try {
                            mailbox.execute(
                                    () -> onSendCompleted(partition), "Iggy send completed");
                        } catch (RejectedExecutionException e) {
                            // The task is shutting down; nothing is left to send.
                        }
                    }
                });
    }

    private CompletableFuture<Void> sendNow(long partition, List<Message> batch) {
        try {
            return sender.send(partition, batch);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Waits for the oldest unacknowledged batch. */
    private void awaitOldest() throws IOException {
        await(inFlight.peek());
    }

    /** Waits for one batch, bounded by the request timeout; fails with the first send failure. */
    private void await(InFlightBatch batch) throws IOException {
        try {
            IggyClients.await(
                    batch.result,
                    config.connection().requestTimeout(),
                    "send " + batch.records + " messages to partition " + batch.partition);
        } catch (RuntimeException e) {
            // The callback records send failures; a timeout is recorded here.
            sendFailure.compareAndSet(null, describeFailure(batch.partition, batch.records, e));
        }
        retireCompleted();
        checkSendFailure();
    }

    private void retireCompleted() {
        InFlightBatch head;
        while ((head = inFlight.peek()) != null && head.result.isDone()) {
            inFlight.poll();
            if (head.result.isCompletedExceptionally()) {
                numRecordsSendErrors.inc(head.records);
            } else {
                numRecordsSend.inc(head.records);
                numBytesSend.inc(head.bytes);
            }
        }
    }

    private void checkSendFailure() throws IOException {
        Throwable failure = sendFailure.get();
        if (failure != null) {
            throw new IOException(failure.getMessage(), failure);
        }
    }

    private IggyConnectorException describeFailure(long partition, int records, Throwable error) {
        Throwable cause = IggyClients.asRuntime(error);
        int code = IggyClients.serverErrorCode(cause);
        String hint = code == 3007 ? " (partition " + partition + " does not exist)" : "";
        return new IggyConnectorException(
                "Failed to send "
                        + records
                        + " messages to partition "
                        + partition
                        + " of "
                        + config.target()
                        + hint
                        + ": "
                        + cause.getMessage(),
                cause);
    }

    static Message toMessage(IggySinkRecord record) {
        byte[] payload = record.payload();
        Map<HeaderKey, HeaderValue> headers = record.userHeaders();
        long headersLength = 0;
        for (Map.Entry<HeaderKey, HeaderValue> h : headers.entrySet()) {
            headersLength += 10L + h.getKey().value().length + h.getValue().value().length;
        }
        BigInteger id = record.messageId();
        MessageHeader header =
                new MessageHeader(
                        BigInteger.ZERO,
                        id == null ? MessageId.serverGenerated() : new BigIntegerMessageId(id),
                        BigInteger.ZERO,
                        BigInteger.ZERO,
                        BigInteger.valueOf(record.originTimestampMicros()),
                        headersLength,
                        (long) payload.length,
                        BigInteger.ZERO);
        return new Message(header, payload, headers);
    }

    @VisibleForTesting
    int inFlightBatches() {
        return inFlight.size();
    }

    @VisibleForTesting
    int bufferedRecords() {
        int n = 0;
        for (PartitionBuffer b : buffers.values()) {
            n += b.messages.size();
        }
        return n;
    }

    private final class PartitionBuffer {
        private List<Message> messages = new ArrayList<>();
        private long bytes;
        private long firstAddedAt;

        /** The partition's batch in flight, if any. */
        @Nullable private InFlightBatch sending;

        void add(Message message, long now) {
            if (messages.isEmpty()) {
                firstAddedAt = now;
            }
            messages.add(message);
            bytes +=
                    MessageHeader.SIZE
                            + message.payload().length
                            + message.header().userHeadersLength();
        }

        boolean isIdle() {
            return sending == null || sending.result.isDone();
        }

        boolean isFull() {
            return messages.size() >= config.batchSize() || bytes >= config.maxBatchBytes();
        }

        /** Hands the list to a send and starts a new one (the client may still read the old). */
        void clear() {
            messages = new ArrayList<>();
            bytes = 0;
        }
    }

    private static final class InFlightBatch {
        final long partition;
        final int records;
        final long bytes;
        CompletableFuture<Void> result;

        InFlightBatch(long partition, int records, long bytes) {
            this.partition = partition;
            this.records = records;
            this.bytes = bytes;
        }
    }
}

package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
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
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Batches records per partition and sends each batch asynchronously, with at most {@code
 * maxInFlightRequests} batches unacknowledged.
 *
 * <p>A batch is sent when it reaches the batch size or byte bound, when its oldest record has
 * waited for the linger time (a processing-time timer, so an idle buffer is flushed too), and on
 * {@link #flush}. With {@link DeliveryGuarantee#AT_LEAST_ONCE} {@code flush} waits for every send,
 * so a checkpoint completes only after the server acknowledged everything before its barrier. A
 * failed send fails the next {@code write} or {@code flush} with its cause: nothing is silently
 * dropped.
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
    private final ArrayDeque<InFlightBatch> inFlight = new ArrayDeque<>();
    private final Map<Long, CompletableFuture<Void>> lastSend = new HashMap<>();
    private final AtomicReference<Throwable> sendFailure = new AtomicReference<>();
    @Nullable private ScheduledFuture<?> lingerTimer;

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
        if (lingerMillis == 0
                || buffer.messages.size() >= config.batchSize()
                || buffer.bytes >= config.maxBatchBytes()) {
            send(record.partition(), buffer);
        } else if (lingerTimer == null) {
            armLingerTimer(buffer.firstAddedAt + lingerMillis);
        }
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
        sendAll();
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
            if (time - buffer.firstAddedAt >= lingerMillis) {
                send(e.getKey(), buffer);
            } else {
                next = Math.min(next, buffer.firstAddedAt + lingerMillis);
            }
        }
        if (next != Long.MAX_VALUE) {
            armLingerTimer(next);
        }
        retireCompleted();
    }

    private void armLingerTimer(long time) {
        lingerTimer = timeService.registerTimer(time, this::onLingerTimer);
    }

    private void sendAll() throws IOException, InterruptedException {
        for (Map.Entry<Long, PartitionBuffer> e : buffers.entrySet()) {
            if (!e.getValue().messages.isEmpty()) {
                send(e.getKey(), e.getValue());
            }
        }
    }

    private void send(long partition, PartitionBuffer buffer)
            throws IOException, InterruptedException {
        while (inFlight.size() >= config.maxInFlightRequests()) {
            awaitOldest();
        }
        checkSendFailure();
        List<Message> batch = buffer.messages;
        long bytes = buffer.bytes;
        buffer.clear();
        // One batch at a time per partition: the SDK spreads concurrent requests over several
        // connections, so two in-flight batches for one partition could be appended out of order.
        CompletableFuture<Void> previous = lastSend.get(partition);
        CompletableFuture<Void> result;
        long[] start = new long[1];
        if (previous == null || previous.isDone() && !previous.isCompletedExceptionally()) {
            start[0] = System.currentTimeMillis();
            result = sendNow(partition, batch);
        } else {
            result =
                    previous.thenCompose(
                            ok -> {
                                start[0] = System.currentTimeMillis();
                                return sendNow(partition, batch);
                            });
        }
        lastSend.put(partition, result);
        int records = batch.size();
        result.whenComplete(
                (ok, error) -> {
                    // A cancellation comes from awaitOldest's timeout, which records it itself.
                    if (error != null && !(error instanceof CancellationException)) {
                        sendFailure.compareAndSet(null, describeFailure(partition, records, error));
                    } else if (error == null) {
                        lastSendTimeMillis = System.currentTimeMillis() - start[0];
                    }
                });
        inFlight.add(new InFlightBatch(result, partition, records, bytes));
    }

    private CompletableFuture<Void> sendNow(long partition, List<Message> batch) {
        try {
            return sender.send(partition, batch);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Waits for the oldest unacknowledged batch, bounded by the request timeout. */
    private void awaitOldest() throws IOException {
        InFlightBatch oldest = inFlight.peek();
        try {
            IggyClients.await(
                    oldest.result,
                    config.connection().requestTimeout(),
                    "send " + oldest.records + " messages to partition " + oldest.partition);
        } catch (RuntimeException e) {
            // The callback records send failures; a timeout is recorded here.
            sendFailure.compareAndSet(null, describeFailure(oldest.partition, oldest.records, e));
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

    private static final class PartitionBuffer {
        private List<Message> messages = new ArrayList<>();
        private long bytes;
        private long firstAddedAt;

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

        /** Hands the list to a send and starts a new one (the client may still read the old). */
        void clear() {
            messages = new ArrayList<>();
            bytes = 0;
        }
    }

    private static final class InFlightBatch {
        final CompletableFuture<Void> result;
        final long partition;
        final int records;
        final long bytes;

        InFlightBatch(CompletableFuture<Void> result, long partition, int records, long bytes) {
            this.result = result;
            this.partition = partition;
            this.records = records;
            this.bytes = bytes;
        }
    }
}

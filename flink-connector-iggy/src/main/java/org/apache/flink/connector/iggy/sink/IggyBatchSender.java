package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.Internal;

import org.apache.iggy.message.Message;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Sends batches of messages to partitions of the writer's topic. Batches of one partition are
 * appended in the order of the {@link #send} calls, also while earlier ones are unanswered.
 */
@Internal
interface IggyBatchSender extends AutoCloseable {

    /** Partitions of the target topic when the sender was opened. */
    int partitionCount();

    /** Completes when the server acknowledged the whole batch. */
    CompletableFuture<Void> send(long partition, List<Message> messages);

    @Override
    void close();
}

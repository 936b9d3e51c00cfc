package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyTopics;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** {@link IggyBatchSender} over one logged-in SDK client. */
@Internal
final class IggyClientBatchSender implements IggyBatchSender {

    private final AsyncIggyTcpClient client;
    private final StreamId stream;
    private final TopicId topic;
    private final int partitionCount;

    private IggyClientBatchSender(AsyncIggyTcpClient client, IggyWriterConfig config, int count) {
        this.client = client;
        this.stream = config.stream().toStreamId();
        this.topic = config.topic().toTopicId();
        this.partitionCount = count;
    }

    /**
     * Connects, logs in and checks that the topic exists (and has partitions), failing with a
     * message naming the address, stream and topic otherwise.
     */
    static IggyClientBatchSender open(IggyWriterConfig config) {
        AsyncIggyTcpClient client = IggyClients.connect(config.connection());
        try {
            int partitions =
                    Math.toIntExact(
                            IggyTopics.describe(
                                            client,
                                            config.connection(),
                                            config.stream(),
                                            config.topic())
                                    .partitionsCount());
            if (partitions == 0) {
                throw new org.apache.flink.connector.iggy.common.IggyConnectorException(
                        "Iggy "
                                + config.target()
                                + " has no partitions. The connector never creates partitions: add some first.");
            }
            return new IggyClientBatchSender(client, config, partitions);
        } catch (RuntimeException e) {
            IggyClients.closeQuietly(client);
            throw e;
        }
    }

    @Override
    public int partitionCount() {
        return partitionCount;
    }

    @Override
    public CompletableFuture<Void> send(long partition, List<Message> messages) {
        return client.messages()
                .sendMessages(stream, topic, Partitioning.partitionId(partition), messages);
    }

    @Override
    public void close() {
        IggyClients.closeQuietly(client);
    }
}

package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopics;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;

import javax.annotation.Nullable;

/**
 * Describes the topic through the SDK. Connects at the first description, on the worker thread that
 * asks, and keeps the connection until closed.
 */
@Internal
final class IggyTopicDescriber implements TopicDescriber {

    private final IggyConnectionConfig config;
    private final IggyId stream;
    private final IggyId topic;
    private final String consumerName;
    @Nullable private AsyncIggyTcpClient client;

    IggyTopicDescriber(
            IggyConnectionConfig config, IggyId stream, IggyId topic, String consumerName) {
        this.config = config;
        this.stream = stream;
        this.topic = topic;
        this.consumerName = consumerName;
    }

    @Override
    public synchronized PartitionOffsets describe() {
        if (client == null) {
            client = IggyClients.connect(config);
        }
        return new IggyPartitionOffsets(
                client,
                config,
                stream,
                topic,
                consumerName,
                IggyTopics.describe(client, config, stream, topic));
    }

    @Override
    public synchronized void close() {
        IggyClients.closeQuietly(client);
        client = null;
    }
}

package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopics;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;

/** Describes the topic through the SDK; connects (and so fails fast) when created. */
@Internal
final class IggyTopicDescriber implements TopicDescriber {

    private final IggyConnectionConfig config;
    private final IggyId stream;
    private final IggyId topic;
    private final String consumerName;
    private final AsyncIggyTcpClient client;

    IggyTopicDescriber(
            IggyConnectionConfig config, IggyId stream, IggyId topic, String consumerName) {
        this.config = config;
        this.stream = stream;
        this.topic = topic;
        this.consumerName = consumerName;
        this.client = IggyClients.connect(config);
    }

    @Override
    public PartitionOffsets describe() {
        return new IggyPartitionOffsets(
                client,
                config,
                stream,
                topic,
                consumerName,
                IggyTopics.describe(client, config, stream, topic));
    }

    @Override
    public void close() {
        IggyClients.closeQuietly(client);
    }
}

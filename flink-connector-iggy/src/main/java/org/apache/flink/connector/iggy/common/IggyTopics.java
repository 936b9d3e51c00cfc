package org.apache.flink.connector.iggy.common;

import org.apache.flink.annotation.Internal;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.stream.StreamDetails;
import org.apache.iggy.topic.TopicDetails;

import java.util.Optional;

/** Looks up a topic that must exist: the connector never creates or drops streams and topics. */
@Internal
public final class IggyTopics {

    private IggyTopics() {}

    /**
     * The topic's details (partitions with their offsets and message counts), or an error naming
     * the address, stream and topic and saying how to fix it.
     */
    public static TopicDetails describe(
            AsyncIggyTcpClient client, IggyConnectionConfig config, IggyId stream, IggyId topic) {
        Optional<TopicDetails> details =
                IggyClients.await(
                        client.topics().getTopic(stream.toStreamId(), topic.toTopicId()),
                        config.requestTimeout(),
                        "read topic " + topic + " of stream " + stream + " at " + config.address());
        if (details.isPresent()) {
            return details.get();
        }
        Optional<StreamDetails> streamDetails =
                IggyClients.await(
                        client.streams().getStream(stream.toStreamId()),
                        config.requestTimeout(),
                        "read stream " + stream + " at " + config.address());
        if (streamDetails.isEmpty()) {
            throw new IggyConnectorException(
                    "Iggy stream "
                            + stream
                            + " does not exist at "
                            + config.address()
                            + ". The connector never creates streams: create it first (or fix the stream name).");
        }
        throw new IggyConnectorException(
                "Iggy topic "
                        + topic
                        + " does not exist in stream "
                        + stream
                        + " at "
                        + config.address()
                        + ". The connector never creates topics: create it first (or fix the topic name).");
    }
}

package org.apache.flink.connector.iggy.testutils.server;

import java.util.TreeMap;

/** A stream and its topics. Changed only under the write lock of {@link ServerState}. */
final class StreamState {
    private final int id;
    private final long createdAt;
    String name;
    final TreeMap<Integer, TopicState> topics = new TreeMap<>();
    final IdAllocator topicIds = new IdAllocator();

    StreamState(int id, String name, long createdAt) {
        this.id = id;
        this.name = name;
        this.createdAt = createdAt;
    }

    int id() {
        return id;
    }

    long createdAt() {
        return createdAt;
    }

    TopicState findTopic(EntityId topicId) {
        return topicId.find(topics, topic -> topic.name);
    }

    TopicState topic(EntityId topicId) {
        TopicState topic = findTopic(topicId);
        if (topic == null) {
            throw CommandException.of(
                    ErrorCodes.TOPIC_ID_NOT_FOUND, "topic " + topicId + " not found in " + name);
        }
        return topic;
    }

    long sizeBytes() {
        long total = 0;
        for (TopicState topic : topics.values()) {
            total += topic.sizeBytes();
        }
        return total;
    }

    long messagesCount() {
        long total = 0;
        for (TopicState topic : topics.values()) {
            total += topic.messagesCount();
        }
        return total;
    }
}

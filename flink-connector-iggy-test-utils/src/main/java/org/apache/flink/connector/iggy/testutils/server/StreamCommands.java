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
package org.apache.flink.connector.iggy.testutils.server;

import java.util.List;

/** Streams (200–205), topics (300–305) and partitions (402, 403). */
final class StreamCommands {
    static final int MAX_PARTITIONS = 1000;

    private final ServerState state;

    StreamCommands(ServerState state) {
        this.state = state;
    }

    // ---- streams

    Reply createStream(UserAccount user, RequestReader request) {
        String name = request.str8();
        Permissioner.manageStreams(user);
        return state.write(
                () -> {
                    StreamState stream = state.createStream(name);
                    ResponseWriter out = new ResponseWriter();
                    writeStreamHeader(out, stream);
                    return Reply.of(out);
                });
    }

    Reply getStream(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        return state.read(
                () -> {
                    StreamState stream = state.findStream(streamId);
                    if (stream == null) {
                        return Reply.EMPTY;
                    }
                    Permissioner.readStream(user, stream.id());
                    ResponseWriter out = new ResponseWriter();
                    writeStreamHeader(out, stream);
                    for (TopicState topic : stream.topics.values()) {
                        writeTopicHeader(out, topic);
                    }
                    return Reply.of(out);
                });
    }

    Reply getStreams(UserAccount user) {
        Permissioner.readStreams(user);
        return state.read(
                () -> {
                    ResponseWriter out = new ResponseWriter();
                    for (StreamState stream : state.streams()) {
                        writeStreamHeader(out, stream);
                    }
                    return Reply.of(out);
                });
    }

    Reply updateStream(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        String name = request.str8();
        return state.write(
                () -> {
                    StreamState stream = state.stream(streamId);
                    Permissioner.manageStream(user, stream.id());
                    state.renameStream(stream, name);
                    return Reply.EMPTY;
                });
    }

    Reply deleteStream(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        return state.write(
                () -> {
                    StreamState stream = state.stream(streamId);
                    Permissioner.manageStream(user, stream.id());
                    state.deleteStream(stream);
                    return Reply.EMPTY;
                });
    }

    Reply purgeStream(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        return state.write(
                () -> {
                    StreamState stream = state.stream(streamId);
                    Permissioner.manageStream(user, stream.id());
                    for (TopicState topic : stream.topics.values()) {
                        topic.partitions.forEach(PartitionLog::purge);
                    }
                    return Reply.EMPTY;
                });
    }

    // ---- topics

    Reply createTopic(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        long partitionsCount = request.u32();
        int compression = request.u8();
        long messageExpiry = request.u64();
        long maxTopicSize = request.u64();
        int replicationFactor = request.u8();
        String name = request.str8();
        if (partitionsCount > MAX_PARTITIONS) {
            throw CommandException.of(ErrorCodes.TOO_MANY_PARTITIONS, "too many partitions");
        }
        return state.write(
                () -> {
                    StreamState stream = state.stream(streamId);
                    Permissioner.manageTopics(user, stream.id());
                    if (stream.findTopic(EntityId.ofName(name)) != null) {
                        throw CommandException.of(
                                ErrorCodes.TOPIC_NAME_ALREADY_EXISTS, "topic exists: " + name);
                    }
                    validateCompression(compression);
                    long maxSize = maxTopicSize == 0 ? TopicState.UNLIMITED : maxTopicSize;
                    if (maxSize != TopicState.UNLIMITED
                            && Long.compareUnsigned(maxSize, state.segmentSize()) < 0) {
                        throw CommandException.of(
                                ErrorCodes.INVALID_TOPIC_SIZE,
                                "max topic size "
                                        + Long.toUnsignedString(maxSize)
                                        + " is below the segment size "
                                        + state.segmentSize());
                    }
                    long createdAt = Clock.nowMicros();
                    TopicState topic =
                            new TopicState(
                                    stream.id(), stream.topicIds.allocate(), name, createdAt);
                    topic.compression = compression;
                    topic.messageExpiry = messageExpiry == 0 ? TopicState.UNLIMITED : messageExpiry;
                    topic.maxTopicSize = maxSize;
                    topic.replicationFactor = replicationFactor == 0 ? 1 : replicationFactor;
                    for (int i = 0; i < partitionsCount; i++) {
                        topic.partitions.add(state.newPartition(i, createdAt));
                    }
                    stream.topics.put(topic.id(), topic);
                    ResponseWriter out = new ResponseWriter();
                    writeTopicHeader(out, topic);
                    for (PartitionLog partition : topic.partitions) {
                        writePartition(out, partition, true);
                    }
                    return Reply.of(out);
                });
    }

    Reply getTopic(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        return state.read(
                () -> {
                    TopicState topic = state.findTopic(streamId, topicId);
                    if (topic == null) {
                        return Reply.EMPTY;
                    }
                    Permissioner.readTopic(user, topic);
                    ResponseWriter out = new ResponseWriter();
                    writeTopicHeader(out, topic);
                    for (PartitionLog partition : topic.partitions) {
                        writePartition(out, partition, false);
                    }
                    return Reply.of(out);
                });
    }

    Reply getTopics(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        return state.read(
                () -> {
                    StreamState stream = state.findStream(streamId);
                    if (stream == null) {
                        return Reply.EMPTY;
                    }
                    Permissioner.readStream(user, stream.id());
                    ResponseWriter out = new ResponseWriter();
                    for (TopicState topic : stream.topics.values()) {
                        writeTopicHeader(out, topic);
                    }
                    return Reply.of(out);
                });
    }

    Reply updateTopic(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        int compression = request.u8();
        long messageExpiry = request.u64();
        long maxTopicSize = request.u64();
        int replicationFactor = request.u8();
        String name = request.str8();
        return state.write(
                () -> {
                    StreamState stream = state.stream(streamId);
                    TopicState topic = stream.topic(topicId);
                    Permissioner.manageTopic(user, topic);
                    TopicState sameName = stream.findTopic(EntityId.ofName(name));
                    if (sameName != null && sameName != topic) {
                        throw CommandException.of(
                                ErrorCodes.TOPIC_NAME_ALREADY_EXISTS, "topic exists: " + name);
                    }
                    validateCompression(compression);
                    // Unlike create, update stores the values as sent (no defaults, no floor).
                    topic.name = name;
                    topic.compression = compression;
                    topic.messageExpiry = messageExpiry;
                    topic.maxTopicSize = maxTopicSize;
                    topic.replicationFactor = replicationFactor == 0 ? 1 : replicationFactor;
                    return Reply.EMPTY;
                });
    }

    Reply deleteTopic(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        return state.write(
                () -> {
                    StreamState stream = state.stream(streamId);
                    TopicState topic = stream.topic(topicId);
                    Permissioner.manageTopic(user, topic);
                    state.forgetGroups(topic);
                    stream.topics.remove(topic.id());
                    stream.topicIds.free(topic.id());
                    return Reply.EMPTY;
                });
    }

    Reply purgeTopic(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        return state.write(
                () -> {
                    TopicState topic = state.topic(streamId, topicId);
                    Permissioner.manageTopic(user, topic);
                    topic.partitions.forEach(PartitionLog::purge);
                    return Reply.EMPTY;
                });
    }

    // ---- partitions

    Reply createPartitions(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        long count = request.u32();
        return state.write(
                () -> {
                    TopicState topic = state.topic(streamId, topicId);
                    Permissioner.manageTopic(user, topic);
                    if (count == 0 || count > MAX_PARTITIONS) {
                        throw CommandException.of(
                                ErrorCodes.TOO_MANY_PARTITIONS, "bad partitions count " + count);
                    }
                    long createdAt = Clock.nowMicros();
                    int first = topic.partitions.size();
                    for (int i = 0; i < count; i++) {
                        topic.partitions.add(state.newPartition(first + i, createdAt));
                    }
                    groupsFollowPartitions(topic);
                    return Reply.EMPTY;
                });
    }

    Reply deletePartitions(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        long count = request.u32();
        return state.write(
                () -> {
                    TopicState topic = state.topic(streamId, topicId);
                    Permissioner.manageTopic(user, topic);
                    if (count == 0) {
                        throw CommandException.of(
                                ErrorCodes.TOO_MANY_PARTITIONS, "bad partitions count 0");
                    }
                    if (count > topic.partitions.size()) {
                        throw CommandException.of(
                                ErrorCodes.INVALID_PARTITIONS_COUNT,
                                "cannot delete " + count + " partitions");
                    }
                    List<PartitionLog> partitions = topic.partitions;
                    for (int i = 0; i < count; i++) {
                        partitions.remove(partitions.size() - 1);
                    }
                    groupsFollowPartitions(topic);
                    return Reply.EMPTY;
                });
    }

    private static void groupsFollowPartitions(TopicState topic) {
        for (ConsumerGroupState group : topic.groups.values()) {
            group.partitionsChanged(topic.partitions.size());
        }
    }

    private static void validateCompression(int compression) {
        if (compression != 1 && compression != 2) {
            throw CommandException.of(ErrorCodes.INVALID_COMMAND, "compression " + compression);
        }
    }

    // ---- encoders

    static void writeStreamHeader(ResponseWriter out, StreamState stream) {
        out.u32(stream.id())
                .u64(stream.createdAt())
                .u32(stream.topics.size())
                .u64(stream.sizeBytes())
                .u64(stream.messagesCount())
                .str8(stream.name);
    }

    static void writeTopicHeader(ResponseWriter out, TopicState topic) {
        out.u32(topic.id())
                .u64(topic.createdAt())
                .u32(topic.partitions.size())
                .u64(topic.messageExpiry)
                .u8(topic.compression)
                .u64(topic.maxTopicSize)
                .u8(topic.replicationFactor)
                .u64(topic.sizeBytes())
                .u64(topic.messagesCount())
                .str8(topic.name);
    }

    /**
     * @param created for the reply to a create: a fresh partition has no segment yet in the real
     *     server's reply, while later details count its active segment
     */
    static void writePartition(ResponseWriter out, PartitionLog partition, boolean created) {
        PartitionLog.Stats stats = partition.stats();
        out.u32(partition.id())
                .u64(partition.createdAt())
                .u32(created ? 0 : stats.segmentsCount())
                .u64(stats.currentOffset())
                .u64(stats.sizeBytes())
                .u64(stats.messagesCount());
    }
}

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

/** GET_CONSUMER_OFFSET (120), STORE_CONSUMER_OFFSET (121) and DELETE_CONSUMER_OFFSET (122). */
final class ConsumerOffsetCommands {
    private final ServerState state;

    ConsumerOffsetCommands(ServerState state) {
        this.state = state;
    }

    /**
     * Stores the offset of the last consumed message. The partition must have received a message
     * (since deleted or not) and the offset may not exceed its current offset (else 4100).
     */
    Reply store(Session session, UserAccount user, RequestReader request) {
        ConsumerRef consumer = request.consumer();
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        long requestedPartition = request.optionalPartitionId();
        long offset = request.u64();
        return state.read(
                () -> {
                    TopicState topic = state.topic(streamId, topicId);
                    Permissioner.pollMessages(user, topic);
                    ConsumerGroupState group = null;
                    long partitionId;
                    if (consumer.isGroup()) {
                        group = topic.group(consumer.id());
                        partitionId = group.partitionForStore(session, requestedPartition, topic);
                    } else {
                        partitionId = requestedPartition < 0 ? 0 : requestedPartition;
                    }
                    PartitionLog partition = topic.partition(partitionId);
                    PartitionLog.Stats stats = partition.stats();
                    if (!stats.hasCurrentOffset()
                            || Long.compareUnsigned(offset, stats.currentOffset()) > 0) {
                        throw CommandException.of(
                                ErrorCodes.INVALID_OFFSET,
                                "offset " + Long.toUnsignedString(offset) + " is past the end");
                    }
                    storeOffset(topic, partition, consumer, group, offset);
                    return Reply.EMPTY;
                });
    }

    /**
     * Stores a consumer's offset, as STORE_CONSUMER_OFFSET and an auto-committing poll do; a
     * group's commit may complete the group's pending revocations.
     *
     * @param group the consumer's group, or null for a single consumer
     */
    static void storeOffset(
            TopicState topic,
            PartitionLog partition,
            ConsumerRef consumer,
            ConsumerGroupState group,
            long offset) {
        if (group != null) {
            partition.groupOffsets().put(group.id(), offset);
            group.offsetCommitted(topic);
        } else {
            partition.consumerOffsets().put(consumer.offsetKey(), offset);
        }
    }

    /**
     * Returns {@code [partition u32][current offset u64][stored offset u64]}, or an empty OK when
     * anything is missing, including an offset that was never stored.
     */
    Reply get(UserAccount user, RequestReader request) {
        ConsumerRef consumer = request.consumer();
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        long requestedPartition = request.optionalPartitionId();
        return state.read(
                () -> {
                    TopicState topic = state.findTopic(streamId, topicId);
                    if (topic == null) {
                        return Reply.EMPTY;
                    }
                    Permissioner.pollMessages(user, topic);
                    long partitionId = requestedPartition < 0 ? 0 : requestedPartition;
                    if (partitionId >= topic.partitions.size()) {
                        return Reply.EMPTY;
                    }
                    PartitionLog partition = topic.partitions.get((int) partitionId);
                    Long stored;
                    if (consumer.isGroup()) {
                        ConsumerGroupState group = topic.findGroup(consumer.id());
                        stored = group == null ? null : partition.groupOffsets().get(group.id());
                    } else {
                        stored = partition.consumerOffsets().get(consumer.offsetKey());
                    }
                    if (stored == null) {
                        return Reply.EMPTY;
                    }
                    ResponseWriter out = new ResponseWriter(20);
                    out.u32(partitionId).u64(partition.stats().currentOffset()).u64(stored);
                    return Reply.of(out);
                });
    }

    /** Not reachable through SDK 0.8.0, but cheap: 3021 when nothing is stored. */
    Reply delete(UserAccount user, RequestReader request) {
        ConsumerRef consumer = request.consumer();
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        long requestedPartition = request.optionalPartitionId();
        return state.read(
                () -> {
                    TopicState topic = state.topic(streamId, topicId);
                    Permissioner.pollMessages(user, topic);
                    PartitionLog partition =
                            topic.partition(requestedPartition < 0 ? 0 : requestedPartition);
                    Long removed;
                    if (consumer.isGroup()) {
                        ConsumerGroupState group = topic.group(consumer.id());
                        removed = partition.groupOffsets().remove(group.id());
                    } else {
                        removed = partition.consumerOffsets().remove(consumer.offsetKey());
                    }
                    if (removed == null) {
                        throw CommandException.of(
                                ErrorCodes.CONSUMER_OFFSET_NOT_FOUND, "no offset stored");
                    }
                    return Reply.EMPTY;
                });
    }
}

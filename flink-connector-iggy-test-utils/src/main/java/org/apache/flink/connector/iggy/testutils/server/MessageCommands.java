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
import java.util.concurrent.ThreadLocalRandom;

/** SEND_MESSAGES (101) and POLL_MESSAGES (100). */
final class MessageCommands {
    private static final int PARTITIONING_BALANCED = 1;
    private static final int PARTITIONING_PARTITION_ID = 2;
    private static final int PARTITIONING_MESSAGES_KEY = 3;

    private static final int POLL_OFFSET = 1;
    private static final int POLL_TIMESTAMP = 2;
    private static final int POLL_FIRST = 3;
    private static final int POLL_LAST = 4;
    private static final int POLL_NEXT = 5;

    private final ServerState state;

    MessageCommands(ServerState state) {
        this.state = state;
    }

    /**
     * {@code [metadata_length u32][stream][topic][partitioning][count u32][index: count × 16]
     * [messages]}. The batch is validated first, then copied once into the stored form.
     */
    Reply send(UserAccount user, RequestReader request) {
        request.u32(); // metadata length: the fields below are self-delimiting
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        Partitioning partitioning = readPartitioning(request);
        int count = request.u32AsInt();
        if (count == 0) {
            throw CommandException.of(ErrorCodes.INVALID_MESSAGES_COUNT, "no messages");
        }
        int[] ends = readIndex(request, count);
        byte[] source = request.buffer();
        int dataStart = request.position();
        int dataLength = request.remaining();
        validateMessages(source, dataStart, dataLength, ends);

        byte[] data = new byte[dataLength];
        System.arraycopy(source, dataStart, data, 0, dataLength);
        assignMissingIds(data, ends);

        state.read(
                () -> {
                    TopicState topic = state.topic(streamId, topicId);
                    Permissioner.sendMessages(user, topic);
                    PartitionLog partition = topic.partition(partitioning.choose(topic));
                    partition.append(data, ends);
                    if (state.deleteOldestSegments()) {
                        topic.deleteOldestSegmentsWhileFull(partition);
                    }
                    return null;
                });
        return Reply.EMPTY;
    }

    private record Partitioning(int kind, long partitionId, byte[] key) {
        long choose(TopicState topic) {
            switch (kind) {
                case PARTITIONING_BALANCED:
                    if (topic.partitions.isEmpty()) {
                        throw CommandException.of(
                                ErrorCodes.TOPIC_ID_NOT_FOUND, "topic has no partitions");
                    }
                    return topic.nextBalancedPartition();
                case PARTITIONING_PARTITION_ID:
                    return partitionId;
                default:
                    if (topic.partitions.isEmpty()) {
                        // The real server divides by zero here; answer as for a missing partition.
                        throw CommandException.of(
                                ErrorCodes.PARTITION_NOT_FOUND, "topic has no partitions");
                    }
                    return ConsumerRef.xxh32(key) % topic.partitions.size();
            }
        }
    }

    private static Partitioning readPartitioning(RequestReader request) {
        int kind = request.u8();
        int length = request.u8();
        switch (kind) {
            case PARTITIONING_BALANCED:
                if (length != 0) {
                    throw CommandException.of(ErrorCodes.INVALID_FORMAT, "balanced with a value");
                }
                return new Partitioning(kind, -1, null);
            case PARTITIONING_PARTITION_ID:
                if (length != 4) {
                    throw CommandException.of(ErrorCodes.INVALID_FORMAT, "partition id length");
                }
                return new Partitioning(kind, request.u32(), null);
            case PARTITIONING_MESSAGES_KEY:
                if (length == 0) {
                    throw CommandException.of(ErrorCodes.INVALID_FORMAT, "empty messages key");
                }
                return new Partitioning(kind, -1, request.bytes(length));
            default:
                throw CommandException.of(ErrorCodes.INVALID_COMMAND, "partitioning " + kind);
        }
    }

    /** Each index entry is {@code [0 u32][end position u32][0 u64]}. */
    private static int[] readIndex(RequestReader request, int count) {
        if ((long) count * 16 > request.remaining()) {
            throw CommandException.of(ErrorCodes.MISSING_INDEX, "index shorter than count");
        }
        int[] ends = new int[count];
        int previous = 0;
        for (int i = 0; i < count; i++) {
            if (request.u32() != 0) {
                throw CommandException.of(ErrorCodes.NON_ZERO_OFFSET, "index offset not 0");
            }
            long end = request.u32();
            if (request.u64() != 0) {
                throw CommandException.of(ErrorCodes.NON_ZERO_TIMESTAMP, "index timestamp not 0");
            }
            if (end < previous) {
                throw CommandException.of(
                        ErrorCodes.CANNOT_READ_INDEX_POSITION, "index positions decrease");
            }
            ends[i] = (int) Math.min(end, Integer.MAX_VALUE);
            previous = ends[i];
        }
        return ends;
    }

    private static void validateMessages(byte[] buffer, int dataStart, int dataLength, int[] ends) {
        long previousHeaderOffset = 0;
        for (int i = 0; i < ends.length; i++) {
            int start = i == 0 ? 0 : ends[i - 1];
            int size = ends[i] - start;
            if (size < MessageLayout.HEADER_SIZE || ends[i] > dataLength) {
                throw CommandException.of(ErrorCodes.MISSING_INDEX, "message " + i + " truncated");
            }
            int at = dataStart + start;
            long headersLength =
                    LittleEndian.getInt(buffer, at + MessageLayout.USER_HEADERS_LENGTH)
                            & 0xFFFFFFFFL;
            long payloadLength =
                    LittleEndian.getInt(buffer, at + MessageLayout.PAYLOAD_LENGTH) & 0xFFFFFFFFL;
            if (payloadLength > MessageLayout.MAX_PAYLOAD_SIZE) {
                throw CommandException.of(ErrorCodes.TOO_BIG_MESSAGE_PAYLOAD, "payload too big");
            }
            if (headersLength > MessageLayout.MAX_USER_HEADERS_SIZE) {
                throw CommandException.of(ErrorCodes.TOO_BIG_USER_HEADERS, "headers too big");
            }
            if (MessageLayout.HEADER_SIZE + payloadLength + headersLength != size) {
                throw CommandException.of(ErrorCodes.INVALID_MESSAGES_SIZE, "message size");
            }
            long headerOffset = LittleEndian.getLong(buffer, at + MessageLayout.OFFSET);
            if (Long.compareUnsigned(headerOffset, previousHeaderOffset) < 0) {
                throw CommandException.of(ErrorCodes.INVALID_OFFSET, "header offsets decrease");
            }
            previousHeaderOffset = headerOffset;
        }
        if (ends[ends.length - 1] != dataLength) {
            throw CommandException.of(ErrorCodes.INVALID_MESSAGES_SIZE, "messages size mismatch");
        }
    }

    /** Id 0 means "server, choose": a random UUID v4, its 16 RFC-order bytes on the wire. */
    private static void assignMissingIds(byte[] data, int[] ends) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < ends.length; i++) {
            int at = (i == 0 ? 0 : ends[i - 1]) + MessageLayout.ID;
            if (LittleEndian.getLong(data, at) == 0 && LittleEndian.getLong(data, at + 8) == 0) {
                random.nextBytes(UUID_SCRATCH.get());
                byte[] uuid = UUID_SCRATCH.get();
                uuid[6] = (byte) ((uuid[6] & 0x0F) | 0x40); // version 4
                uuid[8] = (byte) ((uuid[8] & 0x3F) | 0x80); // IETF variant
                System.arraycopy(uuid, 0, data, at, 16);
            }
        }
    }

    private static final ThreadLocal<byte[]> UUID_SCRATCH =
            ThreadLocal.withInitial(() -> new byte[16]);

    /**
     * {@code [Consumer][stream][topic][partition flag u8][partition u32][kind u8][value u64] [count
     * u32][auto_commit u8]}; the reply is {@code [partition u32][current offset u64] [count
     * u32][messages]}.
     */
    Reply poll(Session session, UserAccount user, RequestReader request) {
        ConsumerRef consumer = request.consumer();
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        long requestedPartition = request.optionalPartitionId();
        int kind = request.u8();
        long value = request.u64();
        long count = request.u32();
        boolean autoCommit = request.u8() != 0;
        if (kind < POLL_OFFSET || kind > POLL_NEXT) {
            throw CommandException.of(ErrorCodes.INVALID_COMMAND, "polling kind " + kind);
        }
        return state.read(
                () -> {
                    TopicState topic = state.topic(streamId, topicId);
                    Permissioner.pollMessages(user, topic);

                    ConsumerGroupState group = null;
                    long partitionId;
                    if (consumer.isGroup()) {
                        group = topic.group(consumer.id());
                        partitionId = group.partitionForPoll(session, requestedPartition, topic);
                        if (partitionId < 0) {
                            return emptyPoll(0, 0);
                        }
                    } else {
                        partitionId = requestedPartition < 0 ? 0 : requestedPartition;
                    }
                    PartitionLog partition = topic.partition(partitionId);
                    long start = startOffset(partition, kind, value, count, consumer, group);
                    PartitionLog.ReadResult read = start < 0 ? null : partition.read(start, count);
                    if (read == null || read.messageCount() == 0) {
                        return emptyPoll(partitionId, partition.stats().currentOffset());
                    }
                    if (group != null) {
                        partition.groupLastPolled().put(group.id(), read.lastOffset());
                    }
                    if (autoCommit) {
                        ConsumerOffsetCommands.storeOffset(
                                topic, partition, consumer, group, read.lastOffset());
                    }
                    ResponseWriter head = new ResponseWriter(16);
                    head.u32(partitionId).u64(read.currentOffset()).u32(read.messageCount());
                    return Reply.of(head, read.slices());
                });
    }

    /** The first offset to return, or -1 when the poll finds nothing. */
    private static long startOffset(
            PartitionLog partition,
            int kind,
            long value,
            long count,
            ConsumerRef consumer,
            ConsumerGroupState group) {
        PartitionLog.Stats stats = partition.stats();
        if (count == 0 || !stats.hasCurrentOffset()) {
            return -1;
        }
        switch (kind) {
            case POLL_OFFSET:
                return Long.compareUnsigned(value, stats.currentOffset()) > 0 ? -1 : value;
            case POLL_TIMESTAMP:
                return partition.firstOffsetAtOrAfter(value);
            case POLL_FIRST:
                return partition.firstOffset();
            case POLL_LAST:
                return stats.currentOffset() + 1 - Math.min(count, stats.currentOffset() + 1);
            default: // POLL_NEXT
                Long stored =
                        group != null
                                ? partition.groupOffsets().get(group.id())
                                : partition.consumerOffsets().get(consumer.offsetKey());
                return stored == null ? partition.firstOffset() : stored + 1;
        }
    }

    private static Reply emptyPoll(long partitionId, long currentOffset) {
        ResponseWriter out = new ResponseWriter(16);
        out.u32(partitionId).u64(currentOffset).u32(0);
        return Reply.of(out, List.of());
    }
}

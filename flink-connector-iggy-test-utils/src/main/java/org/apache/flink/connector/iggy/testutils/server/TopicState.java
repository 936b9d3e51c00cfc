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

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A topic: its settings, its partitions (ids {@code 0..n-1}) and its consumer groups.
 *
 * <p>Structural fields (name, settings, partition list, groups) change only under the write lock of
 * {@link ServerState}; readers hold its read lock.
 */
final class TopicState {
    static final long UNLIMITED = -1L; // u64::MAX on the wire

    private final int streamId;
    private final int id;
    private final long createdAt;
    String name;
    int compression;
    long messageExpiry;
    long maxTopicSize;
    int replicationFactor;

    final List<PartitionLog> partitions = new ArrayList<>();
    final TreeMap<Integer, ConsumerGroupState> groups = new TreeMap<>();
    final IdAllocator groupIds = new IdAllocator();

    /** Shared by all clients: balanced sends go to {@code counter++ % partitions}. */
    private final AtomicLong balancedCounter = new AtomicLong();

    TopicState(int streamId, int id, String name, long createdAt) {
        this.streamId = streamId;
        this.id = id;
        this.name = name;
        this.createdAt = createdAt;
    }

    /** The id of the stream holding this topic; a topic never changes streams. */
    int streamId() {
        return streamId;
    }

    int id() {
        return id;
    }

    long createdAt() {
        return createdAt;
    }

    long nextBalancedPartition() {
        return Long.remainderUnsigned(balancedCounter.getAndIncrement(), partitions.size());
    }

    PartitionLog partition(long partitionId) {
        if (partitionId < 0 || partitionId >= partitions.size()) {
            throw CommandException.of(
                    ErrorCodes.PARTITION_NOT_FOUND,
                    "partition " + partitionId + " not found in topic " + name);
        }
        return partitions.get((int) partitionId);
    }

    ConsumerGroupState findGroup(EntityId groupId) {
        return groupId.find(groups, ConsumerGroupState::name);
    }

    ConsumerGroupState group(EntityId groupId) {
        ConsumerGroupState group = findGroup(groupId);
        if (group == null) {
            throw CommandException.of(
                    ErrorCodes.CONSUMER_GROUP_ID_NOT_FOUND,
                    "consumer group " + groupId + " not found");
        }
        return group;
    }

    long sizeBytes() {
        long total = 0;
        for (PartitionLog partition : partitions) {
            total += partition.sizeBytes();
        }
        return total;
    }

    /** Sealed and active segments over all partitions. */
    long segmentsCount() {
        long total = 0;
        for (PartitionLog partition : partitions) {
            total += partition.stats().segmentsCount();
        }
        return total;
    }

    /** Whether a maximum size was set: {@code u64::MAX} and 0 both mean unlimited. */
    boolean hasMaxSize() {
        return maxTopicSize != UNLIMITED && maxTopicSize != 0;
    }

    /**
     * Deletes the oldest sealed segments of {@code partition}, which was just appended to, while
     * the topic is at or above its maximum size, as the real server does with {@code
     * system.topic.delete_oldest_segments} on. The real server checks periodically, in its message
     * cleaner; this one right after each append, so the topic never stays over its size for longer
     * than one append (a documented simplification). The active segment always stays, so a topic
     * whose partitions have none sealed may still outgrow its size.
     *
     * <p>The caller holds the read lock of {@link ServerState} and no partition's lock: the topic's
     * size is summed one partition lock at a time, then the partition is locked alone to delete.
     * Appends racing on one partition may each delete a segment, so the topic may end up slightly
     * below the point where one deletion would have sufficed.
     */
    void deleteOldestSegmentsWhileFull(PartitionLog partition) {
        if (!hasMaxSize()) {
            return;
        }
        while (partition.hasSealedSegment()
                && Long.compareUnsigned(sizeBytes(), maxTopicSize) >= 0) {
            if (partition.deleteOldestSealedSegments(1) == 0) {
                return;
            }
        }
    }

    long messagesCount() {
        long total = 0;
        for (PartitionLog partition : partitions) {
            total += partition.stats().messagesCount();
        }
        return total;
    }
}

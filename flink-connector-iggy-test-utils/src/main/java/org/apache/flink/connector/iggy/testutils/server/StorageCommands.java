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

/**
 * FLUSH_UNSAVED_BUFFER (102) and DELETE_SEGMENTS (503), validated like Iggy 0.8 does. A flush has
 * nothing to do: messages live in memory, so there is no buffer to flush; each one answered is
 * recorded as a {@link FlushRequest} for tests. DELETE_SEGMENTS deletes the partition's oldest
 * sealed segments with their messages; the active segment always stays.
 */
final class StorageCommands {
    private final ServerState state;

    StorageCommands(ServerState state) {
        this.state = state;
    }

    /**
     * {@code [stream][topic][partition u32][fsync u8]}. Unknown stream 1009, unknown topic 2010, no
     * send permission on the topic 41, unknown partition 3007.
     */
    Reply flushUnsavedBuffer(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        long partitionId = request.u32();
        boolean fsync = request.u8() != 0; // nothing is buffered, so nothing to sync either
        return state.read(
                () -> {
                    TopicState topic = state.topic(streamId, topicId);
                    Permissioner.sendMessages(user, topic);
                    topic.partition(partitionId);
                    state.recordFlush(
                            new FlushRequest(
                                    state.stream(streamId).name, topic.name, partitionId, fsync));
                    return Reply.EMPTY;
                });
    }

    /**
     * {@code [stream][topic][partition u32][segments count u32]}. Unknown stream 1009, unknown
     * topic 2010, unknown partition 3007, no permission to manage the topic 41 (in that order, as
     * Iggy checks them). Then deletes up to {@code segments count} of the oldest sealed segments;
     * the reply is empty success also when there was none to delete.
     */
    Reply deleteSegments(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        long partitionId = request.u32();
        long segmentsCount = request.u32();
        return state.read(
                () -> {
                    TopicState topic = state.topic(streamId, topicId);
                    PartitionLog partition = topic.partition(partitionId);
                    Permissioner.manageTopic(user, topic);
                    partition.deleteOldestSealedSegments(segmentsCount);
                    return Reply.EMPTY;
                });
    }
}

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

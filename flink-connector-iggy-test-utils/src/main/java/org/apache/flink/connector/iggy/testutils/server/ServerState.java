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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Everything the server knows: streams with their topics, partitions and groups, users, and the
 * connected clients. It outlives the listening socket, so a {@link EmbeddedIggyServer#restart()}
 * keeps all data.
 *
 * <p>Locking: creating, renaming or deleting streams, topics, partitions and groups takes the write
 * lock; every other command holds the read lock while it resolves names, so sends and polls on
 * different partitions run in parallel. A partition serialises its own appends; a group serialises
 * its own membership changes.
 */
final class ServerState {
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final TreeMap<Integer, StreamState> streams = new TreeMap<>();
    private final Map<String, StreamState> streamsByName = new HashMap<>();
    private final IdAllocator streamIds = new IdAllocator();

    private final UserRegistry users;
    private final EmbeddedIggyServer.Config config;
    private final Map<Long, Session> sessions = new ConcurrentHashMap<>();
    private final AtomicLong clientIds = new AtomicLong();
    private final long startedAtMicros = Clock.nowMicros();
    private final List<FlushRequest> flushRequests = new CopyOnWriteArrayList<>();

    ServerState(EmbeddedIggyServer.Config config) {
        this.config = config;
        this.users = new UserRegistry(config.rootUsername(), config.rootPassword());
    }

    int maxRequestPayload() {
        return config.maxRequestPayload();
    }

    /** The size at which a partition's active segment is sealed; see {@link #newPartition}. */
    long segmentSize() {
        return config.segmentSize();
    }

    /** Whether a full topic with a maximum size deletes its oldest sealed segments. */
    boolean deleteOldestSegments() {
        return config.deleteOldestSegments();
    }

    long rebalancingTimeoutNanos() {
        return config.consumerGroupRebalancingTimeout().toNanos();
    }

    UserRegistry users() {
        return users;
    }

    long startedAtMicros() {
        return startedAtMicros;
    }

    /** Records a flush the server answered, in the order they were answered. */
    void recordFlush(FlushRequest flush) {
        flushRequests.add(flush);
    }

    /** The flushes answered so far, oldest first. */
    List<FlushRequest> flushRequests() {
        return List.copyOf(flushRequests);
    }

    /** Runs an action that only reads the catalog (or changes one partition or group). */
    <T> T read(java.util.function.Supplier<T> action) {
        lock.readLock().lock();
        try {
            return action.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Runs an action that creates, renames or deletes catalog entries. */
    <T> T write(java.util.function.Supplier<T> action) {
        lock.writeLock().lock();
        try {
            return action.get();
        } finally {
            lock.writeLock().unlock();
        }
    }

    // ---- sessions

    Session openSession(String address) {
        Session session = new Session(clientIds.incrementAndGet(), address);
        sessions.put(session.clientId(), session);
        return session;
    }

    /** A closed connection leaves every group it had joined; the groups rebalance fully. */
    void closeSession(Session session) {
        session.markClosed();
        sessions.remove(session.clientId());
        lock.readLock().lock();
        try {
            for (ConsumerGroupState group : session.groups()) {
                group.leave(session);
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    Session session(long clientId) {
        return sessions.get(clientId);
    }

    List<Session> sessions() {
        List<Session> result = new ArrayList<>(sessions.values());
        result.sort((a, b) -> Long.compare(a.clientId(), b.clientId()));
        return result;
    }

    // ---- streams (callers hold the lock)

    StreamState findStream(EntityId id) {
        if (id.isNumeric()) {
            return id.numeric() > Integer.MAX_VALUE ? null : streams.get((int) id.numeric());
        }
        return streamsByName.get(id.name());
    }

    StreamState stream(EntityId id) {
        StreamState stream = findStream(id);
        if (stream == null) {
            throw CommandException.of(
                    ErrorCodes.STREAM_ID_NOT_FOUND, "stream " + id + " not found");
        }
        return stream;
    }

    /** The topic, or error 1009 (no such stream) or 2010 (no such topic). */
    TopicState topic(EntityId streamId, EntityId topicId) {
        return stream(streamId).topic(topicId);
    }

    /** The topic, or null when the stream or the topic does not exist. */
    TopicState findTopic(EntityId streamId, EntityId topicId) {
        StreamState stream = findStream(streamId);
        return stream == null ? null : stream.findTopic(topicId);
    }

    List<StreamState> streams() {
        return new ArrayList<>(streams.values());
    }

    StreamState createStream(String name) {
        if (streamsByName.containsKey(name)) {
            throw CommandException.of(
                    ErrorCodes.STREAM_NAME_ALREADY_EXISTS, "stream exists: " + name);
        }
        StreamState stream = new StreamState(streamIds.allocate(), name, Clock.nowMicros());
        streams.put(stream.id(), stream);
        streamsByName.put(name, stream);
        return stream;
    }

    void renameStream(StreamState stream, String name) {
        StreamState existing = streamsByName.get(name);
        if (existing != null && existing != stream) {
            throw CommandException.of(
                    ErrorCodes.STREAM_NAME_ALREADY_EXISTS, "stream exists: " + name);
        }
        streamsByName.remove(stream.name);
        stream.name = name;
        streamsByName.put(name, stream);
    }

    void deleteStream(StreamState stream) {
        for (TopicState topic : stream.topics.values()) {
            forgetGroups(topic);
        }
        streams.remove(stream.id());
        streamsByName.remove(stream.name);
        streamIds.free(stream.id());
    }

    void forgetGroups(TopicState topic) {
        for (ConsumerGroupState group : topic.groups.values()) {
            group.markDeleted();
        }
    }

    /** A new partition with the configured segment size, deduplicating if configured to. */
    PartitionLog newPartition(int id, long createdAt) {
        EmbeddedIggyServer.Config.Deduplication dedup = config.deduplication();
        MessageDeduplicator deduplicator =
                dedup.enabled()
                        ? new MessageDeduplicator(
                                dedup.maxEntries(), dedup.expiry().toNanos() / 1000)
                        : null;
        return new PartitionLog(id, createdAt, config.segmentSize(), deduplicator);
    }
}

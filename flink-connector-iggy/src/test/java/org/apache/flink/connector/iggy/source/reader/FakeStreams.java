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
package org.apache.flink.connector.iggy.source.reader;

import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.MessageBatch;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamListing;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamSummary;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import org.apache.iggy.exception.IggyServerException;
import org.apache.iggy.stream.StreamBase;
import org.apache.iggy.stream.StreamDetails;
import org.apache.iggy.topic.Topic;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Topics of several streams in memory behind {@link IggyReadRequests}: each topic is a {@link
 * FakeTopicRequests}, to which its polls, descriptions and stores go; descriptions of a stream and
 * lists of the streams are made from them as the server makes them. Counts the requests of each
 * kind. Streams and topics are added before the reader starts.
 */
class FakeStreams implements IggyReadRequests {

    /** Iggy's error code of a request the user has no permission for. */
    private static final int UNAUTHORIZED = 41;

    private final Map<String, Map<String, FakeTopicRequests>> streams = new LinkedHashMap<>();
    private final Map<String, Long> streamIds = new ConcurrentHashMap<>();

    /** The names of the topics of every poll, description and store, in the order asked. */
    final List<String> asked = new CopyOnWriteArrayList<>();

    final AtomicInteger lists = new AtomicInteger();
    private final Map<String, AtomicInteger> streamDescribes = new ConcurrentHashMap<>();

    /** When set, lists of the streams fail, as for a user allowed to read only some streams. */
    volatile boolean refuseLists;

    /** When set, topic descriptions stay unanswered until {@link #answerHeldDescribes()}. */
    volatile boolean holdDescribes;

    private final List<Runnable> heldDescribes = new CopyOnWriteArrayList<>();

    /** Adds a topic to a stream (created with its first topic). */
    FakeStreams add(String stream, String topic, FakeTopicRequests fake) {
        streams.computeIfAbsent(stream, s -> new LinkedHashMap<>()).put(topic, fake);
        streamIds.putIfAbsent(stream, (long) streamIds.size() + 1);
        return this;
    }

    /** The topic's fake. */
    FakeTopicRequests topic(String stream, String topic) {
        return streams.get(stream).get(topic);
    }

    /** An unbounded split of a partition, from offset 0. */
    static IggyPartitionSplit split(String stream, String topic, long partition) {
        return new IggyPartitionSplit(
                IggyId.of(stream),
                IggyId.of(topic),
                partition,
                0,
                IggyPartitionSplit.NO_STOPPING_OFFSET);
    }

    /** Descriptions of the stream so far. */
    int streamDescribes(String stream) {
        AtomicInteger count = streamDescribes.get(stream);
        return count == null ? 0 : count.get();
    }

    /** Descriptions of all topics so far. */
    int topicDescribes() {
        int total = 0;
        for (Map<String, FakeTopicRequests> topics : streams.values()) {
            for (FakeTopicRequests topic : topics.values()) {
                total += topic.describes.get();
            }
        }
        return total;
    }

    /** Whether every topic was described at least once. */
    boolean everyTopicDescribed() {
        return streams.values().stream()
                .flatMap(topics -> topics.values().stream())
                .allMatch(topic -> topic.describes.get() > 0);
    }

    private FakeTopicRequests of(TopicPath topic) {
        asked.add(topic.topic().name());
        return streams.get(topic.stream().name()).get(topic.topic().name());
    }

    @Override
    public CompletableFuture<MessageBatch> poll(
            TopicPath topic, long partitionId, long offset, long count) {
        return of(topic).poll(topic, partitionId, offset, count);
    }

    @Override
    public CompletableFuture<Optional<TopicDescription>> describeTopic(TopicPath topic) {
        if (!holdDescribes) {
            return of(topic).describeTopic(topic);
        }
        CompletableFuture<Optional<TopicDescription>> answer = new CompletableFuture<>();
        heldDescribes.add(() -> of(topic).describeTopic(topic).thenAccept(answer::complete));
        return answer;
    }

    /** Topic descriptions held so far, not answered. */
    int heldDescribes() {
        return heldDescribes.size();
    }

    /** Answers the held topic descriptions, and answers the next ones at once. */
    void answerHeldDescribes() {
        holdDescribes = false;
        List<Runnable> held = new ArrayList<>(heldDescribes);
        heldDescribes.clear();
        held.forEach(Runnable::run);
    }

    @Override
    public CompletableFuture<Optional<StreamSummary>> describeStream(IggyId stream) {
        streamDescribes.computeIfAbsent(stream.name(), s -> new AtomicInteger()).incrementAndGet();
        Map<String, FakeTopicRequests> topics = streams.get(stream.name());
        if (topics == null) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        StreamBase base = listing(stream.name(), topics);
        return CompletableFuture.completedFuture(
                Optional.of(StreamSummary.of(new StreamDetails(base, listed(topics)))));
    }

    @Override
    public CompletableFuture<List<StreamListing>> listStreams() {
        lists.incrementAndGet();
        if (refuseLists) {
            return CompletableFuture.failedFuture(new IggyServerException(UNAUTHORIZED));
        }
        List<StreamListing> listed = new ArrayList<>();
        streams.forEach((name, topics) -> listed.add(StreamListing.of(listing(name, topics))));
        return CompletableFuture.completedFuture(listed);
    }

    private static List<Topic> listed(Map<String, FakeTopicRequests> topics) {
        List<Topic> listed = new ArrayList<>();
        topics.forEach((name, topic) -> topic.asListed(name).ifPresent(listed::add));
        return listed;
    }

    /** The stream as the list of streams shows it: its topics' totals. */
    private StreamBase listing(String name, Map<String, FakeTopicRequests> topics) {
        List<Topic> listed = listed(topics);
        long size = 0;
        BigInteger messages = BigInteger.ZERO;
        for (Topic topic : listed) {
            size += Long.parseLong(topic.size());
            messages = messages.add(topic.messagesCount());
        }
        long id = streamIds.get(name);
        return new StreamBase(
                id,
                BigInteger.valueOf(id),
                name,
                Long.toString(size),
                messages,
                (long) listed.size());
    }

    @Override
    public CompletableFuture<Void> storeOffset(TopicPath topic, long partitionId, long offset) {
        return of(topic).storeOffset(topic, partitionId, offset);
    }

    @Override
    public String description(TopicPath topic) {
        return topic + " at fake:1";
    }

    @Override
    public void close() {}
}

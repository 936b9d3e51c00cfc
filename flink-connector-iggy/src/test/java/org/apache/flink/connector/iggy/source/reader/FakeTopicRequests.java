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
import org.apache.flink.connector.iggy.source.split.TopicPath;

import org.apache.iggy.exception.IggyServerException;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.MessageHeader;
import org.apache.iggy.message.MessageId;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.partition.Partition;
import org.apache.iggy.stream.StreamBase;
import org.apache.iggy.stream.StreamDetails;
import org.apache.iggy.topic.CompressionAlgorithm;
import org.apache.iggy.topic.Topic;
import org.apache.iggy.topic.TopicDetails;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A topic held in memory behind {@link IggyReadRequests}: answers polls and descriptions as the
 * server would, records what was asked, and can hold poll answers back. Every topic asked for is
 * this one; {@link FakeTopics} routes several.
 */
class FakeTopicRequests implements IggyReadRequests {

    /** Iggy's error code of a missing partition. */
    private static final int PARTITION_NOT_FOUND = 3007;

    private final Map<Long, List<Message>> partitions = new ConcurrentHashMap<>();
    private volatile long topicId = 1;
    private volatile long createdAt = 1000;
    private volatile boolean exists = true;

    /** Partition ids of every poll, in the order asked. */
    final List<Long> polls = new CopyOnWriteArrayList<>();

    /** The message count every poll asked for, in the order asked. */
    final List<Long> pollCounts = new CopyOnWriteArrayList<>();

    final AtomicInteger describes = new AtomicInteger();
    final AtomicInteger pollsInFlight = new AtomicInteger();
    final AtomicInteger mostPollsInFlight = new AtomicInteger();
    final List<String> requestingThreads = new CopyOnWriteArrayList<>();

    /** When set, polls stay unanswered until {@link #answerHeldPolls()}. */
    volatile boolean holdPolls;

    private final List<Runnable> heldPolls = new CopyOnWriteArrayList<>();

    FakeTopicRequests(int partitionCount) {
        for (long p = 0; p < partitionCount; p++) {
            partitions.put(p, new CopyOnWriteArrayList<>());
        }
    }

    FakeTopicRequests append(long partition, String... payloads) {
        List<Message> messages = partitions.get(partition);
        synchronized (messages) {
            for (String payload : payloads) {
                messages.add(message(messages.size(), payload));
            }
        }
        return this;
    }

    /** Deletes and creates the topic again, empty, with a new identity. */
    void recreate() {
        partitions.replaceAll((p, messages) -> new CopyOnWriteArrayList<>());
        topicId++;
        createdAt += 1000;
    }

    /** Empties every partition, keeping the topic's identity (as a purge would). */
    void recreateKeepingIdentity() {
        partitions.replaceAll((p, messages) -> new CopyOnWriteArrayList<>());
    }

    void delete() {
        exists = false;
    }

    /** Deletes a partition, as Iggy's deletePartitions does with the last ones. */
    void deletePartition(long partition) {
        partitions.remove(partition);
    }

    static Message message(long offset, String payload) {
        byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
        return new Message(
                new MessageHeader(
                        BigInteger.ZERO,
                        MessageId.serverGenerated(),
                        BigInteger.valueOf(offset),
                        BigInteger.valueOf(1_000_000L + offset),
                        BigInteger.ZERO,
                        0L,
                        (long) bytes.length,
                        BigInteger.ZERO),
                bytes,
                Map.of());
    }

    @Override
    public CompletableFuture<MessageBatch> poll(
            TopicPath topic, long partitionId, long offset, long count) {
        requestingThreads.add(Thread.currentThread().getName());
        polls.add(partitionId);
        pollCounts.add(count);
        mostPollsInFlight.accumulateAndGet(pollsInFlight.incrementAndGet(), Math::max);
        CompletableFuture<MessageBatch> answer = new CompletableFuture<>();
        Runnable respond =
                () -> {
                    pollsInFlight.decrementAndGet();
                    if (partitions.containsKey(partitionId)) {
                        answer.complete(MessageBatch.of(read(partitionId, offset, count)));
                    } else {
                        answer.completeExceptionally(new IggyServerException(PARTITION_NOT_FOUND));
                    }
                };
        if (holdPolls) {
            heldPolls.add(respond);
        } else {
            respond.run();
        }
        return answer;
    }

    void answerHeldPolls() {
        takeHeldPolls().forEach(Runnable::run);
    }

    /** Answers the held polls, the last asked first. */
    void answerHeldPollsLastFirst() {
        List<Runnable> held = takeHeldPolls();
        Collections.reverse(held);
        held.forEach(Runnable::run);
    }

    private List<Runnable> takeHeldPolls() {
        holdPolls = false;
        List<Runnable> held = new ArrayList<>(heldPolls);
        heldPolls.clear();
        return held;
    }

    int heldPollCount() {
        return heldPolls.size();
    }

    /** The most messages one poll answers, whatever it asked for (a server may answer less). */
    volatile int mostPerAnswer = Integer.MAX_VALUE;

    private PolledMessages read(long partitionId, long offset, long count) {
        List<Message> messages = partitions.get(partitionId);
        List<Message> answer = new ArrayList<>();
        long most = Math.min(count, mostPerAnswer);
        synchronized (messages) {
            for (long o = offset; o < messages.size() && answer.size() < most; o++) {
                answer.add(messages.get((int) o));
            }
            long current = Math.max(0, messages.size() - 1);
            return new PolledMessages(
                    partitionId, BigInteger.valueOf(current), (long) answer.size(), answer);
        }
    }

    @Override
    public CompletableFuture<Optional<TopicDescription>> describeTopic(TopicPath topic) {
        requestingThreads.add(Thread.currentThread().getName());
        describes.incrementAndGet();
        return CompletableFuture.completedFuture(
                details(topic.topic().asText()).map(TopicDescription::of));
    }

    /** One stream of this one topic, named "t". */
    @Override
    public CompletableFuture<Optional<StreamSummary>> describeStream(IggyId stream) {
        return CompletableFuture.completedFuture(
                Optional.of(
                        StreamSummary.of(
                                new StreamDetails(
                                        1L,
                                        BigInteger.ONE,
                                        stream.asText(),
                                        "0",
                                        BigInteger.ZERO,
                                        1L,
                                        asListed("t").stream().toList()))));
    }

    /** One stream "s" of this one topic. */
    @Override
    public CompletableFuture<List<StreamListing>> listStreams() {
        Optional<Topic> listed = asListed("t");
        return CompletableFuture.completedFuture(
                List.of(
                        StreamListing.of(
                                new StreamBase(
                                        1L,
                                        BigInteger.ONE,
                                        "s",
                                        listed.map(Topic::size).orElse("0"),
                                        listed.map(Topic::messagesCount).orElse(BigInteger.ZERO),
                                        listed.isPresent() ? 1L : 0L))));
    }

    /** This topic, named {@code name}, as its stream's description tells it; empty if deleted. */
    Optional<Topic> asListed(String name) {
        return details(name)
                .map(
                        d ->
                                new Topic(
                                        d.id(),
                                        d.createdAt(),
                                        name,
                                        d.size(),
                                        d.messageExpiry(),
                                        d.compressionAlgorithm(),
                                        d.maxTopicSize(),
                                        d.replicationFactor(),
                                        d.messagesCount(),
                                        d.partitionsCount()));
    }

    /** This topic, named {@code name} as it is in its stream's description. */
    private Optional<TopicDetails> details(String name) {
        if (!exists) {
            return Optional.empty();
        }
        List<Partition> described = new ArrayList<>();
        long[] topicBytesAndCount = new long[2];
        partitions.forEach(
                (id, messages) -> {
                    synchronized (messages) {
                        long size = messages.size();
                        long bytes = 0;
                        for (Message message : messages) {
                            bytes += MessageHeader.SIZE + message.payload().length;
                        }
                        topicBytesAndCount[0] += bytes;
                        topicBytesAndCount[1] += size;
                        described.add(
                                new Partition(
                                        id,
                                        BigInteger.valueOf(createdAt),
                                        1L,
                                        BigInteger.valueOf(Math.max(0, size - 1)),
                                        Long.toString(bytes),
                                        BigInteger.valueOf(size)));
                    }
                });
        return Optional.of(
                new TopicDetails(
                        topicId,
                        BigInteger.valueOf(createdAt),
                        name,
                        Long.toString(topicBytesAndCount[0]),
                        BigInteger.ZERO,
                        CompressionAlgorithm.None,
                        BigInteger.ZERO,
                        (short) 1,
                        BigInteger.valueOf(topicBytesAndCount[1]),
                        (long) described.size(),
                        described));
    }

    /** Every offset store asked for, as "partition@offset", with the thread that asked. */
    final List<String> stores = new CopyOnWriteArrayList<>();

    final List<String> storingThreads = new CopyOnWriteArrayList<>();

    /** When set, offset stores stay unanswered until {@link #answerHeldStores()}. */
    volatile boolean holdStores;

    private final List<CompletableFuture<Void>> heldStores = new CopyOnWriteArrayList<>();

    /** When set, offset stores fail. */
    volatile boolean failStores;

    @Override
    public CompletableFuture<Void> storeOffset(TopicPath topic, long partitionId, long offset) {
        stores.add(partitionId + "@" + offset);
        storingThreads.add(Thread.currentThread().getName());
        if (failStores) {
            return CompletableFuture.failedFuture(new IllegalStateException("store refused"));
        }
        if (!holdStores) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> answer = new CompletableFuture<>();
        heldStores.add(answer);
        return answer;
    }

    /** Answers the held stores. */
    void answerHeldStores() {
        holdStores = false;
        List<CompletableFuture<Void>> held = new ArrayList<>(heldStores);
        heldStores.clear();
        for (CompletableFuture<Void> store : held) {
            store.complete(null);
        }
    }

    @Override
    public String description(TopicPath topic) {
        return topic + " at fake:1";
    }

    @Override
    public void close() {}
}

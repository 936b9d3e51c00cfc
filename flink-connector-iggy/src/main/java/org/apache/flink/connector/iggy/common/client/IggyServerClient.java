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
package org.apache.flink.connector.iggy.common.client;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.DidYouMean;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamListing;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamSummary;
import org.apache.flink.connector.iggy.common.client.TopicDescription.TopicSummary;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.client.async.tcp.AsyncIggyTcpClientBuilder;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Partitioning;
import org.apache.iggy.message.PollingStrategy;
import org.apache.iggy.system.ClientInfo;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

import static org.apache.flink.connector.iggy.common.client.SdkConversions.streamId;
import static org.apache.flink.connector.iggy.common.client.SdkConversions.topicId;

/**
 * The connector's one gateway to an Iggy server: a logged-in client and the few requests the
 * source, the sink and the catalog send, in the connector's own types. A request waits at most the
 * request timeout; an asynchronous one fails as the SDK does, a waiting one throws what the owner's
 * {@code failures} makes of it. Thread-safe as the SDK's client is; {@link #close} once, by the
 * owner.
 */
@Internal
public final class IggyServerClient implements AutoCloseable {

    private static final BiFunction<String, RuntimeException, RuntimeException> SDK_FAILURES =
            (what, e) -> e;

    private final AsyncIggyTcpClient client;
    private final IggyConnectionConfig config;
    private final BiFunction<String, RuntimeException, RuntimeException> failures;

    /** Connects and logs in (see {@link IggyClients#connect}). */
    private IggyServerClient(
            IggyConnectionConfig config,
            AsyncIggyTcpClientBuilder builder,
            Counter reconnects,
            boolean replaceClosed,
            BiFunction<String, RuntimeException, RuntimeException> failures) {
        this.client = IggyClients.connect(config, builder, reconnects, replaceClosed);
        this.config = config;
        this.failures = failures;
    }

    /**
     * Connects and logs in; a failed request fails as the SDK's.
     *
     * @param reconnects counts the connections opened to replace one that closed
     */
    public static IggyServerClient connect(IggyConnectionConfig config, Counter reconnects) {
        return new IggyServerClient(
                config, AsyncIggyTcpClient.builder(), reconnects, true, SDK_FAILURES);
    }

    /**
     * Like {@link #connect(IggyConnectionConfig, Counter)}, over one connection that carries the
     * requests in call order (see {@link IggyClients#oneConnection}).
     */
    public static IggyServerClient connectWithOneConnection(
            IggyConnectionConfig config, Counter reconnects) {
        return new IggyServerClient(
                config, IggyClients.oneConnection(config), reconnects, true, SDK_FAILURES);
    }

    /**
     * Like {@link #connectWithOneConnection}, but no connection replaces a closed one: the requests
     * queued behind it fail too; the caller opens a new client to go on.
     */
    public static IggyServerClient connectWithOneLastingConnection(IggyConnectionConfig config) {
        return new IggyServerClient(
                config,
                IggyClients.oneConnection(config),
                new SimpleCounter(),
                false,
                SDK_FAILURES);
    }

    /**
     * Connects and logs in; a failed request throws {@code failures.apply(what it tried, failure)},
     * as the catalog throws its {@code CatalogException}s.
     */
    public static IggyServerClient connect(
            IggyConnectionConfig config,
            BiFunction<String, RuntimeException, RuntimeException> failures) {
        return new IggyServerClient(
                config, AsyncIggyTcpClient.builder(), new SimpleCounter(), true, failures);
    }

    public List<String> streamNames() {
        return await(listStreams(), "list the streams").stream().map(StreamListing::name).toList();
    }

    /** Every stream of the server with its counts, in one request. */
    public CompletableFuture<List<StreamListing>> listStreams() {
        return timed(client.streams().getStreams())
                .thenApply(streams -> streams.stream().map(StreamListing::of).toList());
    }

    /** The stream and its topics; empty when it does not exist. */
    public Optional<StreamSummary> stream(IggyId stream) {
        return absentIf(
                describeStream(stream), "read stream " + stream, IggyErrorCode.STREAM_ID_NOT_FOUND);
    }

    /** {@link #stream}, asynchronously. */
    public CompletableFuture<Optional<StreamSummary>> describeStream(IggyId stream) {
        return timed(client.streams().getStream(streamId(stream)))
                .thenApply(d -> d.map(StreamSummary::of));
    }

    /** Creates the stream; false when one of that name existed already. */
    public boolean createStream(String stream) {
        return createdUnless(
                client.streams().createStream(stream),
                "create stream " + stream,
                IggyErrorCode.STREAM_NAME_ALREADY_EXISTS);
    }

    public void deleteStream(IggyId stream) {
        await(client.streams().deleteStream(streamId(stream)), "delete stream " + stream);
    }

    /** The topic; empty when it or its stream does not exist. */
    public Optional<TopicDescription> topic(IggyId stream, IggyId topic) {
        return absentIf(
                describeTopic(stream, topic),
                "read topic " + topic + " of " + stream,
                IggyErrorCode.STREAM_ID_NOT_FOUND,
                IggyErrorCode.TOPIC_ID_NOT_FOUND);
    }

    /** {@link #topic}, asynchronously. */
    public CompletableFuture<Optional<TopicDescription>> describeTopic(
            IggyId stream, IggyId topic) {
        return timed(client.topics().getTopic(streamId(stream), topicId(topic)))
                .thenApply(d -> d.map(TopicDescription::of));
    }

    /**
     * The topic, which must exist: else an {@link IggyConfigurationException} naming what is
     * missing, the closest existing names and the fix.
     */
    public TopicDescription describe(IggyId stream, IggyId topic) {
        Optional<TopicDescription> described =
                await(describeTopic(stream, topic), "read topic " + topic + " of stream " + stream);
        if (described.isPresent()) {
            return described.get();
        }
        Optional<StreamSummary> summary = await(describeStream(stream), "read stream " + stream);
        String missing =
                summary.isEmpty()
                        ? missingStream(stream)
                        : missingTopic(
                                stream,
                                topic,
                                summary.get().topics().stream().map(TopicSummary::name).toList());
        String what = summary.isEmpty() ? "stream" : "topic";
        throw new IggyConfigurationException(
                "%s. The connector never creates %ss: create it first (or fix the %s name)."
                        .formatted(missing, what, what));
    }

    /**
     * {@code Iggy stream 'S' does not exist at HOST:PORT}, with the closest names of the streams
     * the server lists, if it lets the user list them.
     */
    public String missingStream(IggyId stream) {
        String hint = "";
        if (!stream.isNumeric()) {
            try {
                hint = DidYouMean.hint(stream.name(), streamNames());
            } catch (RuntimeException e) {
                // The user may not be allowed to list streams: the message goes without a hint.
            }
        }
        return "Iggy stream " + stream + " does not exist at " + config.address() + hint;
    }

    /**
     * {@code Iggy topic 'T' does not exist in stream 'S' at HOST:PORT}, with the closest of the
     * stream's {@code topics}.
     */
    public String missingTopic(IggyId stream, IggyId topic, List<String> topics) {
        String hint = topic.isNumeric() ? "" : DidYouMean.hint(topic.name(), topics);
        return "Iggy topic %s does not exist in stream %s at %s%s"
                .formatted(topic, stream, config.address(), hint);
    }

    /**
     * Creates the topic; false when one of that name existed already.
     *
     * @param expiryMicros how long messages are kept; {@link TopicDescription#NEVER_EXPIRE} or 0
     *     for ever
     */
    public boolean createTopic(
            IggyId stream, String topic, int partitions, boolean gzip, BigInteger expiryMicros) {
        return createdUnless(
                client.topics()
                        .createTopic(
                                streamId(stream),
                                (long) partitions,
                                TopicDescription.compression(gzip),
                                expiryMicros,
                                BigInteger.ZERO,
                                Optional.empty(),
                                topic),
                "create topic " + topic + " in " + stream,
                IggyErrorCode.TOPIC_NAME_ALREADY_EXISTS);
    }

    /** Changes a topic's compression and message expiry; its other settings stay. */
    public void updateTopic(
            IggyId stream, TopicDescription topic, boolean gzip, BigInteger expiryMicros) {
        await(
                client.topics()
                        .updateTopic(
                                streamId(stream),
                                TopicId.of(topic.id()),
                                TopicDescription.compression(gzip),
                                expiryMicros,
                                topic.details.maxTopicSize(),
                                Optional.ofNullable(topic.details.replicationFactor()),
                                topic.name()),
                "update topic " + topic.name() + " of " + stream);
    }

    public void addPartitions(IggyId stream, TopicDescription topic, long count) {
        await(
                client.partitions()
                        .createPartitions(streamId(stream), TopicId.of(topic.id()), count),
                "add partitions to topic " + topic.name() + " of " + stream);
    }

    public void deleteTopic(IggyId stream, IggyId topic) {
        await(
                client.topics().deleteTopic(streamId(stream), topicId(topic)),
                "delete topic " + topic + " of " + stream);
    }

    /** Up to {@code count} messages of a partition from {@code offset} on. */
    public CompletableFuture<MessageBatch> poll(
            IggyId stream, IggyId topic, long partition, String consumer, long offset, long count) {
        PollingStrategy from = PollingStrategy.offset(BigInteger.valueOf(offset));
        return poll(stream, topic, partition, consumer, from, count);
    }

    /**
     * Sends the messages to one partition, converting them on the calling thread. Not bounded in
     * time: the caller bounds the wait.
     */
    public CompletableFuture<Void> send(IggyTopicPartition target, List<OutgoingMessage> messages) {
        return client.messages()
                .sendMessages(
                        streamId(target.stream()),
                        topicId(target.topic()),
                        Partitioning.partitionId(target.partition()),
                        SdkConversions.toSdk(messages));
    }

    /** Asks the server to write the partition to disk and fsync it ({@link IggySdk}). */
    public CompletableFuture<Void> flushAndSync(IggyTopicPartition partition) {
        return timed(
                IggySdk.get()
                        .flushUnsavedBuffer(
                                client,
                                streamId(partition.stream()),
                                topicId(partition.topic()),
                                partition.partition(),
                                true));
    }

    /** The server's id of this client's connection. */
    public long clientId() {
        return await(client.system().getMe(), "read the client's id").clientId();
    }

    /** The ids of the connections the server lists now. */
    public Set<Long> clientIds() {
        return await(client.system().getClients(), "list the server's clients").stream()
                .map(ClientInfo::clientId)
                .collect(Collectors.toSet());
    }

    /** Stores {@code offset} as the last one {@code consumer} processed in the partition. */
    public CompletableFuture<Void> storeOffset(
            IggyId stream, IggyId topic, long partition, String consumer, long offset) {
        return timed(
                client.consumerOffsets()
                        .storeConsumerOffset(
                                streamId(stream),
                                topicId(topic),
                                Optional.of(partition),
                                consumer(consumer),
                                BigInteger.valueOf(offset)));
    }

    /** The offset {@code consumer} stored for the partition, if any. */
    public Optional<Long> storedOffset(
            IggyId stream, IggyId topic, long partition, String consumer) {
        return await(
                        client.consumerOffsets()
                                .getConsumerOffset(
                                        streamId(stream),
                                        topicId(topic),
                                        Optional.of(partition),
                                        consumer(consumer)),
                        "read the stored offset of partition " + partition + " of " + topic)
                .map(i -> i.storedOffset().longValueExact());
    }

    /** The offset of the partition's first message at or after the timestamp, if any. */
    public OptionalLong firstOffsetAtOrAfter(
            IggyId stream, IggyId topic, long partition, String consumer, long timestampMillis) {
        PollingStrategy at = PollingStrategy.timestamp(BigInteger.valueOf(timestampMillis * 1000));
        MessageBatch first =
                await(
                        poll(stream, topic, partition, consumer, at, 1L),
                        "find the first message at or after timestamp %d in partition %d of %s"
                                .formatted(timestampMillis, partition, topic));
        return first.isEmpty() ? OptionalLong.empty() : OptionalLong.of(first.offset(0));
    }

    /** Closes the client and waits for its threads (see {@link IggyClients#closeAndWait}). */
    @Override
    public void close() {
        IggyClients.closeAndWait(client);
    }

    /** Waits at most the request timeout for one of this client's answers. */
    public <T> T await(CompletableFuture<T> request, String what) {
        String where = what + " at " + config.address();
        try {
            return IggyClients.await(request, config.requestTimeout(), where);
        } catch (RuntimeException e) {
            throw failures.apply(where, e);
        }
    }

    private <T> CompletableFuture<T> timed(CompletableFuture<T> request) {
        return request.orTimeout(config.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    private <T> Optional<T> absentIf(
            CompletableFuture<Optional<T>> request, String what, IggyErrorCode... notFound) {
        try {
            return await(request, what);
        } catch (RuntimeException e) {
            for (IggyErrorCode code : notFound) {
                if (code.isCauseOf(e)) {
                    return Optional.empty();
                }
            }
            throw e;
        }
    }

    private boolean createdUnless(CompletableFuture<?> create, String what, IggyErrorCode exists) {
        try {
            await(create, what);
            return true;
        } catch (RuntimeException e) {
            if (!exists.isCauseOf(e)) {
                throw e;
            }
            return false;
        }
    }

    /** Every poll: as a plain consumer (not a group), storing no offset (Flink owns both). */
    private CompletableFuture<MessageBatch> poll(
            IggyId stream,
            IggyId topic,
            long partition,
            String consumer,
            PollingStrategy strategy,
            long count) {
        return timed(
                        client.messages()
                                .pollMessages(
                                        streamId(stream),
                                        topicId(topic),
                                        Optional.of(partition),
                                        consumer(consumer),
                                        strategy,
                                        count,
                                        false))
                .thenApply(MessageBatch::of);
    }

    private static Consumer consumer(String name) {
        return Consumer.of(ConsumerId.of(name));
    }
}

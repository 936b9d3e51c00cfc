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
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyErrorCode;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopics;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.consumeroffset.ConsumerOffsetInfo;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.message.PollingStrategy;
import org.apache.iggy.stream.StreamBase;
import org.apache.iggy.topic.Topic;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import static org.apache.flink.connector.iggy.common.SdkIds.streamId;
import static org.apache.flink.connector.iggy.common.SdkIds.topicId;

/**
 * The connector's one gateway to an Iggy server for the source and the catalog: a logged-in client
 * and the few requests they send, taking and returning the connector's own types. Each request
 * waits at most the request timeout; a failure is the SDK's (see {@link IggyClients#await}), so
 * {@link IggyErrorCode#isCauseOf} still tells what the server answered. Thread-safe as the SDK's
 * client is; {@link #close} once, by the owner.
 */
@Internal
public final class IggyServerClient implements AutoCloseable {

    private final AsyncIggyTcpClient client;
    private final IggyConnectionConfig config;

    private IggyServerClient(AsyncIggyTcpClient client, IggyConnectionConfig config) {
        this.client = client;
        this.config = config;
    }

    /** Connects and logs in (see {@link IggyClients#connect}). */
    public static IggyServerClient connect(IggyConnectionConfig config) {
        return connect(config, new SimpleCounter());
    }

    /** Connects and logs in, counting each replaced connection in {@code reconnects}. */
    public static IggyServerClient connect(IggyConnectionConfig config, Counter reconnects) {
        return new IggyServerClient(IggyClients.connect(config, reconnects), config);
    }

    /** Where the requests go, "host:port", for messages. */
    public String address() {
        return config.address();
    }

    // ----- streams ----------------------------------------------------------------------------

    /** The names of all streams, in the server's order. */
    public List<String> streamNames() {
        List<String> names = new ArrayList<>();
        for (StreamBase stream : await(client.streams().getStreams(), "list the streams")) {
            names.add(stream.name());
        }
        return names;
    }

    /** The stream and its topics; empty when it does not exist. */
    public Optional<StreamSummary> stream(IggyId stream) {
        try {
            return await(client.streams().getStream(streamId(stream)), "read stream " + stream)
                    .map(
                            d ->
                                    new StreamSummary(
                                            d.name(),
                                            d.topics().stream().map(Topic::name).toList()));
        } catch (RuntimeException e) {
            if (IggyErrorCode.STREAM_ID_NOT_FOUND.isCauseOf(e)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Creates the stream; false when one of that name existed already. */
    public boolean createStream(String stream) {
        try {
            await(client.streams().createStream(stream), "create stream '" + stream + "'");
            return true;
        } catch (RuntimeException e) {
            if (!IggyErrorCode.STREAM_NAME_ALREADY_EXISTS.isCauseOf(e)) {
                throw e;
            }
            return false;
        }
    }

    public void deleteStream(IggyId stream) {
        await(client.streams().deleteStream(streamId(stream)), "delete stream " + stream);
    }

    // ----- topics -----------------------------------------------------------------------------

    /** The topic; empty when it or its stream does not exist. */
    public Optional<TopicDescription> topic(IggyId stream, IggyId topic) {
        try {
            return await(
                            client.topics().getTopic(streamId(stream), topicId(topic)),
                            "read topic " + topic + " of stream " + stream)
                    .map(TopicDescription::new);
        } catch (RuntimeException e) {
            if (IggyErrorCode.STREAM_ID_NOT_FOUND.isCauseOf(e)
                    || IggyErrorCode.TOPIC_ID_NOT_FOUND.isCauseOf(e)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * The topic, which must exist: when it or its stream does not, an {@code
     * IggyConfigurationException} naming what is missing and the fix (see {@link IggyTopics}).
     */
    public TopicDescription describe(IggyId stream, IggyId topic) {
        return new TopicDescription(IggyTopics.describe(client, config, stream, topic));
    }

    /**
     * Creates the topic; false when one of that name existed already.
     *
     * @param expiryMicros how long messages are kept, {@link TopicDescription#NEVER_EXPIRE} or 0
     *     for ever
     */
    public boolean createTopic(
            IggyId stream, String topic, int partitions, boolean gzip, BigInteger expiryMicros) {
        try {
            await(
                    client.topics()
                            .createTopic(
                                    streamId(stream),
                                    (long) partitions,
                                    TopicDescription.compression(gzip),
                                    expiryMicros,
                                    BigInteger.ZERO,
                                    Optional.empty(),
                                    topic),
                    "create topic '" + topic + "' in stream " + stream);
            return true;
        } catch (RuntimeException e) {
            if (!IggyErrorCode.TOPIC_NAME_ALREADY_EXISTS.isCauseOf(e)) {
                throw e;
            }
            return false;
        }
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
                "update topic '" + topic.name() + "' of stream " + stream);
    }

    public void addPartitions(IggyId stream, IggyId topic, long count) {
        await(
                client.partitions().createPartitions(streamId(stream), topicId(topic), count),
                "add partitions to topic " + topic + " of stream " + stream);
    }

    public void deleteTopic(IggyId stream, IggyId topic) {
        await(
                client.topics().deleteTopic(streamId(stream), topicId(topic)),
                "delete topic " + topic + " of stream " + stream);
    }

    // ----- messages and offsets ---------------------------------------------------------------

    /** Up to {@code count} messages of a partition from {@code offset} on, storing no offset. */
    public List<PolledMessage> poll(
            IggyId stream, IggyId topic, long partition, long offset, long count) {
        PolledMessages polled =
                await(
                        client.messages()
                                .pollMessages(
                                        streamId(stream),
                                        topicId(topic),
                                        Optional.of(partition),
                                        Consumer.of(0L),
                                        PollingStrategy.offset(BigInteger.valueOf(offset)),
                                        count,
                                        false),
                        "read partition " + partition + " of topic " + topic + " of " + stream);
        return wrap(polled);
    }

    /** Sends the messages to one partition; their ids, offsets and timestamps are the server's. */
    public void send(IggyId stream, IggyId topic, long partition, List<PolledMessage> messages) {
        List<Message> sdkMessages = new ArrayList<>(messages.size());
        messages.forEach(m -> sdkMessages.add(m.message));
        await(
                client.messages()
                        .sendMessages(
                                streamId(stream),
                                topicId(topic),
                                Partitioning.partitionId(partition),
                                sdkMessages),
                "send to partition " + partition + " of topic " + topic + " of " + stream);
    }

    /** The offset {@code consumer} stored for the partition, if any. */
    public Optional<Long> storedOffset(
            IggyId stream, IggyId topic, long partition, String consumer) {
        Optional<ConsumerOffsetInfo> info =
                await(
                        client.consumerOffsets()
                                .getConsumerOffset(
                                        streamId(stream),
                                        topicId(topic),
                                        Optional.of(partition),
                                        consumer(consumer)),
                        "read the stored offset of partition "
                                + partition
                                + " of topic "
                                + topic
                                + " of stream "
                                + stream);
        return info.map(i -> i.storedOffset().longValueExact());
    }

    /** The offset of the partition's first message at or after the timestamp, if any. */
    public OptionalLong firstOffsetAtOrAfter(
            IggyId stream, IggyId topic, long partition, String consumer, long timestampMillis) {
        PolledMessages polled =
                await(
                        client.messages()
                                .pollMessages(
                                        streamId(stream),
                                        topicId(topic),
                                        Optional.of(partition),
                                        consumer(consumer),
                                        PollingStrategy.timestamp(
                                                BigInteger.valueOf(timestampMillis)
                                                        .multiply(BigInteger.valueOf(1000))),
                                        1L,
                                        false),
                        "find the first message at or after timestamp "
                                + timestampMillis
                                + " in partition "
                                + partition
                                + " of topic "
                                + topic
                                + " of stream "
                                + stream);
        return polled.messages().isEmpty()
                ? OptionalLong.empty()
                : OptionalLong.of(polled.messages().get(0).header().offset().longValueExact());
    }

    /** Closes the client and waits for its threads (see {@link IggyClients#closeAndWait}). */
    @Override
    public void close() {
        IggyClients.closeAndWait(client);
    }

    // ----- conversions ------------------------------------------------------------------------

    static List<PolledMessage> wrap(PolledMessages polled) {
        List<PolledMessage> messages = new ArrayList<>(polled.messages().size());
        for (Message message : polled.messages()) {
            messages.add(new PolledMessage(message));
        }
        return messages;
    }

    private static Consumer consumer(String name) {
        return Consumer.of(ConsumerId.of(name));
    }

    private <T> T await(CompletableFuture<T> request, String what) {
        return IggyClients.await(request, config.requestTimeout(), what + " at " + address());
    }
}

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
package org.apache.flink.connector.iggy.table.catalog;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyErrorCode;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.exceptions.CatalogException;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.stream.StreamBase;
import org.apache.iggy.stream.StreamDetails;
import org.apache.iggy.topic.CompressionAlgorithm;
import org.apache.iggy.topic.TopicDetails;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * The catalog's requests to the Iggy server about streams and topics, over one client: each waits
 * at most the connection's request timeout, and a failure is a {@link CatalogException} naming what
 * failed and the server's address. It decides nothing about tables or databases; {@link
 * IggyCatalog} and {@link IggyCatalogTables} do.
 *
 * <p>Used by the thread that calls the catalog (the planner's); it holds no state besides the
 * client.
 */
@Internal
final class IggyTopicAdmin {

    private final AsyncIggyTcpClient client;
    private final IggyConnectionConfig connection;

    private IggyTopicAdmin(AsyncIggyTcpClient client, IggyConnectionConfig connection) {
        this.client = client;
        this.connection = connection;
    }

    /** Connects and logs in; fails with the SDK's or the connection's message. */
    static IggyTopicAdmin connect(IggyConnectionConfig connection) {
        return new IggyTopicAdmin(IggyClients.connect(connection), connection);
    }

    /**
     * Closes the client and waits for its Netty threads: the SQL client releases the session's
     * class loader right after, and threads still closing there fail to load classes and keep it
     * running.
     */
    void close() {
        IggyClients.closeAndWait(client);
    }

    /** The client, for the table definitions that share it. */
    AsyncIggyTcpClient client() {
        return client;
    }

    /** Waits for an SDK request; a failure is a {@link CatalogException} naming what failed. */
    static <T> T await(CompletableFuture<T> request, IggyConnectionConfig connection, String what) {
        try {
            return IggyClients.await(request, connection.requestTimeout(), what);
        } catch (RuntimeException e) {
            throw new CatalogException(
                    "Cannot " + what + " at Iggy " + connection.address() + ": " + e.getMessage(),
                    e);
        }
    }

    private <T> T await(CompletableFuture<T> request, String what) {
        return await(request, connection, what);
    }

    // ----- streams ----------------------------------------------------------------------------

    /** The names of all streams, sorted. */
    List<String> streamNames() {
        return await(client.streams().getStreams(), "list the streams").stream()
                .map(StreamBase::name)
                .sorted()
                .collect(Collectors.toList());
    }

    Optional<StreamDetails> stream(String stream) {
        return await(
                client.streams().getStream(StreamId.of(stream)),
                "read the stream '" + stream + "'");
    }

    /**
     * Creates the stream.
     *
     * @return false when a stream of that name existed already (another session created it first)
     */
    boolean createStream(String stream) {
        try {
            await(client.streams().createStream(stream), "create the stream '" + stream + "'");
            return true;
        } catch (CatalogException e) {
            if (!IggyErrorCode.STREAM_NAME_ALREADY_EXISTS.isCauseOf(e)) {
                throw e;
            }
            return false;
        }
    }

    void deleteStream(String stream) {
        await(
                client.streams().deleteStream(StreamId.of(stream)),
                "delete the stream '" + stream + "'");
    }

    // ----- topics -----------------------------------------------------------------------------

    Optional<TopicDetails> topic(String stream, String topic) {
        return await(
                client.topics().getTopic(StreamId.of(stream), TopicId.of(topic)),
                "read the topic '" + topic + "' of stream '" + stream + "'");
    }

    /**
     * Creates the topic with the settings of a table, the defaults for what it leaves out.
     *
     * @return false when a topic of that name existed already (another session created it first)
     */
    boolean createTopic(
            String stream, String topic, IggyTopicSettings settings, int defaultPartitions) {
        try {
            await(
                    client.topics()
                            .createTopic(
                                    StreamId.of(stream),
                                    (long) settings.partitions(defaultPartitions),
                                    settings.compression(CompressionAlgorithm.None),
                                    settings.expiryMicros(BigInteger.ZERO),
                                    BigInteger.ZERO,
                                    Optional.empty(),
                                    topic),
                    "create the topic '" + topic + "' in stream '" + stream + "'");
            return true;
        } catch (CatalogException e) {
            if (!IggyErrorCode.TOPIC_NAME_ALREADY_EXISTS.isCauseOf(e)) {
                throw e;
            }
            return false;
        }
    }

    /**
     * Applies the settings an ALTER TABLE changes: compression and expiry, and more partitions.
     *
     * @param table the table's name, for the message when the settings would remove partitions
     */
    void alterTopic(String stream, TopicDetails topic, IggyTopicSettings settings, String table) {
        StreamId streamId = StreamId.of(stream);
        TopicId topicId = TopicId.of(topic.name());
        long partitions = settings.partitions(topic.partitionsCount().intValue());
        if (partitions < topic.partitionsCount()) {
            throw new ValidationException(
                    "Table "
                            + table
                            + " has "
                            + topic.partitionsCount()
                            + " partitions; ALTER TABLE can add partitions but not remove them"
                            + " (their messages would be lost).");
        }
        CompressionAlgorithm compression = settings.compression(topic.compressionAlgorithm());
        BigInteger expiry = settings.expiryMicros(topic.messageExpiry());
        if (compression != topic.compressionAlgorithm() || !expiry.equals(topic.messageExpiry())) {
            await(
                    client.topics()
                            .updateTopic(
                                    streamId,
                                    topicId,
                                    compression,
                                    expiry,
                                    topic.maxTopicSize(),
                                    Optional.ofNullable(topic.replicationFactor()),
                                    topic.name()),
                    "update the topic '" + topic.name() + "'");
        }
        if (partitions > topic.partitionsCount()) {
            await(
                    client.partitions()
                            .createPartitions(
                                    streamId, topicId, partitions - topic.partitionsCount()),
                    "add partitions to the topic '" + topic.name() + "'");
        }
    }

    void deleteTopic(String stream, String topic) {
        await(
                client.topics().deleteTopic(StreamId.of(stream), TopicId.of(topic)),
                "delete the topic '" + topic + "' of stream '" + stream + "'");
    }
}

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
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.StreamSummary;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.exceptions.CatalogException;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

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

    private final IggyServerClient server;

    private IggyTopicAdmin(IggyServerClient server) {
        this.server = server;
    }

    /** Connects and logs in; fails with the SDK's or the connection's message. */
    static IggyTopicAdmin connect(IggyConnectionConfig connection) {
        return new IggyTopicAdmin(IggyServerClient.connect(connection));
    }

    /**
     * Closes the client and waits for its Netty threads: the SQL client releases the session's
     * class loader right after, and threads still closing there fail to load classes and keep it
     * running.
     */
    void close() {
        server.close();
    }

    /** The gateway, for the table definitions that share it. */
    IggyServerClient server() {
        return server;
    }

    /** Runs a request; a failure is a {@link CatalogException} naming what failed. */
    static <T> T request(IggyServerClient server, String what, Supplier<T> request) {
        try {
            return request.get();
        } catch (CatalogException | ValidationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CatalogException(
                    "Cannot " + what + " at Iggy " + server.address() + ": " + e.getMessage(), e);
        }
    }

    private <T> T request(String what, Supplier<T> request) {
        return request(server, what, request);
    }

    private void run(String what, Runnable request) {
        request(
                what,
                () -> {
                    request.run();
                    return null;
                });
    }

    // ----- streams ----------------------------------------------------------------------------

    /** The names of all streams, sorted. */
    List<String> streamNames() {
        return request("list the streams", server::streamNames).stream().sorted().toList();
    }

    Optional<StreamSummary> stream(String stream) {
        return request("read the stream '" + stream + "'", () -> server.stream(IggyId.of(stream)));
    }

    /**
     * Creates the stream.
     *
     * @return false when a stream of that name existed already (another session created it first)
     */
    boolean createStream(String stream) {
        return request("create the stream '" + stream + "'", () -> server.createStream(stream));
    }

    void deleteStream(String stream) {
        run("delete the stream '" + stream + "'", () -> server.deleteStream(IggyId.of(stream)));
    }

    // ----- topics -----------------------------------------------------------------------------

    Optional<TopicDescription> topic(String stream, String topic) {
        return request(
                "read the topic '" + topic + "' of stream '" + stream + "'",
                () -> server.topic(IggyId.of(stream), IggyId.of(topic)));
    }

    /**
     * Creates the topic with the settings of a table, the defaults for what it leaves out.
     *
     * @return false when a topic of that name existed already (another session created it first)
     */
    boolean createTopic(
            String stream, String topic, IggyTopicSettings settings, int defaultPartitions) {
        return request(
                "create the topic '" + topic + "' in stream '" + stream + "'",
                () ->
                        server.createTopic(
                                IggyId.of(stream),
                                topic,
                                settings.partitions(defaultPartitions),
                                settings.gzip(false),
                                settings.expiryMicros(BigInteger.ZERO)));
    }

    /**
     * Applies the settings an ALTER TABLE changes: compression and expiry, and more partitions.
     *
     * @param table the table's name, for the message when the settings would remove partitions
     */
    void alterTopic(
            String stream, TopicDescription topic, IggyTopicSettings settings, String table) {
        IggyId streamId = IggyId.of(stream);
        int partitions = settings.partitions(topic.partitionsCount());
        if (partitions < topic.partitionsCount()) {
            throw new ValidationException(
                    "Table "
                            + table
                            + " has "
                            + topic.partitionsCount()
                            + " partitions; ALTER TABLE can add partitions but not remove them"
                            + " (their messages would be lost).");
        }
        boolean gzip = settings.gzip(topic.gzip());
        BigInteger expiry = settings.expiryMicros(topic.messageExpiryMicros());
        if (gzip != topic.gzip() || !expiry.equals(topic.messageExpiryMicros())) {
            run(
                    "update the topic '" + topic.name() + "'",
                    () -> server.updateTopic(streamId, topic, gzip, expiry));
        }
        if (partitions > topic.partitionsCount()) {
            run(
                    "add partitions to the topic '" + topic.name() + "'",
                    () ->
                            server.addPartitions(
                                    streamId,
                                    IggyId.of(topic.id()),
                                    partitions - topic.partitionsCount()));
        }
    }

    void deleteTopic(String stream, String topic) {
        run(
                "delete the topic '" + topic + "' of stream '" + stream + "'",
                () -> server.deleteTopic(IggyId.of(stream), IggyId.of(topic)));
    }
}

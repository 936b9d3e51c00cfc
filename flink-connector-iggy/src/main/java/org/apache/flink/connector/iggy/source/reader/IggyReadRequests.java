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

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.MessageBatch;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamListing;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamSummary;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The requests a source reader sends to Iggy, answered asynchronously: the seam between the split
 * reader's scheduling and the SDK, so that scheduling is tested without a server.
 */
@Internal
public interface IggyReadRequests extends AutoCloseable {

    /** Up to {@code count} messages of a partition from {@code offset} on, auto-commit off. */
    CompletableFuture<MessageBatch> poll(
            TopicPath topic, long partitionId, long offset, long count);

    /** The topic with every partition's current offset; empty when the topic does not exist. */
    CompletableFuture<Optional<TopicDescription>> describeTopic(TopicPath topic);

    /** The stream with each topic's message count; empty when the stream does not exist. */
    CompletableFuture<Optional<StreamSummary>> describeStream(IggyId stream);

    /** Every stream of the server with its topic and message counts, in one request. */
    CompletableFuture<List<StreamListing>> listStreams();

    /** Stores {@code offset} (the last processed one) under the reader's consumer name. */
    CompletableFuture<Void> storeOffset(TopicPath topic, long partitionId, long offset);

    /** Where a topic's requests go, for error messages: "topic t of stream s at host:port". */
    String description(TopicPath topic);

    @Override
    void close();
}

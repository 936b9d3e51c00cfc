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

import javax.annotation.Nullable;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What the split reader's fetcher thread waits for, handed over from the SDK's threads (answers)
 * and from Flink's (wake-ups) through one queue; immutable.
 */
sealed interface FetchEvent {

    /**
     * Either {@code polled} or {@code error} is set.
     *
     * @param poll the request answered, to tell the poll in flight from the read-ahead
     * @param generation the cursor's generation when the poll was sent
     */
    record PollAnswer(
            PartitionCursor cursor,
            CompletableFuture<MessageBatch> poll,
            int generation,
            @Nullable MessageBatch polled,
            @Nullable Throwable error)
            implements FetchEvent {}

    /** Either {@code details} (empty when the topic does not exist) or {@code error} is set. */
    record DescribeAnswer(
            TopicPath topic,
            @Nullable Optional<TopicDescription> details,
            @Nullable Throwable error)
            implements FetchEvent {}

    /** Either {@code details} (empty when the stream does not exist) or {@code error} is set. */
    record StreamAnswer(
            IggyId stream, @Nullable Optional<StreamSummary> details, @Nullable Throwable error)
            implements FetchEvent {}

    /** Either {@code streams} or {@code error} is set. */
    record ListAnswer(@Nullable List<StreamListing> streams, @Nullable Throwable error)
            implements FetchEvent {}

    /** {@code error} is set when the store failed. */
    record StoreAnswer(OffsetStore.PartitionOffset stored, @Nullable Throwable error)
            implements FetchEvent {}

    /** Flink asks the fetch to return: a split change or a shutdown waits. */
    enum WakeUp implements FetchEvent {
        INSTANCE
    }
}

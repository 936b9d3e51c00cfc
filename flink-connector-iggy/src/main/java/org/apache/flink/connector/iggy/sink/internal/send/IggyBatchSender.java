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
package org.apache.flink.connector.iggy.sink.internal.send;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Sends batches of messages to partitions of any topic the writer routes to. Batches of one
 * partition are appended in the order of the {@link #send} calls, also while earlier ones are
 * unanswered.
 */
@Internal
public interface IggyBatchSender extends AutoCloseable {

    /**
     * The number of partitions of {@code topic}, from one description. Fails with an {@link
     * org.apache.flink.connector.iggy.common.IggyConfigurationException} naming the stream, the
     * topic and the fix when either does not exist or the topic has no partitions.
     */
    CompletableFuture<Integer> partitionCount(IggySinkTarget topic);

    /** Completes when the server acknowledged the whole batch. */
    CompletableFuture<Void> send(IggyTopicPartition target, List<OutgoingMessage> messages);

    /**
     * The end offset (exclusive) of every partition of {@code topic}, by partition id, from one
     * description; fails if the topic is gone.
     */
    CompletableFuture<Map<Long, Long>> endOffsets(IggySinkTarget topic);

    @Override
    void close();
}

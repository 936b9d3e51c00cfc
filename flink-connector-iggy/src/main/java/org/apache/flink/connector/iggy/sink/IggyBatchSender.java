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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.Internal;

import org.apache.iggy.message.Message;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Sends batches of messages to partitions of the writer's topic. Batches of one partition are
 * appended in the order of the {@link #send} calls, also while earlier ones are unanswered.
 */
@Internal
interface IggyBatchSender extends AutoCloseable {

    /** Partitions of the target topic when the sender was opened. */
    int partitionCount();

    /** Completes when the server acknowledged the whole batch. */
    CompletableFuture<Void> send(long partition, List<Message> messages);

    /**
     * The end offset (exclusive) of every partition of the topic, from one description; fails if
     * the topic is gone.
     */
    CompletableFuture<Map<Long, Long>> endOffsets();

    @Override
    void close();
}

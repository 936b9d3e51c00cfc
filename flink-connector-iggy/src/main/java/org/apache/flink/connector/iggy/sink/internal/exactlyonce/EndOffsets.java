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
package org.apache.flink.connector.iggy.sink.internal.exactlyonce;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.sink.internal.send.IggyBatchSender;
import org.apache.flink.connector.iggy.sink.internal.send.MailboxWait;

import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Reads the end offsets of partitions of several topics: one description per topic, all at once.
 */
@Internal
final class EndOffsets {

    private EndOffsets() {}

    /**
     * The end offset (exclusive) of each of {@code partitions}, waiting on the task thread and
     * running its mails meanwhile.
     *
     * @throws IOException if a description fails or times out, or a partition does not exist
     */
    static Map<IggyTopicPartition, Long> read(
            IggyBatchSender sender,
            Collection<IggyTopicPartition> partitions,
            MailboxExecutor mailbox,
            IggyConnectionConfig connection)
            throws IOException, InterruptedException {
        long timeout = connection.requestTimeout().toMillis();
        Map<IggySinkTarget, CompletableFuture<Map<Long, Long>>> requests = new LinkedHashMap<>();
        for (IggyTopicPartition partition : partitions) {
            requests.computeIfAbsent(
                    IggySinkTarget.of(partition),
                    topic -> sender.endOffsets(topic).orTimeout(timeout, TimeUnit.MILLISECONDS));
        }
        Map<IggyTopicPartition, Long> ends = new HashMap<>();
        for (Map.Entry<IggySinkTarget, CompletableFuture<Map<Long, Long>>> request :
                requests.entrySet()) {
            IggySinkTarget topic = request.getKey();
            try {
                MailboxWait.await(mailbox, request.getValue(), "Iggy end offsets read")
                        .forEach((partition, end) -> ends.put(topic.partition(partition), end));
            } catch (CompletionException e) {
                throw new IOException(
                        "Failed to read the end offsets of "
                                + topic
                                + " at "
                                + connection.address()
                                + " for a checkpoint: "
                                + IggyClients.asRuntime(e).getMessage(),
                        e.getCause());
            }
        }
        for (IggyTopicPartition partition : partitions) {
            if (!ends.containsKey(partition)) {
                throw new IOException(
                        "Iggy " + partition + " at " + connection.address() + " does not exist");
            }
        }
        return ends;
    }
}

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
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.connector.iggy.common.IggyClients;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The partition count of every topic a writer wrote to: each topic is described when a record first
 * goes to it, and the count is kept until the writer closes. A topic that does not exist fails the
 * writer with the sender's {@link
 * org.apache.flink.connector.iggy.common.IggyConfigurationException}, which names the stream, the
 * topic and the fix. Confined to the task thread.
 */
@Internal
final class TopicPartitionCounts {

    private final Supplier<IggyBatchSender> sender;
    private final MailboxExecutor mailbox;
    private final Map<IggySinkTarget, Integer> counts = new HashMap<>();

    TopicPartitionCounts(Supplier<IggyBatchSender> sender, MailboxExecutor mailbox) {
        this.sender = sender;
        this.mailbox = mailbox;
    }

    /** The partitions of {@code topic}; the first call per topic describes it. */
    int of(IggySinkTarget topic) throws InterruptedException {
        Integer count = counts.get(topic);
        if (count == null) {
            try {
                count =
                        MailboxWait.await(
                                mailbox,
                                sender.get().partitionCount(topic),
                                "Iggy " + topic + " described");
            } catch (CompletionException e) {
                throw IggyClients.asRuntime(e);
            }
            counts.put(topic, count);
        }
        return count;
    }
}

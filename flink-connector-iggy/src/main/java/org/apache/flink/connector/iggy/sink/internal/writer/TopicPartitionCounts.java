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
package org.apache.flink.connector.iggy.sink.internal.writer;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.sink.internal.send.IggyBatchSender;
import org.apache.flink.connector.iggy.sink.internal.send.MailboxWait;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The partition count of every topic a writer writes to. A topic is described when a record first
 * goes to it, the task waiting (running its mails) for the answer: a topic that does not exist
 * fails the writer with the sender's {@link
 * org.apache.flink.connector.iggy.common.IggyConfigurationException}, which names the stream, the
 * topic and the fix.
 *
 * <p>As a Kafka producer refreshes its metadata every five minutes, a count older than {@link
 * #MAX_AGE} is described again in the background while records keep using the old count, so
 * partitions added while the job runs are used from then on. A failed refresh keeps the old count
 * (a send to a deleted topic fails on its own). Confined to the task thread: refreshed counts
 * arrive as mails.
 */
@Internal
final class TopicPartitionCounts {

    private static final Logger LOG = LoggerFactory.getLogger(TopicPartitionCounts.class);

    /** How long a partition count is used before it is described again. */
    static final Duration MAX_AGE = Duration.ofMinutes(5);

    private final Supplier<IggyBatchSender> sender;
    private final MailboxExecutor mailbox;
    private final LongSupplier nanoTime;
    private final Map<IggySinkTarget, Count> counts = new HashMap<>();

    TopicPartitionCounts(
            Supplier<IggyBatchSender> sender, MailboxExecutor mailbox, LongSupplier nanoTime) {
        this.sender = sender;
        this.mailbox = mailbox;
        this.nanoTime = nanoTime;
    }

    /** The partitions of {@code topic}; the first call per topic describes it. */
    int of(IggySinkTarget topic) throws InterruptedException {
        Count count = counts.get(topic);
        if (count == null) {
            int partitions;
            try {
                partitions =
                        MailboxWait.await(
                                mailbox,
                                sender.get().partitionCount(topic),
                                "Iggy " + topic + " described");
            } catch (CompletionException e) {
                throw IggyClients.asRuntime(e);
            }
            count = new Count(partitions, nanoTime.getAsLong());
            counts.put(topic, count);
        } else if (!count.refreshing
                && nanoTime.getAsLong() - count.describedAt >= MAX_AGE.toNanos()) {
            refresh(topic, count);
        }
        return count.partitions;
    }

    private void refresh(IggySinkTarget topic, Count count) {
        count.refreshing = true;
        sender.get()
                .partitionCount(topic)
                .whenComplete(
                        (partitions, error) -> {
                            try {
                                mailbox.execute(
                                        () -> refreshed(topic, count, partitions, error),
                                        "Iggy " + topic + " described again");
                            } catch (RejectedExecutionException e) {
                                // The task is shutting down.
                            }
                        });
    }

    private void refreshed(IggySinkTarget topic, Count count, Integer partitions, Throwable error) {
        count.refreshing = false;
        count.describedAt = nanoTime.getAsLong();
        if (error != null) {
            LOG.warn(
                    "Describing Iggy {} again failed; its partition count stays {}: {}",
                    topic,
                    count.partitions,
                    IggyClients.asRuntime(error).getMessage());
        } else if (partitions != count.partitions) {
            LOG.info(
                    "Iggy {} has {} partitions now (was {}): records use them from now on",
                    topic,
                    partitions,
                    count.partitions);
            count.partitions = partitions;
        }
    }

    /** One topic's count, and whether a refresh is under way. */
    private static final class Count {
        int partitions;
        long describedAt;
        boolean refreshing;

        Count(int partitions, long describedAt) {
            this.partitions = partitions;
            this.describedAt = describedAt;
        }
    }
}

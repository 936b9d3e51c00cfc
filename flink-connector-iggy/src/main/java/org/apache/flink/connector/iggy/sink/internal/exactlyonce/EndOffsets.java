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
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.sink.internal.send.IggyBatchSender;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The partitions' end offsets an exactly-once writer puts into its committables ({@link
 * org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable#readFrom}), read without
 * the task thread ever waiting on the server.
 *
 * <p>A committer that may have sent part of a committable before reads the partition back from
 * there, so it must be at most the offset the committable's first message gets. Offsets only grow,
 * and the committer sends a checkpoint's messages only once the checkpoint completed, so any end
 * offset the server answered before the checkpoint's barrier will do. A topic is therefore
 * described (on the sender, asynchronously) when a checkpoint's first message goes to one of its
 * partitions, and at the barrier each committable takes the latest answer for its partition as it
 * stands: a slow or failed answer never delays or fails a checkpoint, it only makes a retried
 * commit read back from an earlier answer, or from the partition's start while none came yet.
 *
 * <p>At most one description per topic is unanswered; one that fails or outlasts the request
 * timeout is logged and asked again in the next checkpoint that writes to the topic.
 *
 * <p>Threads: owned by the task thread; the answers come back as futures that it reads only once
 * they completed.
 */
@Internal
final class EndOffsets {

    private static final Logger LOG = LoggerFactory.getLogger(EndOffsets.class);

    private final Supplier<IggyBatchSender> sender;
    private final IggyConnectionConfig connection;

    /** The unanswered or not yet taken description of each topic. */
    private final Map<IggySinkTarget, CompletableFuture<Map<Long, Long>>> requests =
            new HashMap<>();

    /** The topics asked for in this checkpoint. */
    private final Set<IggySinkTarget> asked = new HashSet<>();

    /** The latest end offset (exclusive) answered for each partition. */
    private final Map<IggyTopicPartition, Long> answered = new HashMap<>();

    EndOffsets(Supplier<IggyBatchSender> sender, IggyConnectionConfig connection) {
        this.sender = sender;
        this.connection = connection;
    }

    /**
     * A checkpoint's first message goes to {@code partition}: describes its topic, unless that was
     * done in this checkpoint or a description is still unanswered.
     */
    void partitionStarted(IggyTopicPartition partition) {
        IggySinkTarget topic = IggySinkTarget.of(partition);
        if (!asked.add(topic)) {
            return;
        }
        CompletableFuture<Map<Long, Long>> earlier = requests.get(topic);
        if (earlier != null) {
            if (!earlier.isDone()) {
                return;
            }
            take(topic, earlier);
        }
        requests.put(
                topic,
                sender.get()
                        .endOffsets(topic)
                        .orTimeout(connection.requestTimeout().toMillis(), TimeUnit.MILLISECONDS));
    }

    /**
     * At the barrier, without waiting: the latest end offset answered for {@code partition}, or 0
     * (its start) if none was.
     */
    long readFrom(IggyTopicPartition partition) {
        IggySinkTarget topic = IggySinkTarget.of(partition);
        CompletableFuture<Map<Long, Long>> request = requests.get(topic);
        if (request != null && request.isDone()) {
            take(topic, request);
        }
        return answered.getOrDefault(partition, 0L);
    }

    /** The checkpoint took the committables: the next one asks again. */
    void checkpointTaken() {
        asked.clear();
    }

    private void take(IggySinkTarget topic, CompletableFuture<Map<Long, Long>> request) {
        requests.remove(topic);
        try {
            request.join().forEach((p, end) -> answered.merge(topic.partition(p), end, Math::max));
        } catch (CompletionException e) {
            LOG.warn(
                    "Could not read the end offsets of {} at {} (a commit retried now reads back"
                            + " from an earlier offset; asked again at the next checkpoint): {}",
                    topic,
                    connection.address(),
                    IggyClients.describe(e));
        }
    }
}

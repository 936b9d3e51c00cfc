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

import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.client.IggyErrorCode;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.common.client.TopicDescription.PartitionState;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Guards the split reader against one of its topics changing under it: a topic deleted (and maybe
 * created again), a partition deleted, or a partition whose end is behind what was already read. By
 * default each fails the source, naming what changed and the fix; reading on would skip messages
 * silently. {@link OnDeletedTopic} chooses otherwise. It only decides; {@link TopicWatch} has
 * {@link PartitionPolls} carry its decisions out.
 *
 * <p>Fetcher thread only.
 */
final class TopologyGuard {

    private static final Logger LOG = LoggerFactory.getLogger(TopologyGuard.class);

    /** What a topic deleted while it is read does to the source. */
    enum OnDeletedTopic {
        /** The source fails, naming the topic (the default). */
        FAIL,
        /** The source waits for it and reads it from offset 0; a bounded split fails. */
        READ_RECREATED_FROM_START,
        /** Its splits finish; the others are read on. */
        SKIP
    }

    private final String topicDescription;
    private final OnDeletedTopic onDeleted;

    @Nullable private TopicIdentity identity;
    private boolean topicMissingLogged;
    private final Set<Long> missingPartitionsLogged = new HashSet<>();

    TopologyGuard(String topicDescription, OnDeletedTopic onDeleted) {
        this.topicDescription = topicDescription;
        this.onDeleted = onDeleted;
    }

    /**
     * Checks a description against the partitions read; returns those to read again from offset 0.
     *
     * @throws IggyConnectorException when the topic or a partition changed and the source must stop
     */
    List<PartitionCursor> check(TopicDescription details, Collection<PartitionCursor> cursors) {
        topicMissingLogged = false;
        TopicIdentity now = new TopicIdentity(details.id(), details.summary().createdAt());
        if (identity != null && !identity.equals(now)) {
            TopicIdentity old = identity;
            identity = now;
            recreated("it was deleted and created again (it had " + old + ", it has " + now + ")");
            return new ArrayList<>(cursors);
        }
        identity = now;
        Map<Long, PartitionState> partitions = new HashMap<>();
        for (PartitionState partition : details.partitions()) {
            partitions.put(partition.id(), partition);
        }
        List<PartitionCursor> readAgain = new ArrayList<>();
        for (PartitionCursor cursor : cursors) {
            PartitionState partition = partitions.get(cursor.partitionId());
            if (partition == null) {
                partitionMissing(cursor, partitions.size());
                continue;
            }
            if (missingPartitionsLogged.remove(cursor.partitionId())) {
                recreated("partition " + cursor.partitionId() + " was deleted and created again");
                readAgain.add(cursor);
                continue;
            }
            long end = endOf(partition);
            // A partition whose one message expired reports what an empty one does.
            boolean oneExpired = cursor.offsetAtDescribe == 1 && end == 0;
            if (end < cursor.offsetAtDescribe && !oneExpired) {
                recreated(
                        "partition "
                                + cursor.partitionId()
                                + " ends at offset "
                                + end
                                + " but offsets up to "
                                + (cursor.offsetAtDescribe - 1)
                                + " were read already");
                readAgain.add(cursor);
            }
        }
        return readAgain;
    }

    /** Whether a request failed because the stream or the topic does not exist. */
    static boolean topicMissing(Throwable error) {
        return IggyErrorCode.STREAM_ID_NOT_FOUND.isCauseOf(error)
                || IggyErrorCode.TOPIC_ID_NOT_FOUND.isCauseOf(error);
    }

    /** Fails the source, or warns and returns whether the topic's splits are to finish. */
    boolean topicMissing() {
        String message =
                "Iggy "
                        + topicDescription
                        + " no longer exists: it was deleted under the running source.";
        switch (onDeleted) {
            case SKIP:
                LOG.warn("{} Its partitions are no longer read; the other topics are.", message);
                return true;
            case READ_RECREATED_FROM_START:
                if (!topicMissingLogged) {
                    topicMissingLogged = true;
                    LOG.warn("{} Waiting for it to be created again.", message);
                }
                return false;
            default:
                throw new IggyConnectorException(
                        message
                                + " Re-create it and start the job without state (a savepoint or"
                                + " checkpoint of this job holds read positions of the old topic); to"
                                + " read a re-created topic from its start instead, set"
                                + " IggySourceBuilder#setRecreatedTopicReadFromStart"
                                + " (SQL 'scan.recreated-topic.read-from-start'); to read on the other"
                                + " topics, set IggySourceBuilder#setDeletedTopicSkip (SQL"
                                + " 'scan.deleted-topic.skip').");
        }
    }

    private void partitionMissing(PartitionCursor cursor, int partitionsLeft) {
        String message =
                "Iggy "
                        + topicDescription
                        + " has no partition "
                        + cursor.partitionId()
                        + " any more (it has "
                        + partitionsLeft
                        + " partitions): the partition was deleted under the running source after"
                        + " offset "
                        + (cursor.nextOffset - 1)
                        + " was read.";
        if (cursor.split.isBounded()) {
            throw new IggyConnectorException(
                    message
                            + " A bounded source cannot reach its stopping offset "
                            + cursor.split.stoppingOffset()
                            + " there, so it stops instead of waiting forever. Re-create the"
                            + " partition, or restart the job without state or with stopping"
                            + " offsets that leave the partition out.");
        }
        if (onDeleted != OnDeletedTopic.READ_RECREATED_FROM_START) {
            throw new IggyConnectorException(
                    message
                            + " Reading on would skip its messages silently, so the source stops."
                            + " Re-create the partition and start the job without state (its state"
                            + " holds read positions of the old partition), or let the source"
                            + " wait for it and read it from its start"
                            + " (IggySourceBuilder#setRecreatedTopicReadFromStart, SQL"
                            + " 'scan.recreated-topic.read-from-start').");
        }
        if (missingPartitionsLogged.add(cursor.partitionId())) {
            LOG.warn("{} Waiting for it to be created again.", message);
        }
    }

    private void recreated(String what) {
        String message =
                "Iggy " + topicDescription + " changed under the running source: " + what + ".";
        if (onDeleted != OnDeletedTopic.READ_RECREATED_FROM_START) {
            throw new IggyConnectorException(
                    message
                            + " Reading on would skip messages silently, so the source stops. Do not restore a"
                            + " savepoint or checkpoint of this job: its read positions belong to the old topic and"
                            + " would be applied to the new one unnoticed. Start the job without state (its start"
                            + " position decides where the new topic is read from), or let the source read a"
                            + " re-created topic from its start (IggySourceBuilder#setRecreatedTopicReadFromStart,"
                            + " SQL 'scan.recreated-topic.read-from-start').");
        }
        LOG.warn("{} Reading the affected partitions again from their start (offset 0).", message);
    }

    /**
     * The exclusive end of a partition. {@code current_offset} is 0 both when the partition is
     * empty and when it holds one message, so emptiness comes from the message count.
     */
    static long endOf(PartitionState partition) {
        long current = partition.currentOffset();
        return partition.messagesCount() == 0 && current == 0 ? 0 : current + 1;
    }

    /** What tells a re-created topic from the one read so far. */
    private record TopicIdentity(long id, BigInteger createdAt) {
        @Override
        public String toString() {
            return "id " + id + ", created at " + createdAt + " µs";
        }
    }
}

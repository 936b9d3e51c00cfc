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
import org.apache.flink.connector.iggy.common.client.FailureCopy;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.common.client.IggyErrorCode;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.common.client.TopicDescription.PartitionState;
import org.apache.flink.connector.iggy.common.client.TopicDescription.TopicSummary;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Watches the partitions of one topic that reached their end: instead of polling each, it describes
 * the topic (one request telling every partition's end) when {@link DescribeSchedule} says, and
 * applies the answer: the message size to {@link PollSize}, the checks of {@link TopologyGuard},
 * the new ends to {@link PartitionPolls}, which polls the partitions that grew. A missing topic or
 * partition is watched until the guard decides; any other failure fails the fetch. Quiet watches
 * are checked together by {@link WatchedTopics}.
 *
 * <p>Fetcher thread only; descriptions are answered through {@code events}.
 */
final class TopicWatch {

    private final TopicPath topic;
    private final IggyReadRequests requests;
    private final PollSize pollSize;
    private final PartitionPolls partitions;
    private final DescribeSchedule schedule;
    private final TopologyGuard guard;
    private final Consumer<FetchEvent> events;
    private final WatchedTopics watched;

    /** A description is in flight: no second one is sent before it answers. */
    private boolean describing;

    /** Something may have changed since the description in flight was sent: describe again. */
    private boolean describeNext = true;

    /** The topic as last seen, described or in its stream's description; null before. */
    @Nullable private TopicSummary lastSeen;

    /** When the request that last saw the topic (or that it did not change) was sent. */
    private long seenAt;

    TopicWatch(
            TopicPath topic,
            IggyReadRequests requests,
            PollSize pollSize,
            PartitionPolls partitions,
            DescribeSchedule schedule,
            TopologyGuard.OnDeletedTopic onDeleted,
            WatchedTopics watched,
            Consumer<FetchEvent> events) {
        this.topic = topic;
        this.requests = requests;
        this.pollSize = pollSize;
        this.partitions = partitions;
        this.schedule = schedule;
        this.guard = new TopologyGuard(requests.description(topic), onDeleted);
        this.events = events;
        this.watched = watched;
    }

    TopicPath topic() {
        return topic;
    }

    PollSize pollSize() {
        return pollSize;
    }

    void caughtUpAfterData(long now) {
        schedule.caughtUpAfterData(now);
        describeNext();
    }

    void partitionsAdded(long now) {
        schedule.partitionsAdded(now);
        describeNext();
    }

    void describeNow(long now) {
        schedule.describeNow(now);
        describeNext();
    }

    private void describeNext() {
        describeNext = true;
        watched.activate(this);
    }

    /** Describes the topic when due and a partition is watched; returns how long to wait. */
    long describeIfDue(long now) {
        if (describing) {
            return schedule.maxNanos();
        }
        long untilDue = schedule.nanosUntilDue(now);
        if (untilDue > 0) {
            return untilDue;
        }
        if (!partitions.prepareDescription(topic)) {
            // Everything is polled or paused; answers, resumes and wake-ups end the wait.
            return schedule.maxNanos();
        }
        describing = true;
        describeNext = false;
        seenAt = now;
        requests.describeTopic(topic)
                .whenComplete(
                        (details, error) ->
                                events.accept(
                                        new FetchEvent.DescribeAnswer(topic, details, error)));
        return schedule.maxNanos();
    }

    boolean describing() {
        return describing;
    }

    long seenAt() {
        return seenAt;
    }

    long delayNanos(long now) {
        return WatchedTopics.ABSENT.equals(lastSeen)
                ? schedule.maxNanos()
                : schedule.currentDelayNanos(now);
    }

    /** Whether a stream description sent at {@code askedAt} shows the topic as last seen. */
    boolean stillShows(TopicSummary summary, long askedAt) {
        if (!summary.equals(lastSeen)) {
            return false;
        }
        seenAt = askedAt;
        return true;
    }

    void unchangedAt(long askedAt) {
        seenAt = askedAt;
    }

    /** Applies a description; the watch then goes quiet unless something changed since. */
    void answered(FetchEvent.DescribeAnswer answer) throws IOException {
        describing = false;
        if (answer.error() != null) {
            describeFailed(answer.error());
        } else {
            described(answer.details());
        }
        if (!describeNext) {
            watched.quieted(this, System.nanoTime());
        }
    }

    /** Fails the fetch, unless the topic or partition is missing. */
    boolean pollFailed(PartitionCursor cursor, Throwable error) throws IOException {
        if (TopologyGuard.topicMissing(error)) {
            topicMissing();
            partitions.watchFromHere(cursor); // watched until the topic is back
            return false;
        }
        if (IggyErrorCode.PARTITION_NOT_FOUND.isCauseOf(error)) {
            partitions.watchFromHere(cursor); // the next description says what happened
            describeNow(System.nanoTime());
            return false;
        }
        Throwable cause = IggyClients.asRuntime(error);
        throw new IOException(
                "Polling partition "
                        + cursor.partitionId()
                        + " of "
                        + requests.description(topic)
                        + " from offset "
                        + cursor.nextOffset
                        + " failed: "
                        + cause,
                FailureCopy.serializable(cause));
    }

    private void described(Optional<TopicDescription> answer) {
        long now = System.nanoTime();
        if (answer.isEmpty()) {
            topicAbsent();
            return;
        }
        TopicDescription details = answer.get();
        lastSeen = details.summary();
        pollSize.described(details.summary());
        Map<Long, PartitionCursor> cursors = partitions.ofTopic(topic);
        for (PartitionCursor cursor : guard.check(details, cursors.values())) {
            partitions.readFromStart(cursor);
        }
        for (PartitionState partition : details.partitions()) {
            PartitionCursor cursor = cursors.get(partition.id());
            if (cursor != null && !cursor.removed) {
                partitions.learnedEnd(cursor, TopologyGuard.endOf(partition));
            }
        }
        schedule.described(now, details.partitions().size());
    }

    private void describeFailed(Throwable error) throws IOException {
        if (TopologyGuard.topicMissing(error)) {
            topicAbsent();
            return;
        }
        Throwable cause = IggyClients.asRuntime(error);
        if (cause instanceof IggyConnectorException) {
            throw (IggyConnectorException) cause; // cannot connect or log in: says so itself
        }
        throw new IOException(
                "Describing " + requests.description(topic) + " failed: " + cause,
                FailureCopy.serializable(cause));
    }

    private void topicAbsent() {
        lastSeen = WatchedTopics.ABSENT;
        topicMissing();
        schedule.waitLongest(System.nanoTime());
    }

    /** The guard fails the source, waits, or has the topic's splits finish. */
    private void topicMissing() {
        if (guard.topicMissing()) {
            partitions.finishTopic(topic);
        }
    }
}

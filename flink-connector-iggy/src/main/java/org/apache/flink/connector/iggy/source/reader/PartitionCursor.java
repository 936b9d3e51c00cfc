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

import org.apache.flink.connector.iggy.common.client.MessageBatch;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import javax.annotation.Nullable;

import java.util.concurrent.CompletableFuture;

/**
 * Where the split reader stands in one partition and what it asked for there. Fetcher thread only,
 * written by {@link PartitionPolls}; {@link #progress} is shared and says itself how.
 */
final class PartitionCursor {

    /** An end offset not learned yet. */
    static final long UNKNOWN = -1;

    final IggyPartitionSplit split;
    final String splitId;
    final TopicPath topic;

    final PollSize pollSize;

    final IggySourceProgress.Partition progress;
    long nextOffset;

    /** The partition's exclusive end as last learned, or {@link #UNKNOWN}. */
    long knownEnd = UNKNOWN;

    /** {@link #nextOffset} when the description in flight was asked for. */
    long offsetAtDescribe;

    boolean paused;
    boolean removed;

    /** In the queue of partitions due for a poll. */
    boolean queued;

    @Nullable CompletableFuture<MessageBatch> inFlight;

    /** The exclusive end of what the poll in flight asked for; the read-ahead starts here. */
    long inFlightTo;

    /** The read-ahead: a poll for the batch after the one in flight. */
    @Nullable CompletableFuture<MessageBatch> ahead;

    long aheadTo;

    /** The read-ahead's answer when it came before the answer of the poll in flight. */
    @Nullable MessageBatch aheadAnswer;

    /** Bumped by {@link #dropPolls()}: answers to older polls are not used. */
    int generation;

    PartitionCursor(
            IggyPartitionSplit split, IggySourceProgress.Partition progress, PollSize pollSize) {
        this.split = split;
        this.splitId = split.splitId();
        this.topic = split.topicPath();
        this.pollSize = pollSize;
        this.progress = progress;
        this.nextOffset = split.startingOffset();
    }

    long partitionId() {
        return split.partitionId();
    }

    boolean reachedStop() {
        return nextOffset >= split.stoppingOffset();
    }

    boolean hasUnreadData() {
        return knownEnd > nextOffset;
    }

    /** Neither removed, paused, polled nor finished. */
    boolean mayPoll() {
        return !removed && !paused && inFlight == null && !reachedStop();
    }

    /** Not due either: only a description can tell it grew. */
    boolean watched() {
        return !queued && mayPoll();
    }

    /** Cancels the polls; answers that still come are not used. */
    void dropPolls() {
        if (inFlight != null) {
            inFlight.cancel(false);
            inFlight = null;
        }
        if (ahead != null) {
            ahead.cancel(false);
            ahead = null;
        }
        aheadAnswer = null;
        generation++;
    }

    void restartFromZero() {
        dropPolls();
        nextOffset = 0;
        offsetAtDescribe = 0;
        knownEnd = UNKNOWN;
    }
}

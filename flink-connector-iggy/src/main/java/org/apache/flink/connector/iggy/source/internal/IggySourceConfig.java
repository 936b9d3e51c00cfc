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
package org.apache.flink.connector.iggy.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * What an {@link IggySource} reads and how, everything but the decoding: validated once by {@link
 * IggySourceBuilder}, immutable.
 */
@Internal
public final class IggySourceConfig implements Serializable {

    private static final long serialVersionUID = 1L;

    /**
     * The consumer a source without a consumer name polls as. Polls never store offsets
     * (auto-commit is off), so nothing is ever stored under this name.
     */
    public static final String POLL_ONLY_CONSUMER_NAME = "flink-iggy-source";

    private final IggyConnectionConfig connection;
    private final TopicSubscription subscription;
    @Nullable private final String consumerName;
    private final IggyStartingOffsets startingOffsets;
    @Nullable private final IggyStoppingOffsets stoppingOffsets;

    /** 0: each poll's count follows the topic's message size. */
    private final int batchSize;

    private final Duration minPollInterval;
    private final Duration pollInterval;
    private final Duration pollBackOff;
    @Nullable private final Duration partitionDiscoveryInterval;
    private final boolean skipUndecodableRecords;
    private final boolean readRecreatedTopicFromStart;
    private final boolean skipDeletedTopics;

    public IggySourceConfig(
            IggyConnectionConfig connection,
            TopicSubscription subscription,
            @Nullable String consumerName,
            IggyStartingOffsets startingOffsets,
            @Nullable IggyStoppingOffsets stoppingOffsets,
            int batchSize,
            Duration minPollInterval,
            Duration pollInterval,
            Duration pollBackOff,
            @Nullable Duration partitionDiscoveryInterval,
            boolean skipUndecodableRecords,
            boolean readRecreatedTopicFromStart,
            boolean skipDeletedTopics) {
        this.connection = connection;
        this.subscription = subscription;
        this.consumerName = consumerName;
        this.startingOffsets = startingOffsets;
        this.stoppingOffsets = stoppingOffsets;
        this.batchSize = batchSize;
        this.minPollInterval = minPollInterval;
        this.pollInterval = pollInterval;
        this.pollBackOff = pollBackOff;
        this.partitionDiscoveryInterval = partitionDiscoveryInterval;
        this.skipUndecodableRecords = skipUndecodableRecords;
        this.readRecreatedTopicFromStart = readRecreatedTopicFromStart;
        this.skipDeletedTopics = skipDeletedTopics;
    }

    public IggyConnectionConfig connection() {
        return connection;
    }

    /** The topics read: a list, or a search by pattern. */
    public TopicSubscription subscription() {
        return subscription;
    }

    /**
     * The consumer the source polls as: the consumer name offsets are stored under and read back
     * from, or, when the user set none, a fixed name under which nothing is stored.
     */
    public String consumerName() {
        return consumerName != null ? consumerName : POLL_ONLY_CONSUMER_NAME;
    }

    /** Whether completed checkpoints store offsets in Iggy: only under a consumer name. */
    public boolean storesOffsets() {
        return consumerName != null;
    }

    public IggyStartingOffsets startingOffsets() {
        return startingOffsets;
    }

    /** Where each partition stops; {@code null} for an unbounded source. */
    @Nullable
    public IggyStoppingOffsets stoppingOffsets() {
        return stoppingOffsets;
    }

    public boolean bounded() {
        return stoppingOffsets != null;
    }

    /** Messages per poll as the user fixed them; empty: sized by the topic's message size. */
    public OptionalInt batchSize() {
        return batchSize > 0 ? OptionalInt.of(batchSize) : OptionalInt.empty();
    }

    /** The shortest time between two checks for new data, right after data arrived. */
    public Duration minPollInterval() {
        return minPollInterval;
    }

    /** The longest time between two checks for new data, in an idle topic. */
    public Duration pollInterval() {
        return pollInterval;
    }

    /**
     * The quiet time over which the time between two checks grows from the minimum to the poll
     * interval.
     */
    public Duration pollBackOff() {
        return pollBackOff;
    }

    /** {@code null}: no partition discovery. */
    @Nullable
    public Duration partitionDiscoveryInterval() {
        return partitionDiscoveryInterval;
    }

    public boolean skipUndecodableRecords() {
        return skipUndecodableRecords;
    }

    /** On a deleted and re-created topic: read it from its start instead of failing. */
    public boolean readRecreatedTopicFromStart() {
        return readRecreatedTopicFromStart;
    }

    /**
     * On a topic or stream deleted while it is read: finish its splits and read on the others,
     * instead of failing.
     */
    public boolean skipDeletedTopics() {
        return skipDeletedTopics;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof IggySourceConfig)) {
            return false;
        }
        IggySourceConfig that = (IggySourceConfig) o;
        return connection.equals(that.connection)
                && subscription.equals(that.subscription)
                && Objects.equals(consumerName, that.consumerName)
                && startingOffsets.equals(that.startingOffsets)
                && Objects.equals(stoppingOffsets, that.stoppingOffsets)
                && batchSize == that.batchSize
                && minPollInterval.equals(that.minPollInterval)
                && pollInterval.equals(that.pollInterval)
                && pollBackOff.equals(that.pollBackOff)
                && Objects.equals(partitionDiscoveryInterval, that.partitionDiscoveryInterval)
                && skipUndecodableRecords == that.skipUndecodableRecords
                && readRecreatedTopicFromStart == that.readRecreatedTopicFromStart
                && skipDeletedTopics == that.skipDeletedTopics;
    }

    @Override
    public int hashCode() {
        return Objects.hash(subscription, consumerName, startingOffsets, stoppingOffsets);
    }

    /** The fields {@link IggySource#toString()} shows; no secret, the connection masks its own. */
    @Override
    public String toString() {
        return subscription.describe()
                + ", connection="
                + connection
                + (consumerName != null
                        ? ", consumer='" + consumerName + "'"
                        : ", no consumer name (offsets not stored)")
                + ", start="
                + startingOffsets
                + (stoppingOffsets != null ? ", stop=" + stoppingOffsets : "");
    }
}

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
import java.util.OptionalInt;

/**
 * What an {@link IggySource} reads and how, everything but the decoding: validated once by {@link
 * IggySourceBuilder}, immutable.
 *
 * @param subscription the topics read: a list, or a search by pattern
 * @param userConsumerName the consumer name the user set, or {@code null} (see {@link
 *     #consumerName()})
 * @param stoppingOffsets where each partition stops; {@code null} for an unbounded source
 * @param fixedPollBatchSize messages per poll as the user fixed them; 0: each poll's count follows
 *     the topic's message size
 * @param pollMinInterval the shortest time between two checks for new data, right after data
 *     arrived
 * @param pollInterval the longest time between two checks for new data, in an idle topic
 * @param pollBackOff the quiet time over which the time between two checks grows from the minimum
 *     to the poll interval
 * @param partitionDiscoveryInterval {@code null}: no partition discovery
 * @param recreatedTopicReadFromStart on a deleted and re-created topic: read it from its start
 *     instead of failing
 * @param deletedTopicSkip on a topic or stream deleted while it is read: finish its splits and read
 *     on the others, instead of failing
 */
@Internal
public record IggySourceConfig(
        IggyConnectionConfig connection,
        TopicSubscription subscription,
        @Nullable String userConsumerName,
        IggyStartingOffsets startingOffsets,
        @Nullable IggyStoppingOffsets stoppingOffsets,
        int fixedPollBatchSize,
        Duration pollMinInterval,
        Duration pollInterval,
        Duration pollBackOff,
        @Nullable Duration partitionDiscoveryInterval,
        boolean skipUndecodableRecords,
        boolean recreatedTopicReadFromStart,
        boolean deletedTopicSkip)
        implements Serializable {

    /**
     * The consumer a source without a consumer name polls as. Polls never store offsets
     * (auto-commit is off), so nothing is ever stored under this name.
     */
    public static final String POLL_ONLY_CONSUMER_NAME = "flink-iggy-source";

    /**
     * The consumer the source polls as: the consumer name offsets are stored under and read back
     * from, or, when the user set none, a fixed name under which nothing is stored.
     */
    public String consumerName() {
        return userConsumerName != null ? userConsumerName : POLL_ONLY_CONSUMER_NAME;
    }

    /** Whether completed checkpoints store offsets in Iggy: only under a consumer name. */
    public boolean storesOffsets() {
        return userConsumerName != null;
    }

    public boolean bounded() {
        return stoppingOffsets != null;
    }

    /** Messages per poll as the user fixed them; empty: sized by the topic's message size. */
    public OptionalInt pollBatchSize() {
        return fixedPollBatchSize > 0 ? OptionalInt.of(fixedPollBatchSize) : OptionalInt.empty();
    }

    /** The fields {@link IggySource#toString()} shows; no secret, the connection masks its own. */
    @Override
    public String toString() {
        return subscription.describe()
                + ", connection="
                + connection
                + (userConsumerName != null
                        ? ", consumer='" + userConsumerName + "'"
                        : ", no consumer name (offsets not stored)")
                + ", start="
                + startingOffsets
                + (stoppingOffsets != null ? ", stop=" + stoppingOffsets : "");
    }
}

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

/**
 * What an {@link IggySource} reads and how, everything but the decoding: validated once by {@link
 * IggySourceBuilder}, immutable. The fields are the builder's settings of the same names.
 *
 * @param userConsumerName {@code null} when unset (see {@link #consumerName()})
 * @param stoppingOffsets {@code null} for an unbounded source
 * @param fixedPollBatchSize 0: each poll's count follows the topic's message size
 * @param partitionDiscoveryInterval {@code null}: no partition discovery
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

    /** The consumer a source without a consumer name polls as; nothing is stored under it. */
    public static final String POLL_ONLY_CONSUMER_NAME = "flink-iggy-source";

    /** The consumer the source polls as and stores offsets under. */
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

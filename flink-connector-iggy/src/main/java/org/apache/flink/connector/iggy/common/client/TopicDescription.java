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
package org.apache.flink.connector.iggy.common.client;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyTopics;

import org.apache.iggy.partition.Partition;
import org.apache.iggy.topic.CompressionAlgorithm;
import org.apache.iggy.topic.TopicDetails;

import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A topic as the server described it: its partitions with their exclusive end offsets and its
 * settings. Immutable; converted once from the SDK's answer.
 */
@Internal
public final class TopicDescription {

    /**
     * The message expiry ({@code u64::MAX} microseconds) of a topic whose messages never expire.
     */
    public static final BigInteger NEVER_EXPIRE =
            BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    final TopicDetails details;
    private final Map<Long, Long> endOffsets = new LinkedHashMap<>();

    TopicDescription(TopicDetails details) {
        this.details = details;
        for (Partition partition : details.partitions()) {
            endOffsets.put(partition.id(), IggyTopics.endOffset(partition));
        }
    }

    /** The server's id of the topic: a topic deleted and created again gets another. */
    public long id() {
        return details.id();
    }

    public String name() {
        return details.name();
    }

    public int partitionsCount() {
        return details.partitionsCount().intValue();
    }

    /** Each partition's exclusive end offset (the offset its next message gets), by id. */
    public Map<Long, Long> endOffsets() {
        return Collections.unmodifiableMap(endOffsets);
    }

    public boolean gzip() {
        return details.compressionAlgorithm() == CompressionAlgorithm.Gzip;
    }

    /** How long messages are kept, in microseconds; 0 or {@link #NEVER_EXPIRE} for ever. */
    public BigInteger messageExpiryMicros() {
        return details.messageExpiry();
    }

    static CompressionAlgorithm compression(boolean gzip) {
        return gzip ? CompressionAlgorithm.Gzip : CompressionAlgorithm.None;
    }
}

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

import org.apache.iggy.partition.Partition;
import org.apache.iggy.stream.StreamBase;
import org.apache.iggy.stream.StreamDetails;
import org.apache.iggy.topic.CompressionAlgorithm;
import org.apache.iggy.topic.Topic;
import org.apache.iggy.topic.TopicDetails;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A topic as the server described it: its partitions with their offsets, and its settings.
 * Immutable; converted once from the SDK's answer.
 */
@Internal
public final class TopicDescription {

    /** The message expiry ({@code u64::MAX} microseconds) of messages that never expire. */
    public static final BigInteger NEVER_EXPIRE =
            BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    final TopicDetails details;
    private final TopicSummary summary;
    private final List<PartitionState> partitions;

    private TopicDescription(TopicDetails details) {
        this.details = details;
        this.summary = TopicSummary.of(details);
        this.partitions = details.partitions().stream().map(PartitionState::of).toList();
    }

    /** A topic's description, as the SDK gave it (tests build fake answers this way). */
    public static TopicDescription of(TopicDetails details) {
        return new TopicDescription(details);
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

    public TopicSummary summary() {
        return summary;
    }

    public List<PartitionState> partitions() {
        return partitions;
    }

    /** Each partition's exclusive end offset (the offset its next message gets), by id. */
    public Map<Long, Long> endOffsets() {
        Map<Long, Long> ends = new LinkedHashMap<>();
        partitions.forEach(p -> ends.put(p.id(), p.endOffset()));
        return ends;
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

    /**
     * A partition as a topic's description gives it.
     *
     * @param currentOffset the offset of its last message; 0 also when it holds none
     * @param messagesCount the messages it stores (expired ones not counted)
     */
    public record PartitionState(long id, long currentOffset, long messagesCount) {

        static PartitionState of(Partition p) {
            BigInteger count = p.messagesCount();
            return new PartitionState(
                    p.id(), p.currentOffset().longValue(), count == null ? 0 : count.longValue());
        }

        /**
         * The exclusive end. {@code current_offset} is 0 both when the partition is empty and when
         * it holds one message, so emptiness comes from the message count.
         */
        public long endOffset() {
            return messagesCount == 0 ? 0 : currentOffset + 1;
        }
    }

    /**
     * A topic as a whole: enough to tell whether it was re-created, re-partitioned or written to.
     *
     * @param size the bytes it stores, as the server reports them (a decimal number)
     */
    public record TopicSummary(
            long id,
            String name,
            BigInteger createdAt,
            long partitionsCount,
            BigInteger messagesCount,
            String size) {

        static TopicSummary of(Topic t) {
            return new TopicSummary(
                    t.id(),
                    t.name(),
                    t.createdAt(),
                    t.partitionsCount(),
                    t.messagesCount(),
                    t.size());
        }

        static TopicSummary of(TopicDetails t) {
            return new TopicSummary(
                    t.id(),
                    t.name(),
                    t.createdAt(),
                    t.partitionsCount(),
                    t.messagesCount(),
                    t.size());
        }
    }

    /**
     * A stream as the server lists it: enough to tell whether anything in it changed.
     *
     * @param size the bytes its topics store, as the server reports them (a decimal number)
     */
    public record StreamListing(
            long id,
            String name,
            BigInteger createdAt,
            long topicsCount,
            BigInteger messagesCount,
            String size) {

        /** A stream as the SDK listed it (tests build fake answers this way). */
        public static StreamListing of(StreamBase s) {
            return new StreamListing(
                    s.id(), s.name(), s.createdAt(), s.topicsCount(), s.messagesCount(), s.size());
        }
    }

    /** A stream as the server listed it: its name and its topics. */
    public record StreamSummary(String name, List<TopicSummary> topics) {

        public StreamSummary {
            topics = List.copyOf(topics);
        }

        /** A stream's description, as the SDK gave it (tests build fake answers this way). */
        public static StreamSummary of(StreamDetails details) {
            return new StreamSummary(
                    details.name(), details.topics().stream().map(TopicSummary::of).toList());
        }
    }
}

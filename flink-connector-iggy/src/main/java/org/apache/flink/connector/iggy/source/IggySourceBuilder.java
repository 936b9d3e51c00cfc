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
package org.apache.flink.connector.iggy.source;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.source.internal.IggyKeyedMapDeserializationSchema;
import org.apache.flink.connector.iggy.source.internal.IggySourceConfig;
import org.apache.flink.connector.iggy.source.internal.TopicSubscription;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Builds an {@link IggySource}. Required: connection, stream, topic and a deserializer, plus a
 * consumer name for the committed starting position (the default). The options are described in
 * docs/datastream-source.md.
 */
@PublicEvolving
public final class IggySourceBuilder<T> {

    private static final Logger LOG = LoggerFactory.getLogger(IggySourceBuilder.class);

    /** The default {@link #setPollInterval poll interval}. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(150);

    /** The default back-off ({@link #setPollBackOff}), in poll intervals. */
    static final int DEFAULT_POLL_BACK_OFF_INTERVALS = 250;

    @Nullable private IggyConnectionConfig connection;
    @Nullable private IggyId stream;
    @Nullable private Pattern streamPattern;
    private List<IggyId> topics = List.of();
    @Nullable private Pattern topicPattern;
    @Nullable private String consumerName;
    private IggyStartingOffsets startingOffsets = IggyStartingOffsets.committed();
    @Nullable private IggyStoppingOffsets stoppingOffsets;
    @Nullable private Integer pollBatchSize;
    private Duration pollInterval = DEFAULT_POLL_INTERVAL;
    @Nullable private Duration pollMinInterval;
    @Nullable private Duration pollBackOff;
    @Nullable private Duration partitionDiscoveryInterval;
    private boolean skipUndecodableRecords;
    private boolean recreatedTopicReadFromStart;
    private boolean deletedTopicSkip;
    @Nullable private IggyRecordDeserializationSchema<T> deserializer;

    IggySourceBuilder() {}

    /** Address, credentials or token, TLS and timeouts of the Iggy server. */
    public IggySourceBuilder<T> setConnection(IggyConnectionConfig connection) {
        this.connection = connection;
        return this;
    }

    public IggySourceBuilder<T> setStream(String name) {
        this.stream = IggyId.of(name);
        return this;
    }

    public IggySourceBuilder<T> setStream(IggyId stream) {
        this.stream = stream;
        return this;
    }

    /** Reads the topics in every stream whose whole name matches, instead of one stream. */
    public IggySourceBuilder<T> setStreamPattern(Pattern streamPattern) {
        this.streamPattern = streamPattern;
        return this;
    }

    /** Reads one topic. */
    public IggySourceBuilder<T> setTopic(String name) {
        return setTopics(name);
    }

    /** Reads one topic, by name or numeric id. */
    public IggySourceBuilder<T> setTopic(@Nullable IggyId topic) {
        this.topics = topic == null ? List.of() : List.of(topic);
        return this;
    }

    /** Reads these topics, one split per partition of each. */
    public IggySourceBuilder<T> setTopics(String... names) {
        this.topics = Arrays.stream(names).map(IggyId::of).toList();
        return this;
    }

    /** Reads every topic whose whole name matches the pattern. */
    public IggySourceBuilder<T> setTopicPattern(Pattern topicPattern) {
        this.topicPattern = topicPattern;
        return this;
    }

    /**
     * The Iggy consumer (not a consumer group) under which completed checkpoints store offsets and
     * the committed starting position reads them. Optional unless the start is committed.
     */
    public IggySourceBuilder<T> setConsumerName(String consumerName) {
        this.consumerName = consumerName;
        return this;
    }

    /**
     * Where partitions without restored state start; default {@link
     * IggyStartingOffsets#committed()} (fallback earliest), which needs a consumer name.
     */
    public IggySourceBuilder<T> setStartingOffsets(IggyStartingOffsets startingOffsets) {
        this.startingOffsets = startingOffsets;
        return this;
    }

    /** Makes the source bounded: each partition stops here (resolved at job start). */
    public IggySourceBuilder<T> setBounded(IggyStoppingOffsets stoppingOffsets) {
        this.stoppingOffsets = stoppingOffsets;
        return this;
    }

    /** Fixes the messages per poll; by default a poll asks for about 1 MiB of messages. */
    public IggySourceBuilder<T> setPollBatchSize(int pollBatchSize) {
        this.pollBatchSize = pollBatchSize;
        return this;
    }

    /** The longest time between two checks for new data at a partition's end; default 150 ms. */
    public IggySourceBuilder<T> setPollInterval(Duration pollInterval) {
        this.pollInterval = pollInterval;
        return this;
    }

    /**
     * The shortest time between two checks for new data, right after data, growing to the poll
     * interval ({@link #setPollBackOff}); unset, it equals the poll interval.
     */
    public IggySourceBuilder<T> setPollMinInterval(@Nullable Duration pollMinInterval) {
        this.pollMinInterval = pollMinInterval;
        return this;
    }

    /**
     * How long after the last data the time between two checks grows from the {@link
     * #setPollMinInterval minimum} to the poll interval; default 250 poll intervals.
     */
    public IggySourceBuilder<T> setPollBackOff(@Nullable Duration pollBackOff) {
        this.pollBackOff = pollBackOff;
        return this;
    }

    /**
     * Looks for new partitions (and, with a pattern, topics and streams) this often, to read them
     * from their first offset; unbounded sources only, off by default.
     */
    public IggySourceBuilder<T> setPartitionDiscoveryInterval(@Nullable Duration interval) {
        this.partitionDiscoveryInterval = interval;
        return this;
    }

    /** Skips (and counts) messages the deserializer fails on instead of failing; off by default. */
    public IggySourceBuilder<T> setSkipUndecodableRecords(boolean skip) {
        this.skipUndecodableRecords = skip;
        return this;
    }

    /**
     * With {@code true}, a topic deleted while it is read is waited for and, created again, read
     * from offset 0; by default the source fails.
     */
    public IggySourceBuilder<T> setRecreatedTopicReadFromStart(boolean readFromStart) {
        this.recreatedTopicReadFromStart = readFromStart;
        return this;
    }

    /**
     * With {@code true}, a topic deleted while it is read is no longer read and the others are; by
     * default the source fails.
     */
    public IggySourceBuilder<T> setDeletedTopicSkip(boolean skip) {
        this.deletedTopicSkip = skip;
        return this;
    }

    /**
     * How messages become records: stream mode, or keyed-map mode with {@link
     * IggyKeyedMapDeserializationSchema}.
     */
    public IggySourceBuilder<T> setDeserializer(IggyRecordDeserializationSchema<T> deserializer) {
        this.deserializer = deserializer;
        return this;
    }

    /** Shortcut for {@code setDeserializer(IggyRecordDeserializationSchema.valueOnly(format))}. */
    public IggySourceBuilder<T> setValueOnlyDeserializer(DeserializationSchema<T> format) {
        this.deserializer = IggyRecordDeserializationSchema.valueOnly(format);
        return this;
    }

    /** Throws an {@link IllegalArgumentException} naming every missing or invalid property. */
    public IggySource<T> build() {
        IggySourceConfig config = validatedConfig();
        if (!config.storesOffsets()) {
            LOG.info(
                    "IggySource for {} has no consumer name: offsets are not stored in Iggy"
                            + " (Flink's checkpoints still track progress). Set one with setConsumerName to store them.",
                    config.subscription().describe());
        }
        return new IggySource<>(config, deserializer);
    }

    private IggySourceConfig validatedConfig() {
        List<String> problems = new ArrayList<>();
        if (connection == null) {
            problems.add("the connection is not set (setConnection)");
        }
        TopicSubscription subscription = subscription(problems);
        if (consumerName != null && consumerName.isBlank()) {
            problems.add("the consumer name is blank (setConsumerName; or leave it unset)");
        } else if (consumerName != null && consumerName.length() > 255) {
            problems.add("the consumer name is longer than 255 characters");
        }
        if (deserializer == null) {
            problems.add("the deserializer is not set (setDeserializer)");
        }
        if (startingOffsets == null) {
            problems.add("the starting offsets are null (setStartingOffsets)");
        } else if (startingOffsets.spec.kind() == OffsetSpecs.StartKind.COMMITTED
                && consumerName == null) {
            problems.add(
                    "the committed starting position (the default) reads the offsets stored under a"
                            + " consumer name, but none is set: set one (setConsumerName) or choose"
                            + " another starting position (setStartingOffsets)");
        }
        if (pollBatchSize != null && pollBatchSize < 1) {
            problems.add("the poll batch size must be at least 1, but is " + pollBatchSize);
        }
        if (pollInterval == null || !positive(pollInterval)) {
            problems.add("the poll interval must be positive, but is " + pollInterval);
        } else if (pollMinInterval != null
                && (!positive(pollMinInterval) || pollMinInterval.compareTo(pollInterval) > 0)) {
            problems.add(
                    "the poll min interval must be positive and at most the poll interval ("
                            + pollInterval
                            + "), but is "
                            + pollMinInterval
                            + " (setPollMinInterval; or leave it unset)");
        }
        if (pollBackOff != null) {
            if (!positive(pollBackOff)) {
                problems.add(
                        "the poll back-off must be positive, but is "
                                + pollBackOff
                                + " (setPollBackOff; or leave it unset)");
            }
            if (pollMinInterval == null
                    || pollInterval == null
                    || pollMinInterval.compareTo(pollInterval) >= 0) {
                problems.add(
                        "the poll back-off applies only with a poll min interval shorter than"
                                + " the poll interval: set one (setPollMinInterval) or leave the"
                                + " back-off unset (setPollBackOff)");
            }
        }
        if (partitionDiscoveryInterval != null && !positive(partitionDiscoveryInterval)) {
            problems.add(
                    "the partition discovery interval must be positive (or unset to disable), but is "
                            + partitionDiscoveryInterval);
        }
        if (partitionDiscoveryInterval != null && stoppingOffsets != null) {
            problems.add(
                    "partition discovery applies to unbounded sources only: unset the discovery interval or the stopping offsets");
        }
        if (streamPattern != null || topicPattern != null || topics.size() != 1) {
            byPartitionIdAlone(
                    IggyStartingOffsets.class,
                    startingOffsets == null ? null : startingOffsets.spec,
                    problems);
            byPartitionIdAlone(
                    IggyStoppingOffsets.class,
                    stoppingOffsets == null ? null : stoppingOffsets.spec,
                    problems);
        }
        if (deletedTopicSkip && recreatedTopicReadFromStart) {
            problems.add(
                    "a deleted topic is either skipped (setDeletedTopicSkip) or waited for and read"
                            + " from its start when re-created (setRecreatedTopicReadFromStart):"
                            + " choose one");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(
                    "Invalid IggySource: " + String.join("; ", problems) + ".");
        }
        return new IggySourceConfig(
                connection,
                subscription,
                consumerName,
                startingOffsets,
                stoppingOffsets,
                pollBatchSize == null ? 0 : pollBatchSize,
                pollMinInterval == null ? pollInterval : pollMinInterval,
                pollInterval,
                pollBackOff == null
                        ? pollInterval.multipliedBy(DEFAULT_POLL_BACK_OFF_INTERVALS)
                        : pollBackOff,
                partitionDiscoveryInterval,
                skipUndecodableRecords,
                recreatedTopicReadFromStart,
                deletedTopicSkip);
    }

    /** Specific offsets keyed by partition id alone apply to one topic only. */
    private static void byPartitionIdAlone(
            Class<?> type, @Nullable OffsetSpecs.Spec<?> spec, List<String> problems) {
        if (spec != null && !spec.offsets().byPartitionId().isEmpty()) {
            problems.add(
                    "specific offsets keyed by partition id alone apply to one topic: key them by"
                            + " IggyTopicPartition ("
                            + type.getSimpleName()
                            + "#specificByTopic)");
        }
    }

    private static boolean positive(Duration duration) {
        return !duration.isNegative() && !duration.isZero();
    }

    /** The topics to read, or null after adding what is wrong with them to {@code problems}. */
    @Nullable
    private TopicSubscription subscription(List<String> problems) {
        int before = problems.size();
        if (stream == null && streamPattern == null) {
            problems.add("the stream is not set (setStream, or setStreamPattern)");
        }
        if (stream != null && streamPattern != null) {
            problems.add("both a stream and a stream pattern are set: choose one");
        }
        if (topics.isEmpty() && topicPattern == null) {
            problems.add("the topic is not set (setTopic, setTopics or setTopicPattern)");
        }
        if (!topics.isEmpty() && topicPattern != null) {
            problems.add("both topics and a topic pattern are set: choose one");
        }
        if (new HashSet<>(topics).size() != topics.size()) {
            problems.add("the topics " + topics + " name a topic twice");
        }
        boolean searches = streamPattern != null || topicPattern != null;
        if (searches && stream != null && stream.isNumeric()) {
            problems.add(
                    "a topic pattern matches names: set the stream by name, not by numeric id "
                            + stream);
        }
        if (searches && topics.stream().anyMatch(IggyId::isNumeric)) {
            problems.add(
                    "a stream pattern matches names: set the topics by name, not by numeric id");
        }
        if (problems.size() > before) {
            return null;
        }
        if (!searches) {
            return new TopicSubscription.TopicList(stream, topics);
        }
        String streams =
                streamPattern != null ? streamPattern.pattern() : Pattern.quote(stream.name());
        String topicRegex =
                topicPattern != null
                        ? topicPattern.pattern()
                        : topics.stream()
                                .map(t -> Pattern.quote(t.name()))
                                .collect(Collectors.joining("|"));
        return new TopicSubscription.TopicSearch(streams, topicRegex);
    }
}

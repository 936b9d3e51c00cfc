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
package org.apache.flink.connector.iggy.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.sink.IggyKeyedMapSinkBuilder;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.IggySinkBuilderBase;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.SinkPartitioner;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.InstantiationUtil;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FIELDS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FORMAT;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_BATCH_SIZE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_DELIVERY_GUARANTEE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_EXACTLY_ONCE_FSYNC_BEFORE_DELETE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_EXACTLY_ONCE_WRITE_AHEAD_DIR;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_IDEMPOTENT_WRITES;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_LINGER;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_MAX_BATCH_BYTES;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_MAX_IN_FLIGHT_REQUESTS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_PARTITION;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_PARTITIONER;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_STATE_TTL;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_UID;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.STREAM;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.STREAM_PATTERN;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.TOPIC;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.TOPIC_PATTERN;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.atLeastOne;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.checkName;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.checkTopics;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.failOnProblems;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.notBlankUid;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.positive;

/**
 * Reads and checks the options of a sink table (defined in {@link IggyConnectorOptions}): {@link
 * #configure} reads them into a sink builder; {@link #validateSinkTopics} and {@link
 * #validateSinkOptions} check them when the table is created, each naming every problem at once.
 */
@Internal
final class IggySinkOptions {

    private IggySinkOptions() {}

    /**
     * Applies the table's validated stream, topic (unless each row names its own) and the sink
     * options both SQL sinks share to {@code builder}.
     */
    static void configure(IggySinkBuilderBase<?> builder, ReadableConfig options, boolean routed) {
        if (!routed) {
            builder.setTopic(options.get(TOPIC));
        }
        builder.setStream(options.get(STREAM))
                .setDeliveryGuarantee(options.get(SINK_DELIVERY_GUARANTEE))
                .setExactlyOnceWriteAheadDir(options.get(SINK_EXACTLY_ONCE_WRITE_AHEAD_DIR))
                .setExactlyOnceFsyncBeforeDelete(options.get(SINK_EXACTLY_ONCE_FSYNC_BEFORE_DELETE))
                .setBatchSize(
                        options.getOptional(SINK_BATCH_SIZE)
                                .orElse(IggyWriterConfig.DEFAULT_BATCH_SIZE))
                .setMaxBatchBytes(options.get(SINK_MAX_BATCH_BYTES))
                .setLinger(options.get(SINK_LINGER))
                .setMaxInFlightRequests(options.get(SINK_MAX_IN_FLIGHT_REQUESTS));
    }

    /** Also applies the options only {@code upsert-iggy} reads. */
    static void configure(
            IggyKeyedMapSinkBuilder<?, ?> builder, ReadableConfig options, boolean routed) {
        configure((IggySinkBuilderBase<?>) builder, options, routed);
        builder.setIdempotentWrites(options.get(SINK_IDEMPOTENT_WRITES));
        options.getOptional(SINK_STATE_TTL).ifPresent(builder::setStateTtl);
        if (SinkPartitioner.KEY.equals(options.get(SINK_PARTITIONER))) {
            builder.setPartitionByKey();
        } else {
            builder.setPartition(options.get(SINK_PARTITION));
        }
    }

    /**
     * Checks which topics a sink table writes, every problem at once: one stream ('stream'), and
     * either the one topic in 'topic' or the topic each row names in a writable 'topic' metadata
     * column, allowed by 'topic' = 'a;b', 'topic-pattern' or, without either, any topic.
     */
    static void validateSinkTopics(ReadableConfig options, boolean writesTopicColumn) {
        List<String> problems = new ArrayList<>();
        if (options.getOptional(STREAM_PATTERN).isPresent()) {
            problems.add(
                    "'stream-pattern' applies to source tables only: a sink writes one stream;"
                            + " set 'stream'");
        } else if (options.getOptional(STREAM).isEmpty()) {
            problems.add("'stream' is required");
        } else {
            checkName(STREAM.key(), options.get(STREAM), problems);
        }
        Optional<String> topic = options.getOptional(TOPIC);
        Optional<String> pattern = options.getOptional(TOPIC_PATTERN);
        List<String> topics = checkTopics(options, problems);
        boolean oneTopic = topics.size() == 1 && pattern.isEmpty();
        if (oneTopic && writesTopicColumn) {
            problems.add(
                    "'topic' = '"
                            + topic.get()
                            + "' names one topic, which every row is written to, so the writable"
                            + " 'topic' metadata column would be ignored: declare it VIRTUAL (read"
                            + " only), or list the topics rows may name ('topic' = 'a;b') or"
                            + " leave 'topic' out");
        } else if (!oneTopic && !writesTopicColumn) {
            problems.add(
                    (pattern.isPresent()
                                    ? "'topic-pattern' on a sink table only allows the topics rows"
                                            + " name"
                                    : topics.size() > 1
                                            ? "'topic' = '"
                                                    + topic.get()
                                                    + "' lists several topics, which on a sink"
                                                    + " table only allows the topics rows name"
                                            : "'topic' is required")
                            + ": a sink table writes one topic ('topic'), or the topic each row"
                            + " names in a writable 'topic' metadata column (`topic` STRING"
                            + " METADATA), which the table does not have");
        }
        failOnProblems("Invalid Iggy sink table: ", problems);
    }

    /**
     * Validates the sink options, naming every problem at once; returns the custom partitioner
     * {@code sink.partitioner} names, or {@code null} for a built-in one.
     */
    @Nullable
    static IggyPartitioner<RowData> validateSinkOptions(
            ReadableConfig options, boolean upsert, boolean hasKey, ClassLoader classLoader) {
        List<String> problems = new ArrayList<>();
        if (options.get(SINK_DELIVERY_GUARANTEE) == DeliveryGuarantee.EXACTLY_ONCE
                && options.get(SINK_IDEMPOTENT_WRITES)) {
            problems.add(
                    "Option '"
                            + SINK_DELIVERY_GUARANTEE.key()
                            + "' = 'exactly-once' chooses every message id itself and needs no"
                            + " deduplication: drop '"
                            + SINK_IDEMPOTENT_WRITES.key()
                            + "' or use 'at-least-once'");
        }
        notBlankUid(options, SINK_UID, problems);
        String partitioner = options.get(SINK_PARTITIONER);
        boolean builtIn =
                partitioner.equals(SinkPartitioner.FIXED)
                        || partitioner.equals(SinkPartitioner.KEY)
                        || (!upsert && partitioner.equals(SinkPartitioner.ROUND_ROBIN));
        IggyPartitioner<RowData> custom = null;
        if (upsert && !builtIn) {
            problems.add(
                    "Invalid option '"
                            + SINK_PARTITIONER.key()
                            + "' = '"
                            + partitioner
                            + "' for upsert-iggy. Allowed values: 'fixed', 'key'");
        } else if (!builtIn) {
            custom = partitioner(partitioner, classLoader, problems);
        }
        if (partitioner.equals(SinkPartitioner.KEY) && !hasKey) {
            problems.add(
                    "Option '"
                            + SINK_PARTITIONER.key()
                            + "' = 'key' needs key bytes: set '"
                            + KEY_FIELDS.key()
                            + "' and '"
                            + KEY_FORMAT.key()
                            + "'");
        }
        long partition = options.get(SINK_PARTITION);
        if (partition < 0 || partition > 0xFFFF_FFFFL) {
            problems.add(
                    "Option '"
                            + SINK_PARTITION.key()
                            + "' is a partition id (0 to 4294967295), but is "
                            + partition);
        }
        if (options.getOptional(SINK_PARTITION).isPresent()
                && !partitioner.equals(SinkPartitioner.FIXED)) {
            problems.add(
                    "Option '"
                            + SINK_PARTITION.key()
                            + "' applies to '"
                            + SINK_PARTITIONER.key()
                            + "' = 'fixed' only, but the partitioner is '"
                            + partitioner
                            + "'");
        }
        for (ConfigOption<? extends Number> option :
                List.of(SINK_BATCH_SIZE, SINK_MAX_BATCH_BYTES, SINK_MAX_IN_FLIGHT_REQUESTS)) {
            atLeastOne(options, option, problems);
        }
        positive(SINK_STATE_TTL, options.getOptional(SINK_STATE_TTL), problems);
        if (options.get(SINK_LINGER).isNegative()) {
            problems.add("Option '" + SINK_LINGER.key() + "' must not be negative");
        }
        failOnProblems("", problems);
        return custom;
    }

    /**
     * An instance of the class {@code sink.partitioner} names, or {@code null} after adding to
     * {@code problems} why it cannot be used.
     */
    @Nullable
    @SuppressWarnings("unchecked")
    private static IggyPartitioner<RowData> partitioner(
            String className, ClassLoader classLoader, List<String> problems) {
        String invalid = "Invalid option '" + SINK_PARTITIONER.key() + "'";
        Class<?> clazz;
        try {
            clazz = Class.forName(className, false, classLoader);
        } catch (ClassNotFoundException | LinkageError e) {
            problems.add(
                    invalid
                            + " = '"
                            + className
                            + "'. Allowed values: 'fixed', 'round-robin', 'key', or the class name"
                            + " of an IggyPartitioner<RowData> with a public no-argument"
                            + " constructor (class not found)");
            return null;
        }
        if (!IggyPartitioner.class.isAssignableFrom(clazz)) {
            problems.add(
                    invalid
                            + ": class '"
                            + className
                            + "' does not implement "
                            + IggyPartitioner.class.getName());
        } else if (!InstantiationUtil.hasPublicNullaryConstructor(clazz)) {
            problems.add(
                    invalid + ": class '" + className + "' has no public no-argument constructor");
        } else {
            return InstantiationUtil.instantiate((Class<IggyPartitioner<RowData>>) clazz);
        }
        return null;
    }
}

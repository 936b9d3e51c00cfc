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
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.IggySinkBuilderBase;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.DeleteEncoding;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.SinkPartitioner;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.InstantiationUtil;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FIELDS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FORMAT;

/**
 * The {@code sink.*} and {@code delete.*} options of a table, defined here and published by {@link
 * IggyConnectorOptions}: {@link #configure} is the one place that reads them into a sink builder,
 * for {@code iggy} and {@code upsert-iggy} alike; {@link #validateSinkOptions} checks them when the
 * table is created and names every problem at once, each with its option and allowed values.
 */
@Internal
final class IggySinkOptions {

    static final ConfigOption<String> SINK_PARTITIONER =
            ConfigOptions.key("sink.partitioner")
                    .stringType()
                    .defaultValue(SinkPartitioner.FIXED)
                    .withDescription(
                            "'fixed' (every row to 'sink.partition'), 'round-robin', 'key' (XXH32"
                                    + " of the key bytes, as Iggy's messages-key partitioning), or"
                                    + " the class name of an IggyPartitioner<RowData> (append"
                                    + " 'iggy' only).");

    static final ConfigOption<Long> SINK_PARTITION =
            ConfigOptions.key("sink.partition")
                    .longType()
                    .defaultValue(0L)
                    .withDescription("The partition of the 'fixed' partitioner.");

    static final ConfigOption<DeliveryGuarantee> SINK_DELIVERY_GUARANTEE =
            ConfigOptions.key("sink.delivery-guarantee")
                    .enumType(DeliveryGuarantee.class)
                    .defaultValue(DeliveryGuarantee.AT_LEAST_ONCE)
                    .withDescription(
                            "'at-least-once' (every checkpoint waits for the server's"
                                    + " acknowledgements), 'exactly-once' (each checkpoint's rows"
                                    + " are held in write-ahead files and sent when the checkpoint"
                                    + " completes) or 'none'.");

    static final ConfigOption<String> SINK_EXACTLY_ONCE_WRITE_AHEAD_DIR =
            ConfigOptions.key("sink.exactly-once.write-ahead-dir")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "With 'exactly-once': the durable directory (a URI of any Flink file"
                                    + " system, or an absolute path) of the files that hold each"
                                    + " checkpoint's messages until they are committed. Default:"
                                    + " 'iggy-sink-write-ahead' in the checkpoint directory;"
                                    + " without either, in each TaskManager's temporary"
                                    + " directory, whose files do not survive the loss of its"
                                    + " machine.");

    static final ConfigOption<Boolean> SINK_EXACTLY_ONCE_FSYNC_BEFORE_DELETE =
            ConfigOptions.key("sink.exactly-once.fsync-before-delete")
                    .booleanType()
                    .defaultValue(IggyWriterConfig.DEFAULT_FSYNC_BEFORE_DELETE)
                    .withDescription(
                            "With 'exactly-once': before deleting the write-ahead files of"
                                    + " committed rows, ask the server to write each of their"
                                    + " partitions to disk and fsync it (Iggy's"
                                    + " FlushUnsavedBuffer). Iggy acknowledges rows that may"
                                    + " still be in its memory only, so without it a crash of"
                                    + " the server process can lose committed rows. Costs one"
                                    + " request per partition and commit: the server's fsync.");

    static final ConfigOption<Integer> SINK_BATCH_SIZE =
            ConfigOptions.key("sink.batch-size")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Most messages per send request and partition. When unset, only"
                                    + " 'sink.max-batch-bytes' decides where a request ends.");

    static final ConfigOption<Long> SINK_MAX_BATCH_BYTES =
            ConfigOptions.key("sink.max-batch-bytes")
                    .longType()
                    .defaultValue(IggyWriterConfig.DEFAULT_MAX_BATCH_BYTES)
                    .withDescription(
                            "Most bytes (64-byte message headers, payloads and user headers)"
                                    + " per send request and partition: the bound that sizes"
                                    + " batches.");

    static final ConfigOption<Integer> SINK_MAX_IN_FLIGHT_REQUESTS =
            ConfigOptions.key("sink.max-in-flight-requests")
                    .intType()
                    .defaultValue(IggyWriterConfig.DEFAULT_MAX_IN_FLIGHT_REQUESTS)
                    .withDescription(
                            "Most batches per sink subtask sent and unanswered or waiting to be"
                                    + " sent; the subtask waits for an acknowledgement beyond.");

    static final ConfigOption<Duration> SINK_LINGER =
            ConfigOptions.key("sink.linger")
                    .durationType()
                    .defaultValue(IggyWriterConfig.DEFAULT_LINGER)
                    .withDescription("How long a row may wait in a partially filled batch.");

    static final ConfigOption<String> SINK_UID =
            ConfigOptions.key("sink.uid")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Operator uid of the sink's writer, under which savepoints keep its"
                                    + " state; the committer gets 'Sink Committer: <uid>' and the"
                                    + " upsert-iggy reconcile step '<uid>: Iggy Reconcile'."
                                    + " Defaults to 'iggy-sink: ' and the table's identifier, which"
                                    + " stays the same when the query changes.");

    static final ConfigOption<Duration> SINK_STATE_TTL =
            ConfigOptions.key("sink.state-ttl")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "upsert-iggy: forget the fingerprint of a key not written for this"
                                    + " long (bounds state); its next value is then sent even if"
                                    + " unchanged. Default: keep forever.");

    static final ConfigOption<Boolean> SINK_IDEMPOTENT_WRITES =
            ConfigOptions.key("sink.idempotent-writes")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "upsert-iggy: deterministic message ids (BLAKE2b-128 of stream/topic,"
                                    + " key and the key's message count), so that with the"
                                    + " server's message deduplication on, messages replayed"
                                    + " after a failover are dropped.");

    static final ConfigOption<DeleteEncoding> DELETE_ENCODING =
            ConfigOptions.key("delete.encoding")
                    .enumType(DeleteEncoding.class)
                    .defaultValue(DeleteEncoding.HEADER)
                    .withDescription(
                            "upsert-iggy: how a deleted key travels (Iggy has no tombstones).");

    static final ConfigOption<String> DELETE_PAYLOAD =
            ConfigOptions.key("delete.payload")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "upsert-iggy with 'delete.encoding' = 'custom-payload': the payload"
                                    + " (UTF-8) of a deletion message.");

    private IggySinkOptions() {}

    /**
     * Applies the table's stream, topic (unless each row names its own) and the sink options both
     * SQL sinks share to {@code builder}. The options are validated; the connection comes from the
     * factory.
     */
    static void configure(IggySinkBuilderBase<?> builder, ReadableConfig options, boolean routed) {
        if (!routed) {
            builder.setTopic(options.get(IggyConnectorOptions.TOPIC));
        }
        builder.setStream(options.get(IggyConnectorOptions.STREAM))
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

    /**
     * Validates the sink options, naming every problem at once.
     *
     * @return the custom partitioner named by {@code sink.partitioner}, or {@code null} for a
     *     built-in one
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
        IggyConnectorOptionsUtil.notBlankUid(options, SINK_UID, problems);
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
            Class<? extends IggyPartitioner<RowData>> clazz =
                    partitionerClass(partitioner, classLoader, problems);
            custom = clazz == null ? null : InstantiationUtil.instantiate(clazz);
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
            IggyConnectorOptionsUtil.atLeastOne(options, option, problems);
        }
        IggyConnectorOptionsUtil.positive(
                SINK_STATE_TTL, options.getOptional(SINK_STATE_TTL), problems);
        if (options.get(SINK_LINGER).isNegative()) {
            problems.add("Option '" + SINK_LINGER.key() + "' must not be negative");
        }
        IggyConnectorOptionsUtil.failOnProblems("", problems);
        return custom;
    }

    /**
     * The class {@code sink.partitioner} names, or {@code null} after adding to {@code problems}
     * why it cannot be used.
     */
    @Nullable
    @SuppressWarnings("unchecked")
    private static Class<? extends IggyPartitioner<RowData>> partitionerClass(
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
            return null;
        }
        try {
            clazz.getConstructor();
        } catch (NoSuchMethodException e) {
            problems.add(
                    invalid + ": class '" + className + "' has no public no-argument constructor");
            return null;
        }
        return (Class<? extends IggyPartitioner<RowData>>) clazz;
    }
}

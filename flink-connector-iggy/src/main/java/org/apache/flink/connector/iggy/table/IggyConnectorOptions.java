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

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.DescribedEnum;
import org.apache.flink.configuration.description.InlineElement;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets.CommittedFallback;
import org.apache.flink.table.factories.FactoryUtil;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import static org.apache.flink.configuration.description.TextElement.text;

/**
 * Options of the {@code iggy} and {@code upsert-iggy} table connectors, named as those of {@code
 * kafka} and {@code upsert-kafka} where the concept is the same. Flink masks the secret options in
 * logs, but {@code SHOW CREATE TABLE} prints them: credentials can come from the Flink
 * configuration or the environment instead (see {@link IggyConnectionConfig.Builder#build()}).
 */
@PublicEvolving
public final class IggyConnectorOptions {

    /** The user header that carries the key bytes by default: Iggy messages have no key field. */
    public static final String DEFAULT_KEY_HEADER = "flink.key";

    // ----- connection -------------------------------------------------------------------------

    public static final ConfigOption<String> ADDRESS =
            ConfigOptions.key("address")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "TCP address of the Iggy server, host:port ([::1]:8090 for IPv6)."
                                    + " Required.");

    public static final ConfigOption<String> USERNAME =
            ConfigOptions.key("username")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "User to log in as; with neither this nor 'personal-access-token'"
                                    + " set, the credentials come from the Flink configuration or"
                                    + " the environment.");

    public static final ConfigOption<String> PASSWORD =
            ConfigOptions.key("password")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Password of the user. SHOW CREATE TABLE prints it in clear: prefer"
                                    + " the Flink configuration or the environment.");

    public static final ConfigOption<String> PERSONAL_ACCESS_TOKEN =
            ConfigOptions.key("personal-access-token")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Log in with this token instead of a user. SHOW CREATE TABLE prints"
                                    + " it in clear: prefer the Flink configuration or the"
                                    + " environment.");

    public static final ConfigOption<Boolean> TLS_ENABLED =
            ConfigOptions.key("tls.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription("Connect over TLS.");

    public static final ConfigOption<String> TLS_CERTIFICATE =
            ConfigOptions.key("tls.certificate")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Path of a PEM CA certificate to trust; setting it enables TLS.");

    public static final ConfigOption<Duration> CONNECT_TIMEOUT =
            ConfigOptions.key("connect.timeout")
                    .durationType()
                    .defaultValue(IggyConnectionConfig.DEFAULT_CONNECT_TIMEOUT)
                    .withDescription("Deadline for connecting and logging in.");

    public static final ConfigOption<Duration> REQUEST_TIMEOUT =
            ConfigOptions.key("request.timeout")
                    .durationType()
                    .defaultValue(IggyConnectionConfig.DEFAULT_REQUEST_TIMEOUT)
                    .withDescription("Deadline for every single request to the server.");

    // ----- target -----------------------------------------------------------------------------

    public static final ConfigOption<String> STREAM =
            ConfigOptions.key("stream")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The Iggy stream; it must exist. Required unless a source table sets"
                                    + " 'stream-pattern'.");

    public static final ConfigOption<String> STREAM_PATTERN =
            ConfigOptions.key("stream-pattern")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Source only, instead of 'stream': a regular expression for the"
                                    + " whole stream names to read.");

    public static final ConfigOption<String> TOPIC =
            ConfigOptions.key("topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The Iggy topic; a source may list several, separated by ';', which"
                                    + " on a sink only allow the topics rows name in a writable"
                                    + " 'topic' column.");

    public static final ConfigOption<String> TOPIC_PATTERN =
            ConfigOptions.key("topic-pattern")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Instead of 'topic': a regular expression for the whole topic names"
                                    + " a source reads or a sink's rows may name.");

    // ----- formats and keys -------------------------------------------------------------------

    public static final ConfigOption<String> KEY_FORMAT =
            ConfigOptions.key("key" + FactoryUtil.FORMAT_SUFFIX)
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Format of the key bytes (carried in the key header).");

    public static final ConfigOption<List<String>> KEY_FIELDS =
            ConfigOptions.key("key.fields")
                    .stringType()
                    .asList()
                    .defaultValues()
                    .withDescription(
                            "Physical columns of the key, separated by ';'. Not for upsert-iggy"
                                    + " (its key is the PRIMARY KEY).");

    public static final ConfigOption<String> KEY_FIELDS_PREFIX =
            ConfigOptions.key("key.fields-prefix")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Prefix of the key columns, stripped in the key format; needs"
                                    + " value.fields-include = 'EXCEPT_KEY'.");

    public static final ConfigOption<String> KEY_HEADER =
            ConfigOptions.key("key.header")
                    .stringType()
                    .defaultValue(DEFAULT_KEY_HEADER)
                    .withDescription("User header that carries the key bytes.");

    public static final ConfigOption<String> VALUE_FORMAT =
            ConfigOptions.key("value" + FactoryUtil.FORMAT_SUFFIX)
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Format of the payload; 'format' is an alias.");

    public static final ConfigOption<ValueFieldsStrategy> VALUE_FIELDS_INCLUDE =
            ConfigOptions.key("value.fields-include")
                    .enumType(ValueFieldsStrategy.class)
                    .defaultValue(ValueFieldsStrategy.ALL)
                    .withDescription("Which physical columns the payload contains.");

    // ----- scan -------------------------------------------------------------------------------

    public static final ConfigOption<String> SCAN_CONSUMER_NAME =
            ConfigOptions.key("scan.consumer-name")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Name under which offsets are stored on completed checkpoints."
                                    + " Default: 'flink-' and the table's full name.");

    public static final ConfigOption<ScanStartupMode> SCAN_STARTUP_MODE =
            ConfigOptions.key("scan.startup.mode")
                    .enumType(ScanStartupMode.class)
                    .defaultValue(ScanStartupMode.COMMITTED_OFFSET)
                    .withDescription("Where partitions start when there is no state to restore.");

    public static final ConfigOption<CommittedFallback> SCAN_STARTUP_COMMITTED_FALLBACK =
            ConfigOptions.key("scan.startup.committed-offset.fallback")
                    .enumType(CommittedFallback.class)
                    .defaultValue(CommittedFallback.EARLIEST)
                    .withDescription(
                            "Where a partition starts under 'committed-offset' when the consumer"
                                    + " has no offset stored: 'earliest-offset', 'latest-offset' or"
                                    + " 'fail'.");

    public static final ConfigOption<Long> SCAN_STARTUP_TIMESTAMP_MILLIS =
            ConfigOptions.key("scan.startup.timestamp-millis")
                    .longType()
                    .noDefaultValue()
                    .withDescription(
                            "For 'timestamp': start at the first message with a server timestamp"
                                    + " at or after these epoch milliseconds.");

    public static final ConfigOption<String> SCAN_STARTUP_SPECIFIC_OFFSETS =
            ConfigOptions.key("scan.startup.specific-offsets")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "For 'specific-offsets':"
                                    + " 'partition:0,offset:42;partition:1,offset:300'; other"
                                    + " partitions start at their earliest.");

    public static final ConfigOption<ScanBoundedMode> SCAN_BOUNDED_MODE =
            ConfigOptions.key("scan.bounded.mode")
                    .enumType(ScanBoundedMode.class)
                    .defaultValue(ScanBoundedMode.UNBOUNDED)
                    .withDescription("Where partitions stop; 'unbounded' never stops.");

    public static final ConfigOption<Long> SCAN_BOUNDED_TIMESTAMP_MILLIS =
            ConfigOptions.key("scan.bounded.timestamp-millis")
                    .longType()
                    .noDefaultValue()
                    .withDescription(
                            "For 'timestamp': stop before the first message with a server"
                                    + " timestamp at or after these epoch milliseconds.");

    public static final ConfigOption<String> SCAN_BOUNDED_SPECIFIC_OFFSETS =
            ConfigOptions.key("scan.bounded.specific-offsets")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "For 'specific-offsets': exclusive end offsets,"
                                    + " 'partition:0,offset:42'; other partitions stop at their end"
                                    + " at job start.");

    public static final ConfigOption<Duration> SCAN_PARTITION_DISCOVERY_INTERVAL =
            ConfigOptions.key("scan.partition-discovery.interval")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "How often an unbounded scan looks for new partitions. Off when"
                                    + " unset.");

    public static final ConfigOption<Integer> SCAN_POLL_BATCH_SIZE =
            ConfigOptions.key("scan.poll.batch-size")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Messages per poll request. Unset: as many as fit in about 1 MiB by"
                                    + " the topic's average message size.");

    public static final ConfigOption<Duration> SCAN_POLL_INTERVAL =
            ConfigOptions.key("scan.poll.interval")
                    .durationType()
                    .defaultValue(IggySourceBuilder.DEFAULT_POLL_INTERVAL)
                    .withDescription(
                            "The longest time between two checks for new data in partitions at"
                                    + " their end.");

    public static final ConfigOption<Duration> SCAN_POLL_MIN_INTERVAL =
            ConfigOptions.key("scan.poll.min-interval")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "The shortest time between two checks for new data, right after data"
                                    + " arrived; grows to 'scan.poll.interval'. Unset:"
                                    + " 'scan.poll.interval'.");

    public static final ConfigOption<Duration> SCAN_POLL_BACK_OFF =
            ConfigOptions.key("scan.poll.back-off")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "The quiet time over which the time between checks grows from"
                                    + " 'scan.poll.min-interval' to 'scan.poll.interval'. Unset:"
                                    + " 250 poll intervals.");

    public static final ConfigOption<Boolean> SCAN_SKIP_UNDECODABLE_RECORDS =
            ConfigOptions.key("scan.skip-undecodable-records")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Skip (count and log) messages the formats cannot decode instead of"
                                    + " failing.");

    public static final ConfigOption<Boolean> SCAN_RECREATED_TOPIC_READ_FROM_START =
            ConfigOptions.key("scan.recreated-topic.read-from-start")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Read a topic deleted and created again from offset 0 instead of"
                                    + " failing.");

    public static final ConfigOption<Boolean> SCAN_DELETED_TOPIC_SKIP =
            ConfigOptions.key("scan.deleted-topic.skip")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Stop reading a deleted topic or stream and read on the others"
                                    + " instead of failing.");

    public static final ConfigOption<Integer> SCAN_PARALLELISM = FactoryUtil.SOURCE_PARALLELISM;

    public static final ConfigOption<String> SCAN_UID =
            ConfigOptions.key("scan.uid")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Operator uid of the source in savepoints. Default: 'iggy-source: '"
                                    + " and the table's identifier.");

    // ----- sink -------------------------------------------------------------------------------

    public static final ConfigOption<String> SINK_PARTITIONER =
            ConfigOptions.key("sink.partitioner")
                    .stringType()
                    .defaultValue(SinkPartitioner.FIXED)
                    .withDescription(
                            "'fixed' ('sink.partition'), 'round-robin', 'key' (as Iggy's"
                                    + " messages-key partitioning), or the class name of an"
                                    + " IggyPartitioner<RowData> (iggy only).");

    public static final ConfigOption<Long> SINK_PARTITION =
            ConfigOptions.key("sink.partition")
                    .longType()
                    .defaultValue(0L)
                    .withDescription("The partition of the 'fixed' partitioner.");

    public static final ConfigOption<DeliveryGuarantee> SINK_DELIVERY_GUARANTEE =
            ConfigOptions.key("sink.delivery-guarantee")
                    .enumType(DeliveryGuarantee.class)
                    .defaultValue(DeliveryGuarantee.AT_LEAST_ONCE)
                    .withDescription(
                            "'at-least-once', 'exactly-once' (rows held in write-ahead files"
                                    + " until the checkpoint completes) or 'none'.");

    public static final ConfigOption<String> SINK_EXACTLY_ONCE_WRITE_AHEAD_DIR =
            ConfigOptions.key("sink.exactly-once.write-ahead-dir")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "With 'exactly-once': the directory every TaskManager reaches for"
                                    + " the write-ahead files. Default: 'iggy-sink-write-ahead' in"
                                    + " the checkpoint directory.");

    public static final ConfigOption<Boolean> SINK_EXACTLY_ONCE_FSYNC_BEFORE_DELETE =
            ConfigOptions.key("sink.exactly-once.fsync-before-delete")
                    .booleanType()
                    .defaultValue(IggyWriterConfig.DEFAULT_FSYNC_BEFORE_DELETE)
                    .withDescription(
                            "With 'exactly-once': have the server fsync the committed rows'"
                                    + " partitions before the write-ahead files are deleted.");

    public static final ConfigOption<Integer> SINK_BATCH_SIZE =
            ConfigOptions.key("sink.batch-size")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Most messages per send request and partition. Unset: only"
                                    + " 'sink.max-batch-bytes' bounds a request.");

    public static final ConfigOption<Long> SINK_MAX_BATCH_BYTES =
            ConfigOptions.key("sink.max-batch-bytes")
                    .longType()
                    .defaultValue(IggyWriterConfig.DEFAULT_MAX_BATCH_BYTES)
                    .withDescription(
                            "Most bytes (64-byte message headers, payloads, user headers) per"
                                    + " send request and partition.");

    public static final ConfigOption<Integer> SINK_MAX_IN_FLIGHT_REQUESTS =
            ConfigOptions.key("sink.max-in-flight-requests")
                    .intType()
                    .defaultValue(IggyWriterConfig.DEFAULT_MAX_IN_FLIGHT_REQUESTS)
                    .withDescription(
                            "Most batches per sink subtask sent and unanswered or waiting to be"
                                    + " sent.");

    public static final ConfigOption<Duration> SINK_LINGER =
            ConfigOptions.key("sink.linger")
                    .durationType()
                    .defaultValue(IggyWriterConfig.DEFAULT_LINGER)
                    .withDescription("How long a row may wait in a partially filled batch.");

    public static final ConfigOption<Integer> SINK_PARALLELISM = FactoryUtil.SINK_PARALLELISM;

    public static final ConfigOption<String> SINK_UID =
            ConfigOptions.key("sink.uid")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Operator uid of the sink's writer in savepoints. Default:"
                                    + " 'iggy-sink: ' and the table's identifier.");

    public static final ConfigOption<Duration> SINK_STATE_TTL =
            ConfigOptions.key("sink.state-ttl")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "upsert-iggy: forget the fingerprint of a key not written for this"
                                    + " long. Default: keep forever.");

    public static final ConfigOption<Boolean> SINK_IDEMPOTENT_WRITES =
            ConfigOptions.key("sink.idempotent-writes")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "upsert-iggy: deterministic message ids, so that the server's"
                                    + " deduplication drops messages replayed after a failover.");

    public static final ConfigOption<DeleteEncoding> DELETE_ENCODING =
            ConfigOptions.key("delete.encoding")
                    .enumType(DeleteEncoding.class)
                    .defaultValue(DeleteEncoding.HEADER)
                    .withDescription(
                            "upsert-iggy: how a deleted key travels (Iggy has no tombstones).");

    public static final ConfigOption<String> DELETE_PAYLOAD =
            ConfigOptions.key("delete.payload")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "upsert-iggy with 'delete.encoding' = 'custom-payload': the payload"
                                    + " (UTF-8) of a deletion.");

    private IggyConnectorOptions() {}

    /** Values of {@link #SINK_PARTITIONER} besides a class name. */
    public static final class SinkPartitioner {
        public static final String FIXED = "fixed";
        public static final String ROUND_ROBIN = "round-robin";
        public static final String KEY = "key";

        private SinkPartitioner() {}
    }

    /** Where a scan starts. */
    @PublicEvolving
    public enum ScanStartupMode implements DescribedEnum {
        EARLIEST_OFFSET("The first offset of every partition."),
        LATEST_OFFSET("The end of every partition at job start."),
        COMMITTED_OFFSET(
                "The offset stored under the consumer name, plus one; see the fallback option."),
        TIMESTAMP("The first message at or after 'scan.startup.timestamp-millis'."),
        SPECIFIC_OFFSETS("The offsets in 'scan.startup.specific-offsets' per partition.");

        private final InlineElement description;

        ScanStartupMode(String description) {
            this.description = text(description);
        }

        /** The value as SQL writes it: the name in lower case, with '-' for '_'. */
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        @Override
        public InlineElement getDescription() {
            return description;
        }
    }

    /** Where a scan stops. */
    @PublicEvolving
    public enum ScanBoundedMode implements DescribedEnum {
        UNBOUNDED("Never stop."),
        LATEST_OFFSET("The end of every partition at job start."),
        TIMESTAMP("Before the first message at or after the timestamp."),
        SPECIFIC_OFFSETS("The exclusive end offsets in 'scan.bounded.specific-offsets'.");

        private final InlineElement description;

        ScanBoundedMode(String description) {
            this.description = text(description);
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        @Override
        public InlineElement getDescription() {
            return description;
        }
    }

    /** Which physical columns the value format sees. */
    @PublicEvolving
    public enum ValueFieldsStrategy {
        /** Every physical column, key columns included. */
        ALL,
        /** Every physical column but the key columns. */
        EXCEPT_KEY
    }

    /** How upsert-iggy writes and recognizes the deletion of a key. */
    @PublicEvolving
    public enum DeleteEncoding implements DescribedEnum {
        HEADER("The user header 'flink.op' = 'd' and an empty payload (lossless)."),
        EMPTY_PAYLOAD("An empty payload: every message with one reads as a deletion."),
        CUSTOM_PAYLOAD("The payload 'delete.payload'."),
        NONE("None: a DELETE fails at planning, every message reads as an upsert.");

        private final InlineElement description;

        DeleteEncoding(String description) {
            this.description = text(description);
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        @Override
        public InlineElement getDescription() {
            return description;
        }
    }
}

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
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.ScanBoundedMode;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.ScanStartupMode;
import org.apache.flink.table.api.ValidationException;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_BOUNDED_MODE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_BOUNDED_SPECIFIC_OFFSETS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_BOUNDED_TIMESTAMP_MILLIS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_CONSUMER_NAME;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_DELETED_TOPIC_SKIP;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_PARTITION_DISCOVERY_INTERVAL;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_POLL_BACK_OFF;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_POLL_BATCH_SIZE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_POLL_INTERVAL;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_POLL_MIN_INTERVAL;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_RECREATED_TOPIC_READ_FROM_START;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_SKIP_UNDECODABLE_RECORDS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_STARTUP_COMMITTED_FALLBACK;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_STARTUP_MODE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_STARTUP_SPECIFIC_OFFSETS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_STARTUP_TIMESTAMP_MILLIS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SCAN_UID;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.STREAM;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.STREAM_PATTERN;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.TOPIC;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.TOPIC_PATTERN;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.atLeastOne;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.checkName;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.checkPattern;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.checkTopics;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.failOnProblems;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.notBlankUid;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.positive;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil.topics;

/**
 * Reads the options of a source table into a source builder ({@link #sourceBuilder}), checking
 * start and stop options as it reads them; {@link #validateTopics} and {@link #validateScanOptions}
 * check the others when the table is created, each naming every problem at once.
 */
@Internal
final class IggyScanOptions {

    private static final Pattern OFFSET_ENTRY =
            Pattern.compile("\\s*partition\\s*:\\s*(\\d+)\\s*,\\s*offset\\s*:\\s*(\\d+)\\s*");

    private static final PositionOptions<ScanStartupMode> START =
            new PositionOptions<>(
                    SCAN_STARTUP_MODE,
                    ScanStartupMode.TIMESTAMP,
                    SCAN_STARTUP_TIMESTAMP_MILLIS,
                    ScanStartupMode.SPECIFIC_OFFSETS,
                    SCAN_STARTUP_SPECIFIC_OFFSETS);

    private static final PositionOptions<ScanBoundedMode> STOP =
            new PositionOptions<>(
                    SCAN_BOUNDED_MODE,
                    ScanBoundedMode.TIMESTAMP,
                    SCAN_BOUNDED_TIMESTAMP_MILLIS,
                    ScanBoundedMode.SPECIFIC_OFFSETS,
                    SCAN_BOUNDED_SPECIFIC_OFFSETS);

    private IggyScanOptions() {}

    /** The consumer name offsets are stored under: the option, or {@code flink-<table>}. */
    static String consumerName(ReadableConfig options, String tableName) {
        String name = options.getOptional(SCAN_CONSUMER_NAME).orElse("flink-" + tableName);
        if (name.isBlank() || name.length() > 255) {
            throw new ValidationException(
                    "Invalid option '"
                            + SCAN_CONSUMER_NAME.key()
                            + "': a consumer name has 1 to 255 characters"
                            + (options.getOptional(SCAN_CONSUMER_NAME).isPresent()
                                    ? ""
                                    : " (the default 'flink-<table>' is too long: set it)"));
        }
        return name;
    }

    /** A source builder with every scan option and the connection set, but no deserializer. */
    static <T> IggySourceBuilder<T> sourceBuilder(
            ReadableConfig options, IggyConnectionConfig connection, String tableName) {
        IggySourceBuilder<T> builder =
                IggySource.<T>builder()
                        .setConnection(connection)
                        .setConsumerName(consumerName(options, tableName))
                        .setStartingOffsets(startingOffsets(options))
                        .setBounded(stoppingOffsets(options))
                        .setPollInterval(options.get(SCAN_POLL_INTERVAL))
                        .setPartitionDiscoveryInterval(
                                options.getOptional(SCAN_PARTITION_DISCOVERY_INTERVAL).orElse(null))
                        .setSkipUndecodableRecords(options.get(SCAN_SKIP_UNDECODABLE_RECORDS))
                        .setRecreatedTopicReadFromStart(
                                options.get(SCAN_RECREATED_TOPIC_READ_FROM_START))
                        .setDeletedTopicSkip(options.get(SCAN_DELETED_TOPIC_SKIP));
        Optional<String> streamPattern = options.getOptional(STREAM_PATTERN);
        if (streamPattern.isPresent()) {
            builder.setStreamPattern(Pattern.compile(streamPattern.get()));
        } else {
            builder.setStream(options.get(STREAM));
        }
        Optional<String> topicPattern = options.getOptional(TOPIC_PATTERN);
        if (topicPattern.isPresent()) {
            builder.setTopicPattern(Pattern.compile(topicPattern.get()));
        } else {
            builder.setTopics(topics(options).toArray(new String[0]));
        }
        options.getOptional(SCAN_POLL_BATCH_SIZE).ifPresent(builder::setPollBatchSize);
        options.getOptional(SCAN_POLL_MIN_INTERVAL).ifPresent(builder::setPollMinInterval);
        options.getOptional(SCAN_POLL_BACK_OFF).ifPresent(builder::setPollBackOff);
        return builder;
    }

    static IggyStartingOffsets startingOffsets(ReadableConfig options) {
        return switch (START.mode(options)) {
            case EARLIEST_OFFSET -> IggyStartingOffsets.earliest();
            case LATEST_OFFSET -> IggyStartingOffsets.latest();
            case TIMESTAMP -> IggyStartingOffsets.timestamp(START.timestampMillis(options));
            case SPECIFIC_OFFSETS -> IggyStartingOffsets.specific(START.offsets(options));
            case COMMITTED_OFFSET ->
                    IggyStartingOffsets.committed(options.get(SCAN_STARTUP_COMMITTED_FALLBACK));
        };
    }

    /** The stopping offsets of a bounded scan, or {@code null} when unbounded. */
    @Nullable
    static IggyStoppingOffsets stoppingOffsets(ReadableConfig options) {
        ScanBoundedMode mode = STOP.mode(options);
        if (mode != ScanBoundedMode.UNBOUNDED
                && options.getOptional(SCAN_PARTITION_DISCOVERY_INTERVAL).isPresent()) {
            throw new ValidationException(
                    "Option '"
                            + SCAN_PARTITION_DISCOVERY_INTERVAL.key()
                            + "' applies to unbounded scans only, but '"
                            + SCAN_BOUNDED_MODE.key()
                            + "' is '"
                            + mode
                            + "': remove one of them.");
        }
        return switch (mode) {
            case LATEST_OFFSET -> IggyStoppingOffsets.latest();
            case TIMESTAMP -> IggyStoppingOffsets.timestamp(STOP.timestampMillis(options));
            case SPECIFIC_OFFSETS -> IggyStoppingOffsets.specific(STOP.offsets(options));
            case UNBOUNDED -> null;
        };
    }

    /** What the source table reads, for the plan: streams and topics, no secret. */
    static String topicsDescription(ReadableConfig options) {
        String streams =
                options.getOptional(STREAM_PATTERN)
                        .map(p -> "streams matching '" + p + "'")
                        .orElseGet(() -> "stream '" + options.get(STREAM) + "'");
        String topics =
                options.getOptional(TOPIC_PATTERN)
                        .map(p -> "topics matching '" + p + "'")
                        .orElseGet(() -> "topic '" + options.get(TOPIC) + "'");
        return streams + ", " + topics;
    }

    /**
     * Checks which streams and topics a source table reads: one of 'stream' and 'stream-pattern',
     * one of 'topic' and 'topic-pattern', valid names and patterns. Every problem at once.
     */
    static void validateTopics(ReadableConfig options) {
        List<String> problems = new ArrayList<>();
        boolean hasStream = options.getOptional(STREAM).isPresent();
        if (hasStream == options.getOptional(STREAM_PATTERN).isPresent()) {
            problems.add(
                    hasStream
                            ? "both 'stream' and 'stream-pattern' are set: choose one"
                            : "'stream' (or 'stream-pattern') is required");
        }
        options.getOptional(STREAM).ifPresent(stream -> checkName(STREAM.key(), stream, problems));
        checkPattern(options, STREAM_PATTERN, problems);
        if (options.getOptional(TOPIC).isEmpty() && options.getOptional(TOPIC_PATTERN).isEmpty()) {
            problems.add("'topic' (or 'topic-pattern') is required");
        }
        checkTopics(options, problems);
        failOnProblems("Invalid Iggy source table: ", problems);
    }

    /**
     * Checks the poll options and the uid, every problem at once; the start and stop options are
     * checked when they are read.
     */
    static void validateScanOptions(ReadableConfig options) {
        List<String> problems = new ArrayList<>();
        atLeastOne(options, SCAN_POLL_BATCH_SIZE, problems);
        Duration interval = options.get(SCAN_POLL_INTERVAL);
        positive(SCAN_POLL_INTERVAL, Optional.of(interval), problems);
        Optional<Duration> min = options.getOptional(SCAN_POLL_MIN_INTERVAL);
        positive(SCAN_POLL_MIN_INTERVAL, min, problems);
        if (min.filter(m -> m.compareTo(interval) > 0).isPresent()) {
            problems.add(
                    String.format(
                            "Option '%s' must be at most '%s' (%s), but is %s",
                            SCAN_POLL_MIN_INTERVAL.key(),
                            SCAN_POLL_INTERVAL.key(),
                            interval,
                            min.get()));
        }
        Optional<Duration> backOff = options.getOptional(SCAN_POLL_BACK_OFF);
        positive(SCAN_POLL_BACK_OFF, backOff, problems);
        // a back-off needs a minimum interval shorter than the poll interval to back off from
        if (backOff.isPresent() && min.filter(m -> m.compareTo(interval) < 0).isEmpty()) {
            problems.add(
                    String.format(
                            "Option '%1$s' applies only when '%2$s' is shorter than '%3$s' (%4$s):"
                                    + " set '%2$s' or remove '%1$s'",
                            SCAN_POLL_BACK_OFF.key(),
                            SCAN_POLL_MIN_INTERVAL.key(),
                            SCAN_POLL_INTERVAL.key(),
                            interval));
        }
        positive(
                SCAN_PARTITION_DISCOVERY_INTERVAL,
                options.getOptional(SCAN_PARTITION_DISCOVERY_INTERVAL),
                problems);
        notBlankUid(options, SCAN_UID, problems);
        failOnProblems("", problems);
    }

    /** Parses {@code partition:0,offset:42;partition:1,offset:300}. */
    static Map<Long, Long> parseSpecificOffsets(String value, ConfigOption<String> option) {
        Map<Long, Long> offsets = new LinkedHashMap<>();
        for (String entry : value.split(";")) {
            if (entry.isBlank()) {
                continue;
            }
            Matcher m = OFFSET_ENTRY.matcher(entry);
            if (!m.matches()) {
                throw new ValidationException(
                        "Invalid option '"
                                + option.key()
                                + "': '"
                                + entry.trim()
                                + "' is not 'partition:<id>,offset:<offset>'. Expected e.g."
                                + " 'partition:0,offset:42;partition:1,offset:300'.");
            }
            long partition = Long.parseLong(m.group(1));
            if (offsets.put(partition, Long.parseLong(m.group(2))) != null) {
                throw new ValidationException(
                        "Invalid option '"
                                + option.key()
                                + "': partition "
                                + partition
                                + " is listed twice.");
            }
        }
        if (offsets.isEmpty()) {
            throw new ValidationException(
                    "Option '"
                            + option.key()
                            + "' lists no offsets. Expected e.g."
                            + " 'partition:0,offset:42;partition:1,offset:300'.");
        }
        return offsets;
    }

    /**
     * Where a scan starts or stops: a mode, and a timestamp and offsets that one mode each needs
     * and every other mode rejects.
     */
    private record PositionOptions<M>(
            ConfigOption<M> modeOption,
            M timestampMode,
            ConfigOption<Long> timestampOption,
            M offsetsMode,
            ConfigOption<String> offsetsOption) {

        /** The configured mode, once no option of another mode is set. */
        M mode(ReadableConfig options) {
            M mode = options.get(modeOption);
            rejectUnless(options, timestampOption, mode, timestampMode);
            rejectUnless(options, offsetsOption, mode, offsetsMode);
            return mode;
        }

        long timestampMillis(ReadableConfig options) {
            long millis = required(options, timestampOption, timestampMode);
            if (millis < 0) {
                throw new ValidationException(
                        "Option '"
                                + timestampOption.key()
                                + "' must be epoch milliseconds >= 0, but is "
                                + millis);
            }
            return millis;
        }

        Map<Long, Long> offsets(ReadableConfig options) {
            return parseSpecificOffsets(
                    required(options, offsetsOption, offsetsMode), offsetsOption);
        }

        private void rejectUnless(
                ReadableConfig options, ConfigOption<?> option, M mode, M optionMode) {
            if (mode != optionMode && options.getOptional(option).isPresent()) {
                throw new ValidationException(
                        "Option '"
                                + option.key()
                                + "' applies only when '"
                                + modeOption.key()
                                + "' is '"
                                + optionMode
                                + "', but it is '"
                                + mode
                                + "'.");
            }
        }

        private static <T> T required(ReadableConfig options, ConfigOption<T> option, Object mode) {
            return options.getOptional(option)
                    .orElseThrow(
                            () ->
                                    new ValidationException(
                                            "Option '"
                                                    + option.key()
                                                    + "' is required for mode '"
                                                    + mode
                                                    + "'."));
        }
    }
}

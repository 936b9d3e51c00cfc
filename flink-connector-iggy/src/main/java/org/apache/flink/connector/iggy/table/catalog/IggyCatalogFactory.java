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
package org.apache.flink.connector.iggy.table.catalog;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.ScanBoundedMode;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.ScanStartupMode;
import org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CommonCatalogOptions;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Creates an {@link IggyCatalog} for {@code CREATE CATALOG ... WITH ('type' = 'iggy', ...)}. Its
 * options, and the table options only the catalog understands, are declared here and checked here,
 * every problem named at once; the catalog also takes the connection options of the {@code iggy}
 * table, which every table of the catalog inherits.
 */
@Internal
public final class IggyCatalogFactory implements CatalogFactory {

    public static final String IDENTIFIER = "iggy";

    // ----- catalog ----------------------------------------------------------------------------

    public static final ConfigOption<String> DEFAULT_DATABASE =
            ConfigOptions.key(CommonCatalogOptions.DEFAULT_DATABASE_KEY)
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The stream that is the current database after USE CATALOG. Unset:"
                                    + " none, so table names need their stream.");

    public static final ConfigOption<String> DEFAULT_FORMAT =
            ConfigOptions.key("default.format")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Value format of a CREATE TABLE that names none. For a topic created"
                                    + " outside Flink, 'raw' makes the payload column a STRING"
                                    + " (UTF-8); otherwise it is BYTES.");

    public static final ConfigOption<Integer> DEFAULT_PARTITIONS =
            ConfigOptions.key("default.partitions")
                    .intType()
                    .defaultValue(1)
                    .withDescription("Partitions of a topic that CREATE TABLE creates.");

    public static final ConfigOption<ScanStartupMode> DEFAULT_SCAN_STARTUP_MODE =
            ConfigOptions.key("default.scan.startup.mode")
                    .enumType(ScanStartupMode.class)
                    .noDefaultValue()
                    .withDescription(
                            "'scan.startup.mode' of every table that does not set it:"
                                    + " 'earliest-offset', 'latest-offset' or 'committed-offset'."
                                    + " Unset: the connector's default.");

    public static final ConfigOption<ScanBoundedMode> DEFAULT_SCAN_BOUNDED_MODE =
            ConfigOptions.key("default.scan.bounded.mode")
                    .enumType(ScanBoundedMode.class)
                    .noDefaultValue()
                    .withDescription(
                            "'scan.bounded.mode' of every table that does not set it:"
                                    + " 'unbounded' or 'latest-offset' (every SELECT ends at the"
                                    + " end the topic had when it started). Unset: the"
                                    + " connector's default.");

    public static final ConfigOption<Boolean> ALLOW_DROPS =
            ConfigOptions.key("allow-drops")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Whether DROP TABLE deletes the topic and DROP DATABASE the stream,"
                                    + " with their messages. Off: DROP TABLE only forgets the"
                                    + " table's definition and DROP DATABASE fails.");

    // ----- table: the topic -------------------------------------------------------------------

    public static final ConfigOption<Integer> PARTITIONS =
            ConfigOptions.key("partitions")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "The topic's partitions; CREATE TABLE creates that many, ALTER TABLE"
                                    + " may add more. Default: 'default.partitions'.");

    public static final ConfigOption<TopicCompression> COMPRESSION =
            ConfigOptions.key("compression")
                    .enumType(TopicCompression.class)
                    .noDefaultValue()
                    .withDescription("The topic's compression: 'none' (default) or 'gzip'.");

    public static final ConfigOption<Duration> MESSAGE_EXPIRY =
            ConfigOptions.key("message-expiry")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "How long the server keeps the topic's messages. Unset: the"
                                    + " server's default (by default, forever).");

    /** The topic options: the catalog applies them to the topic and never stores them. */
    static final List<ConfigOption<?>> TOPIC = List.of(PARTITIONS, COMPRESSION, MESSAGE_EXPIRY);

    /** Compression of a topic's messages on the server. */
    @Internal
    public enum TopicCompression {
        NONE,
        GZIP
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Collections.emptySet();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options =
                new LinkedHashSet<>(IggyConnectorOptionsUtil.CONNECTION_OPTIONS);
        Collections.addAll(
                options,
                DEFAULT_DATABASE,
                DEFAULT_FORMAT,
                DEFAULT_PARTITIONS,
                DEFAULT_SCAN_STARTUP_MODE,
                DEFAULT_SCAN_BOUNDED_MODE,
                ALLOW_DROPS);
        return options;
    }

    @Override
    public Catalog createCatalog(Context context) {
        IggyConnectorOptionsUtil.validate(FactoryUtil.createCatalogFactoryHelper(this, context));
        return new IggyCatalog(
                context.getName(),
                settings(Configuration.fromMap(context.getOptions()), context.getConfiguration()),
                context.getClassLoader());
    }

    /**
     * Checks the catalog's options, naming every invalid one, and resolves its connection with the
     * session's {@code flinkConfiguration} for credentials the options leave out.
     */
    static Settings settings(Configuration options, ReadableConfig flinkConfiguration) {
        List<String> problems = new ArrayList<>();
        IggyConnectionConfig connection = null;
        try {
            connection = IggyConnectorOptionsUtil.connectionConfig(options, flinkConfiguration);
        } catch (ValidationException e) {
            problems.add(e.getMessage());
        }
        IggyConnectorOptionsUtil.atLeastOne(options, DEFAULT_PARTITIONS, problems);
        // Positions are set per table: only the modes without one can be the catalog's.
        Map<String, String> scanDefaults = new HashMap<>();
        scanDefault(
                options,
                DEFAULT_SCAN_STARTUP_MODE,
                IggyConnectorOptions.SCAN_STARTUP_MODE,
                List.of(
                        ScanStartupMode.EARLIEST_OFFSET,
                        ScanStartupMode.LATEST_OFFSET,
                        ScanStartupMode.COMMITTED_OFFSET),
                scanDefaults,
                problems);
        scanDefault(
                options,
                DEFAULT_SCAN_BOUNDED_MODE,
                IggyConnectorOptions.SCAN_BOUNDED_MODE,
                List.of(ScanBoundedMode.UNBOUNDED, ScanBoundedMode.LATEST_OFFSET),
                scanDefaults,
                problems);
        if (!problems.isEmpty()) {
            throw new ValidationException(String.join("\n", problems));
        }
        Map<String, String> connectionOptions = new HashMap<>(options.toMap());
        connectionOptions
                .keySet()
                .retainAll(
                        IggyConnectorOptionsUtil.CONNECTION_OPTIONS.stream()
                                .map(ConfigOption::key)
                                .toList());
        return new Settings(
                options.get(DEFAULT_DATABASE),
                connection,
                connectionOptions,
                scanDefaults,
                options.get(DEFAULT_FORMAT),
                options.get(DEFAULT_PARTITIONS),
                options.get(ALLOW_DROPS));
    }

    /** Puts the value of {@code option}, one of {@code allowed}, under {@code tableOption}. */
    private static <M> void scanDefault(
            Configuration options,
            ConfigOption<M> option,
            ConfigOption<M> tableOption,
            List<M> allowed,
            Map<String, String> defaults,
            List<String> problems) {
        options.getOptional(option)
                .ifPresent(
                        mode -> {
                            if (!allowed.contains(mode)) {
                                problems.add(
                                        String.format(
                                                "Option '%s' must be one of %s, but is '%s': set"
                                                        + " positions per table.",
                                                option.key(), allowed, mode));
                            }
                            defaults.put(tableOption.key(), mode.toString());
                        });
    }

    /**
     * The validated options of one {@link IggyCatalog}; {@code connectionOptions}, as given, go to
     * every table and may hold secrets, so {@link #toString()} leaves them out.
     */
    record Settings(
            @Nullable String defaultDatabase,
            IggyConnectionConfig connection,
            Map<String, String> connectionOptions,
            Map<String, String> scanDefaults,
            @Nullable String defaultFormat,
            int defaultPartitions,
            boolean allowDrops) {

        Settings {
            connectionOptions = Map.copyOf(connectionOptions);
            scanDefaults = Map.copyOf(scanDefaults);
        }

        @Override
        public String toString() {
            return "Settings{defaultDatabase="
                    + defaultDatabase
                    + ", connection="
                    + connection
                    + ", scanDefaults="
                    + scanDefaults
                    + ", defaultFormat="
                    + defaultFormat
                    + ", defaultPartitions="
                    + defaultPartitions
                    + ", allowDrops="
                    + allowDrops
                    + '}';
        }
    }
}

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
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.ScanBoundedMode;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.ScanStartupMode;
import org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil;
import org.apache.flink.connector.iggy.table.OptionSuggestions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Creates an {@link IggyCatalog} for {@code CREATE CATALOG ... WITH ('type' = 'iggy', ...)}; the
 * options are {@link IggyCatalogOptions}, checked here, every problem named at once.
 */
@Internal
public final class IggyCatalogFactory implements CatalogFactory {

    public static final String IDENTIFIER = "iggy";

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
                IggyCatalogOptions.DEFAULT_DATABASE,
                IggyCatalogOptions.DEFAULT_FORMAT,
                IggyCatalogOptions.DEFAULT_PARTITIONS,
                IggyCatalogOptions.DEFAULT_SCAN_STARTUP_MODE,
                IggyCatalogOptions.DEFAULT_SCAN_BOUNDED_MODE,
                IggyCatalogOptions.ALLOW_DROPS);
        return options;
    }

    @Override
    public Catalog createCatalog(Context context) {
        OptionSuggestions.validate(FactoryUtil.createCatalogFactoryHelper(this, context));
        return new IggyCatalog(
                context.getName(),
                settings(Configuration.fromMap(context.getOptions()), context.getConfiguration()),
                context.getClassLoader());
    }

    /**
     * Checks the catalog's options and resolves its connection.
     *
     * @param flinkConfiguration the session's, for credentials the options leave out
     * @throws ValidationException naming every invalid option
     */
    static Settings settings(Configuration options, ReadableConfig flinkConfiguration) {
        List<String> problems = new ArrayList<>();
        IggyConnectionConfig connection = null;
        try {
            connection = IggyConnectorOptionsUtil.connectionConfig(options, flinkConfiguration);
        } catch (ValidationException e) {
            problems.add(e.getMessage());
        }
        IggyConnectorOptionsUtil.atLeastOne(
                options, IggyCatalogOptions.DEFAULT_PARTITIONS, problems);
        // Positions are set per table: only the modes without one can be the catalog's.
        Map<String, String> scanDefaults = new HashMap<>();
        scanDefault(
                options,
                IggyCatalogOptions.DEFAULT_SCAN_STARTUP_MODE,
                IggyConnectorOptions.SCAN_STARTUP_MODE,
                List.of(
                        ScanStartupMode.EARLIEST_OFFSET,
                        ScanStartupMode.LATEST_OFFSET,
                        ScanStartupMode.COMMITTED_OFFSET),
                scanDefaults,
                problems);
        scanDefault(
                options,
                IggyCatalogOptions.DEFAULT_SCAN_BOUNDED_MODE,
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
                options.get(IggyCatalogOptions.DEFAULT_DATABASE),
                connection,
                connectionOptions,
                scanDefaults,
                options.get(IggyCatalogOptions.DEFAULT_FORMAT),
                options.get(IggyCatalogOptions.DEFAULT_PARTITIONS),
                options.get(IggyCatalogOptions.ALLOW_DROPS));
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
     * The validated options of one {@link IggyCatalog}.
     *
     * @param connection the catalog's connection, credentials resolved
     * @param connectionOptions the connection options as given, which every table of the catalog
     *     gets; they may hold secrets, so {@link #toString()} leaves them out
     * @param scanDefaults scan options every table gets unless it sets them
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

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
        options.add(IggyCatalogOptions.DEFAULT_DATABASE);
        options.add(IggyCatalogOptions.DEFAULT_FORMAT);
        options.add(IggyCatalogOptions.DEFAULT_PARTITIONS);
        options.add(IggyCatalogOptions.DEFAULT_SCAN_STARTUP_MODE);
        options.add(IggyCatalogOptions.DEFAULT_SCAN_BOUNDED_MODE);
        options.add(IggyCatalogOptions.ALLOW_DROPS);
        return options;
    }

    @Override
    public Catalog createCatalog(Context context) {
        FactoryUtil.CatalogFactoryHelper helper =
                FactoryUtil.createCatalogFactoryHelper(this, context);
        OptionSuggestions.validate(helper);
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
    static IggyCatalogSettings settings(Configuration options, ReadableConfig flinkConfiguration) {
        List<String> problems = new ArrayList<>();
        IggyConnectionConfig connection = null;
        try {
            connection = IggyConnectorOptionsUtil.connectionConfig(options, flinkConfiguration);
        } catch (ValidationException e) {
            problems.add(e.getMessage());
        }
        IggyConnectorOptionsUtil.atLeastOne(
                options, IggyCatalogOptions.DEFAULT_PARTITIONS, problems);
        Map<String, String> scanDefaults = scanDefaults(options, problems);
        if (!problems.isEmpty()) {
            throw new ValidationException(String.join("\n", problems));
        }
        return new IggyCatalogSettings(
                options.get(IggyCatalogOptions.DEFAULT_DATABASE),
                connection,
                connectionOptions(options),
                scanDefaults,
                options.get(IggyCatalogOptions.DEFAULT_FORMAT),
                options.get(IggyCatalogOptions.DEFAULT_PARTITIONS),
                options.get(IggyCatalogOptions.ALLOW_DROPS));
    }

    /** The connection options as given: every table of the catalog gets them. */
    private static Map<String, String> connectionOptions(Configuration options) {
        Map<String, String> all = options.toMap();
        Map<String, String> connection = new HashMap<>();
        for (ConfigOption<?> option : IggyConnectorOptionsUtil.CONNECTION_OPTIONS) {
            if (all.containsKey(option.key())) {
                connection.put(option.key(), all.get(option.key()));
            }
        }
        return connection;
    }

    /** The scan options every table gets unless it sets them; positions are set per table. */
    private static Map<String, String> scanDefaults(Configuration options, List<String> problems) {
        Map<String, String> defaults = new HashMap<>();
        scanDefault(
                options,
                IggyCatalogOptions.DEFAULT_SCAN_STARTUP_MODE,
                IggyConnectorOptions.SCAN_STARTUP_MODE,
                List.of(
                        ScanStartupMode.EARLIEST_OFFSET,
                        ScanStartupMode.LATEST_OFFSET,
                        ScanStartupMode.COMMITTED_OFFSET),
                defaults,
                problems);
        scanDefault(
                options,
                IggyCatalogOptions.DEFAULT_SCAN_BOUNDED_MODE,
                IggyConnectorOptions.SCAN_BOUNDED_MODE,
                List.of(ScanBoundedMode.UNBOUNDED, ScanBoundedMode.LATEST_OFFSET),
                defaults,
                problems);
        return defaults;
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
}

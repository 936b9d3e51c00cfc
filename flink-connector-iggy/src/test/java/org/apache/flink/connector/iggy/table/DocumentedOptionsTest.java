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

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.sink.IggyKeyedMapSinkBuilder;
import org.apache.flink.connector.iggy.sink.IggySinkBuilder;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.table.catalog.IggyCatalogFactory;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.util.TimeUtils;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The option tables of docs/table-sql.md and docs/catalog.md list exactly the options the factories
 * accept, with their defaults: a documented default is the option's default as Flink prints it, and
 * an option without default (or with an empty list) is documented with a parenthesis ({@code
 * (none)}, {@code (required)}, ...). The names table of docs/api.md pairs builder methods that
 * exist with options the factories accept.
 */
class DocumentedOptionsTest {

    private static final Path DOCS = Path.of("..", "docs");
    private static final Pattern OPTION_ROW = Pattern.compile("^\\| (`[^|]+`) \\| ([^|]+) \\|");
    private static final Pattern NAME = Pattern.compile("`([^`]+)`");

    @Test
    void tableSqlDocumentsEveryTableOptionWithItsDefault() throws IOException {
        Map<String, ConfigOption<?>> accepted = new TreeMap<>();
        accepted.putAll(options(new IggyDynamicTableFactory()));
        accepted.putAll(options(new UpsertIggyDynamicTableFactory()));
        accepted.remove("connector");

        assertDocumented(DOCS.resolve("table-sql.md"), accepted);
    }

    @Test
    void catalogDocumentsEveryCatalogOptionWithItsDefault() throws IOException {
        Map<String, ConfigOption<?>> accepted = options(new IggyCatalogFactory());
        // Flink's own option of every catalog ('type' = 'iggy'), not the factory's.
        accepted.put("type", null);

        assertDocumented(DOCS.resolve("catalog.md"), accepted);
    }

    @Test
    void apiNamesTablePairsExistingBuilderMethodsWithAcceptedOptions() throws IOException {
        Map<String, ConfigOption<?>> accepted = new TreeMap<>();
        accepted.putAll(options(new IggyDynamicTableFactory()));
        accepted.putAll(options(new UpsertIggyDynamicTableFactory()));
        List<String> methods = new ArrayList<>();
        for (Class<?> builder :
                List.of(
                        IggyConnectionConfig.Builder.class,
                        IggySourceBuilder.class,
                        IggySinkBuilder.class,
                        IggyKeyedMapSinkBuilder.class)) {
            for (Method method : builder.getMethods()) {
                methods.add(method.getName());
            }
        }
        List<String> rows = new ArrayList<>();
        boolean inNames = false;
        for (String line : Files.readAllLines(DOCS.resolve("api.md"), StandardCharsets.UTF_8)) {
            if (line.startsWith("| setting | builder method | SQL option |")) {
                inNames = true;
            } else if (!line.startsWith("|")) {
                inNames = false;
            } else if (inNames && !line.startsWith("|---")) {
                String[] cells = line.split("\\|");
                Matcher method = NAME.matcher(cells[2]);
                Matcher option = NAME.matcher(cells[3]);
                assertThat(method.find() && option.find()).as("row %s", line).isTrue();
                assertThat(methods).as("builder method of %s", line).contains(method.group(1));
                assertThat(accepted).as("SQL option of %s", line).containsKey(option.group(1));
                rows.add(line);
            }
        }
        assertThat(rows).as("rows of the names table in api.md").hasSizeGreaterThan(30);
    }

    private static void assertDocumented(Path doc, Map<String, ConfigOption<?>> accepted)
            throws IOException {
        Map<String, String> documented = documentedDefaults(doc);

        assertThat(documented.keySet())
                .as("options documented in %s", doc)
                .containsExactlyInAnyOrderElementsOf(accepted.keySet());
        accepted.forEach(
                (key, option) -> {
                    String cell = documented.get(key);
                    if (option == null) {
                        return;
                    }
                    boolean emptyList =
                            option.defaultValue() instanceof java.util.List
                                    && ((java.util.List<?>) option.defaultValue()).isEmpty();
                    if (option.hasDefaultValue() && !emptyList) {
                        assertThat(cell)
                                .as("documented default of '%s' in %s", key, doc)
                                .startsWith("`" + format(option.defaultValue()) + "`");
                    } else {
                        assertThat(cell)
                                .as("'%s' has no default; %s says", key, doc)
                                .startsWith("(");
                    }
                });
    }

    /** The rows of every table whose header starts with "option | default". */
    private static Map<String, String> documentedDefaults(Path doc) throws IOException {
        Map<String, String> defaults = new LinkedHashMap<>();
        boolean inOptionTable = false;
        for (String line : Files.readAllLines(doc, StandardCharsets.UTF_8)) {
            if (line.startsWith("| option | default |")) {
                inOptionTable = true;
                continue;
            }
            if (!line.startsWith("|")) {
                inOptionTable = false;
                continue;
            }
            Matcher row = OPTION_ROW.matcher(line);
            if (inOptionTable && row.find()) {
                Matcher name = NAME.matcher(row.group(1));
                while (name.find()) {
                    defaults.put(name.group(1), row.group(2).trim());
                }
            }
        }
        return defaults;
    }

    private static Map<String, ConfigOption<?>> options(Factory factory) {
        Map<String, ConfigOption<?>> options = new TreeMap<>();
        factory.requiredOptions().forEach(o -> options.put(o.key(), o));
        factory.optionalOptions().forEach(o -> options.put(o.key(), o));
        return options;
    }

    private static String format(Object value) {
        return value instanceof Duration
                ? TimeUtils.formatWithHighestUnit((Duration) value)
                : value.toString();
    }
}

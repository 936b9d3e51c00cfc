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

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.factories.TestFormatFactory;
import org.apache.flink.table.factories.utils.FactoryMocks;

import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** A misspelt option gets the nearest supported one named, for tables and the catalog. */
class OptionSuggestionsTest {

    private static final ResolvedSchema SCHEMA =
            new ResolvedSchema(
                    List.of(
                            Column.physical("id", DataTypes.STRING().notNull()),
                            Column.physical("name", DataTypes.STRING())),
                    Collections.emptyList(),
                    UniqueConstraint.primaryKey("pk", List.of("id")));

    private static Map<String, String> table(String connector) {
        Map<String, String> options = new HashMap<>();
        options.put("connector", connector);
        options.put("address", "localhost:8090");
        options.put("stream", "s1");
        options.put("topic", "t1");
        if (connector.equals("iggy")) {
            options.put("format", TestFormatFactory.IDENTIFIER);
            options.put("test-format.delimiter", ",");
        } else {
            options.put("key.format", TestFormatFactory.IDENTIFIER);
            options.put("key.test-format.delimiter", ",");
            options.put("value.format", TestFormatFactory.IDENTIFIER);
            options.put("value.test-format.delimiter", ",");
        }
        return options;
    }

    /** What the SQL client prints: the root cause's message. */
    private static String rootMessage(Throwable failure) {
        assertThat(failure).isNotNull();
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    @Test
    void aMisspeltTableOptionNamesTheNearestForIggyAndUpsertIggy() {
        for (String connector : List.of("iggy", "upsert-iggy")) {
            Map<String, String> options = table(connector);
            options.put("scan.startup.mod", "earliest-offset");

            String printed =
                    rootMessage(
                            catchThrowable(() -> FactoryMocks.createTableSource(SCHEMA, options)));

            assertThat(printed)
                    .as(connector)
                    .contains("Unsupported options found for '" + connector + "'")
                    .contains("scan.startup.mod (did you mean 'scan.startup.mode'?)");
        }
    }

    @Test
    void aMisspeltSinkOptionAndAMisspeltFormatOptionAreNamedToo() {
        Map<String, String> options = table("iggy");
        options.put("sink.partitoner", "fixed");
        options.put("test-format.delimitter", ",");

        String printed =
                rootMessage(catchThrowable(() -> FactoryMocks.createTableSink(SCHEMA, options)));

        assertThat(printed)
                .contains("sink.partitoner (did you mean 'sink.partitioner'?)")
                .contains("test-format.delimitter (did you mean 'test-format.delimiter'?)");
    }

    @Test
    void aMisspeltCatalogOptionNamesTheNearest() {
        Map<String, String> options = new HashMap<>();
        options.put("type", "iggy");
        options.put("address", "localhost:8090");
        options.put("default.scan.startup.mod", "earliest-offset");

        String printed =
                rootMessage(
                        catchThrowable(
                                () ->
                                        FactoryUtil.createCatalog(
                                                "c",
                                                options,
                                                new Configuration(),
                                                getClass().getClassLoader())));

        assertThat(printed)
                .contains("default.scan.startup.mod (did you mean 'default.scan.startup.mode'?)");
    }

    @Test
    void anOptionFarFromEveryKnownOneGetsNoGuess() {
        Map<String, String> options = table("iggy");
        options.put("completely-unrelated", "x");

        String printed =
                rootMessage(catchThrowable(() -> FactoryMocks.createTableSource(SCHEMA, options)));

        assertThat(printed)
                .contains("Unsupported options found for 'iggy'")
                .contains("completely-unrelated")
                .doesNotContain("did you mean");
    }

    @Test
    void otherFailuresPassThroughUnchanged() {
        ValidationException other = new ValidationException("Missing required options are: x");

        assertThat(IggyConnectorOptionsUtil.withSuggestions(other)).isSameAs(other);
    }
}

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
package org.apache.flink.connector.iggy.examples;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * README's table of every Flink line agrees with the build: one row per line the root pom knows,
 * each with an install command for a release of that line (none for the default line; one that
 * names modules names the connector, the SQL jar and the job template's line check), the version
 * the build gives that line's artifacts, and the SQL jar of that version.
 */
class FlinkLinesTableTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern PROFILE =
            Pattern.compile(
                    "<id>flink-line-([0-9.]+)</id>.*?<flink\\.line>([0-9.]+)</flink\\.line>",
                    Pattern.DOTALL);
    private static final Pattern INSTALL =
            Pattern.compile(
                    "`mvn -B install -DskipTests(?: -Dflink\\.version=([0-9.]+))?"
                            + "(?: -pl ([a-z,-]+) -am)?`");

    /** One row: line, install command, dependency version, SQL jar file. */
    private record Row(String line, String install, String version, String sqlJar) {}

    @Test
    void everyLineOfTheBuildHasItsRow() throws IOException {
        String pom = read(ROOT.resolve("pom.xml"));
        Map<String, String> lineOfRelease = new TreeMap<>();
        Matcher profile = PROFILE.matcher(pom);
        while (profile.find()) {
            lineOfRelease.put(profile.group(1), profile.group(2));
        }
        String defaultLine = property(pom, "flink.line");
        String release = property(pom, "connector.release");
        List<Row> rows = rows(read(ROOT.resolve("README.md")));

        assertThat(rows)
                .extracting(Row::line)
                .containsExactlyElementsOf(new TreeSet<>(lineOfRelease.values()));
        for (Row row : rows) {
            String version = release + "-" + row.line() + "-SNAPSHOT";
            assertThat(row.version())
                    .as("version of %s", row.line())
                    .isEqualTo("`" + version + "`");
            assertThat(row.sqlJar())
                    .as("SQL jar of %s", row.line())
                    .isEqualTo("`flink-sql-connector-iggy-" + version + ".jar`");
            Matcher install = INSTALL.matcher(row.install());
            assertThat(install.matches()).as("install command of %s", row.line()).isTrue();
            if (install.group(2) != null) {
                assertThat(install.group(2).split(","))
                        .as("what the install command of %s builds", row.line())
                        .contains(
                                "flink-connector-iggy",
                                "flink-sql-connector-iggy",
                                "flink-connector-iggy-line-check");
            }
            if (row.line().equals(defaultLine)) {
                assertThat(install.group(1)).as("-Dflink.version of the default line").isNull();
            } else {
                assertThat(lineOfRelease.get(install.group(1)))
                        .as("the line of -Dflink.version=%s", install.group(1))
                        .isEqualTo(row.line());
            }
        }
    }

    /** The rows of the table after the heading "### Every Flink line". */
    private static List<Row> rows(String readme) {
        String section = readme.substring(readme.indexOf("\n### Every Flink line\n"));
        List<Row> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : section.split("\n")) {
            if (line.startsWith("|---")) {
                inTable = true;
            } else if (inTable && line.startsWith("| ")) {
                String[] cells = line.substring(2, line.length() - 2).split(" \\| ");
                rows.add(new Row(cells[0].split(" ")[0], cells[1], cells[2], cells[3]));
            } else if (inTable) {
                break;
            }
        }
        return rows;
    }

    private static String property(String pom, String name) {
        Matcher value = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
        assertThat(value.find()).as("property %s of the root pom", name).isTrue();
        return value.group(1);
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}

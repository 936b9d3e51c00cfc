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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The code that README.md and docs/ show is code the build compiles or runs: {@link
 * LatestPerKeyJob} (compiled) and {@code src/test/resources/sql/quickstart.sql} (run by the SQL
 * client in {@code FlinkClusterIT}). A change on either side without the other fails here.
 */
class DocumentedCodeTest {

    private static final Path ROOT = Path.of("..");
    private static final Path README = ROOT.resolve("README.md");
    private static final Path TABLE_SQL_DOC = ROOT.resolve("docs").resolve("table-sql.md");
    private static final Path QUICKSTART_SQL =
            Path.of("src", "test", "resources", "sql", "quickstart.sql");
    private static final Path LATEST_PER_KEY_JOB =
            Path.of(
                    "src",
                    "main",
                    "java",
                    "org",
                    "apache",
                    "flink",
                    "connector",
                    "iggy",
                    "examples",
                    "LatestPerKeyJob.java");

    private static final Pattern FENCED_BLOCK =
            Pattern.compile("^```(\\w+)\\n(.*?)^```$", Pattern.MULTILINE | Pattern.DOTALL);

    @Test
    void readmeShowsTheCompiledJavaJob() throws IOException {
        String source = read(LATEST_PER_KEY_JOB);
        String fromImports = source.substring(source.indexOf("import ")).strip();

        assertThat(blocks(README, "java")).containsExactly(fromImports);
    }

    @Test
    void readmeShowsAPartOfTheQuickStartScript() throws IOException {
        String script = read(QUICKSTART_SQL);

        assertThat(blocks(README, "sql"))
                .singleElement()
                .satisfies(sql -> assertThat(script).contains(sql));
    }

    @Test
    void tableSqlDocShowsTheQuickStartScript() throws IOException {
        assertThat(blocks(TABLE_SQL_DOC, "sql"))
                .contains(withoutLicenseHeader(read(QUICKSTART_SQL)));
    }

    /** The script from its first line after the leading comment block (the license). */
    private static String withoutLicenseHeader(String script) {
        return script.substring(script.indexOf("\n\n") + 2).strip();
    }

    private static List<String> blocks(Path markdown, String language) throws IOException {
        List<String> blocks = new ArrayList<>();
        Matcher block = FENCED_BLOCK.matcher(read(markdown));
        while (block.find()) {
            if (block.group(1).equals(language)) {
                blocks.add(block.group(2).strip());
            }
        }
        return blocks;
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8).replace("\r\n", "\n");
    }
}

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
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every SQL, shell, Java and XML snippet of README.md and docs/ is either run as written by a test
 * or marked as a fragment: the line before its fence is {@code <!-- fragment: why -->}.
 *
 * <p>A snippet counts as run when its text occurs in a file a test runs or the build compiles as it
 * is: the SQL client scripts under {@code src/test/resources/sql} (FlinkClusterIT, PlaygroundIT),
 * the shell commands under {@code src/test/resources/playground} (PlaygroundIT), the example jobs
 * under {@code src/main/java/.../examples} and the job template {@code job-template/} (PlaygroundIT
 * builds and runs it).
 */
class DocumentedSnippetsTest {

    private static final Path ROOT = Path.of("..");
    private static final Set<String> CHECKED = Set.of("sql", "sh", "bash", "java", "xml");
    private static final String FRAGMENT = "<!-- fragment";
    private static final Pattern XML_LICENSE =
            Pattern.compile("<!--\nLicensed .*?-->\n", Pattern.DOTALL);
    private static final Pattern FENCE =
            Pattern.compile("^```(\\w*)\\n(.*?)^```$", Pattern.MULTILINE | Pattern.DOTALL);

    /** One fenced block of a Markdown file. */
    record Snippet(Path file, int line, String language, String text, boolean fragment) {
        @Override
        public String toString() {
            return file + ":" + line + " (" + language + ")";
        }
    }

    @Test
    void everySnippetIsRunByATestOrMarkedAsAFragment() throws IOException {
        List<String> runSources = runSources();
        List<Snippet> unmarkedAndNotRun =
                snippets().stream()
                        .filter(s -> CHECKED.contains(s.language()) && !s.fragment())
                        .filter(s -> runSources.stream().noneMatch(src -> src.contains(s.text())))
                        .toList();

        assertThat(unmarkedAndNotRun)
                .as(
                        "snippets neither run by a test (as text of a file under"
                                + " src/test/resources/sql or /playground, an example job or"
                                + " job-template/) nor marked with '%s: why -->' on the line"
                                + " before the fence",
                        FRAGMENT)
                .isEmpty();
    }

    @Test
    void everyFenceNamesItsLanguage() throws IOException {
        assertThat(snippets()).filteredOn(s -> s.language().isEmpty()).isEmpty();
    }

    @Test
    void theCatalogQuickStartIsTheScriptTheTestsRun() throws IOException {
        String script = read(Path.of("src", "test", "resources", "sql", "catalog-quickstart.sql"));
        String body = script.substring(script.indexOf("\n\n") + 2).strip();

        assertThat(snippets())
                .filteredOn(s -> s.file().endsWith("catalog.md") && s.language().equals("sql"))
                .extracting(Snippet::text)
                .contains(body);
    }

    @Test
    void theMarkerIsFoundBeforeAFence() {
        Snippet marked =
                parse(Path.of("x.md"), "text\n\n" + FRAGMENT + ": x -->\n```sql\nA;\n```\n").get(0);
        Snippet unmarked =
                parse(Path.of("x.md"), FRAGMENT + ": x -->\ntext\n```sql\nA;\n```\n").get(0);

        assertThat(marked.fragment()).isTrue();
        assertThat(marked.text()).isEqualTo("A;");
        assertThat(unmarked.fragment()).isFalse();
    }

    private static List<Snippet> snippets() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<Snippet> snippets = new ArrayList<>();
        for (Path file : files) {
            snippets.addAll(parse(ROOT.relativize(file), read(file)));
        }
        return snippets;
    }

    static List<Snippet> parse(Path file, String markdown) {
        List<Snippet> snippets = new ArrayList<>();
        Matcher fence = FENCE.matcher(markdown);
        while (fence.find()) {
            String before = markdown.substring(0, fence.start()).stripTrailing();
            String previousLine = before.substring(before.lastIndexOf('\n') + 1);
            int line = (int) before.chars().filter(c -> c == '\n').count() + 2;
            snippets.add(
                    new Snippet(
                            file,
                            line,
                            fence.group(1),
                            fence.group(2).strip(),
                            previousLine.startsWith(FRAGMENT)));
        }
        return snippets;
    }

    /** The text of every file that a test runs, or the build compiles, as it is. */
    private static List<String> runSources() throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path folder :
                List.of(
                        Path.of("src", "test", "resources", "sql"),
                        Path.of("src", "test", "resources", "playground"),
                        Path.of("src/main/java/org/apache/flink/connector/iggy/examples"),
                        ROOT.resolve("job-template"))) {
            try (Stream<Path> found = Files.walk(folder)) {
                found.filter(Files::isRegularFile)
                        .filter(p -> !p.toString().contains("target"))
                        .forEach(files::add);
            }
        }
        return files.stream()
                .map(
                        file -> {
                            try {
                                return withoutXmlLicense(read(file));
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        })
                .toList();
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8).replace("\r\n", "\n");
    }

    /** The file without an XML license comment (a pom's, which the docs leave out). */
    private static String withoutXmlLicense(String text) {
        return XML_LICENSE.matcher(text).replaceFirst("");
    }
}

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
package org.apache.flink.connector.iggy.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Copies of {@code job-template/} (its pom and its job) edited as a user edits them. */
final class JobTemplate {

    private static final Path FOLDER = Path.of("..", "job-template").toAbsolutePath().normalize();
    private static final Path JOB = Path.of("src", "main", "java", "com", "example", "MyJob.java");
    private static final String LINE =
            "<flink.version>2.2.0</flink.version>\n        <flink.line>2.2</flink.line>";
    private static final String SNAPSHOT =
            "<iggy-connector.version>0.1.0-${flink.line}-SNAPSHOT</iggy-connector.version>";
    private static final String LINE_CHECK =
            "<artifactId>flink-connector-iggy-line-check</artifactId>\n"
                    + "                        <version>0.1.0-SNAPSHOT</version>";

    private JobTemplate() {}

    /**
     * Copies the template into {@code copy}, with the pom's {@code flink.version} and {@code
     * flink.line} set to the given values.
     */
    static void copy(Path copy, String flinkVersion, String flinkLine) throws IOException {
        Files.createDirectories(copy.resolve(JOB).getParent());
        Files.copy(FOLDER.resolve(JOB), copy.resolve(JOB));
        String pom = Files.readString(FOLDER.resolve("pom.xml"));
        assertThat(pom).as("the template's pom").contains(LINE);
        Files.writeString(
                copy.resolve("pom.xml"),
                pom.replace(
                        LINE,
                        "<flink.version>"
                                + flinkVersion
                                + "</flink.version>\n        <flink.line>"
                                + flinkLine
                                + "</flink.line>"));
    }

    /**
     * Names a release in the copy: the connector {@code <release>-${flink.line}} and the line check
     * {@code <release>}, where the template names the snapshots ({@code
     * 0.1.0-${flink.line}-SNAPSHOT} and {@code 0.1.0-SNAPSHOT}).
     */
    static void setRelease(Path copy, String release) throws IOException {
        Path pom = copy.resolve("pom.xml");
        String text = Files.readString(pom);
        assertThat(text).as("the template's pom").contains(SNAPSHOT, LINE_CHECK);
        Files.writeString(
                pom,
                text.replace(
                                SNAPSHOT,
                                "<iggy-connector.version>"
                                        + release
                                        + "-${flink.line}</iggy-connector.version>")
                        .replace(LINE_CHECK, LINE_CHECK.replace("0.1.0-SNAPSHOT", release)));
    }
}

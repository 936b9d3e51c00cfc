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

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The job template's {@code pom.xml} pairs the Flink release with the connector of its line. Each
 * build runs as a user's would, in a new local repository that holds the line check (which
 * installing any line of the connector installs) and no connector: in a copy whose {@code
 * flink.version} names a release of another line than its {@code flink.line}, {@code mvn package}
 * stops before Maven resolves anything, naming both properties and the values to set; with both
 * set, or with {@code -Dflink.version} alone, the connector's version follows the line ({@code
 * help:evaluate}).
 */
class JobTemplatePomIT {

    private static final Duration MAVEN = Duration.ofMinutes(3);
    private static final String EVALUATE =
            "org.apache.maven.plugins:maven-help-plugin:3.5.1:evaluate";

    @TempDir private static Path home;
    private static UserMaven user;

    @BeforeAll
    static void aUserWithTheLineCheckAndNoConnector() throws Exception {
        user = new UserMaven(home, Map.of());
        user.installLineCheck();
    }

    @Test
    void aFlinkVersionOfAnotherLineStopsTheBuildNamingBothProperties(@TempDir Path copy)
            throws Exception {
        JobTemplate.copy(copy, "2.3.0", "2.2");

        EndedProcess run = user.run(copy, MAVEN, "package");

        assertThat(run.exitCode()).as("exit code; it printed:%n%s", run.printed()).isNotZero();
        assertThat(run.printed())
                .contains(
                        "flink.version 2.3.0 is not a release of flink.line 2.2, so the job would"
                                + " get the connector of Flink 2.2 (0.1.0-2.2-SNAPSHOT). Set both"
                                + " properties to your cluster's:"
                                + " <flink.version>2.3.0</flink.version> and"
                                + " <flink.line>2.3</flink.line>, or build with"
                                + " -Dflink.version=2.3.0 -Dflink.line=2.3.")
                .doesNotContain("Could not resolve dependencies", "Could not find artifact");
        assertThat(user.repository().resolve("org/apache/flink/flink-connector-iggy"))
                .as("the connector, which this user never installed")
                .doesNotExist();
    }

    @Test
    void bothPropertiesOfTheLineResolveItsConnector(@TempDir Path copy) throws Exception {
        JobTemplate.copy(copy, "2.3.0", "2.3");

        assertThat(connectorVersion(copy)).isEqualTo("0.1.0-2.3-SNAPSHOT");
    }

    @Test
    void flinkVersionOnTheCommandLineSetsTheLine(@TempDir Path copy) throws Exception {
        JobTemplate.copy(copy, "2.2.0", "2.2");

        assertThat(connectorVersion(copy, "-Dflink.version=2.3.0")).isEqualTo("0.1.0-2.3-SNAPSHOT");
    }

    /** The connector version the copy's build uses, once its line check passed. */
    private static String connectorVersion(Path copy, String... options) throws Exception {
        Path evaluated = copy.resolve("connector-version.txt");
        List<String> arguments = new ArrayList<>(List.of(options));
        arguments.addAll(
                List.of(
                        "validate",
                        EVALUATE,
                        "-Dexpression=iggy-connector.version",
                        "-Doutput=" + evaluated));
        user.run(copy, MAVEN, arguments.toArray(String[]::new)).succeeded();
        return Files.readString(evaluated).strip();
    }
}

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
package org.apache.flink.connector.iggy.linecheck;

import org.apache.maven.MavenExecutionException;
import org.apache.maven.execution.DefaultMavenExecutionRequest;
import org.apache.maven.execution.DefaultMavenExecutionResult;
import org.apache.maven.execution.MavenExecutionRequest;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.model.Dependency;
import org.apache.maven.model.Model;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FlinkLineCheckTest {

    private static final String MISMATCH =
            "flink.version 2.3.0 is not a release of flink.line 2.2, so the job would get the"
                    + " connector of Flink 2.2 (0.1.0-2.2-SNAPSHOT). Set both properties to your"
                    + " cluster's: <flink.version>2.3.0</flink.version> and"
                    + " <flink.line>2.3</flink.line>, or build with -Dflink.version=2.3.0"
                    + " -Dflink.line=2.3.";

    @Test
    void aReleaseOfTheLinePasses() {
        assertThat(FlinkLineCheck.problem("2.3.0", "2.3", "0.1.0-2.3")).isEmpty();
        assertThat(FlinkLineCheck.problem("1.20.5", "1.20", null)).isEmpty();
    }

    @Test
    void aReleaseOfAnotherLineNamesBothPropertiesAndTheValuesToSet() {
        assertThat(FlinkLineCheck.problem("2.3.0", "2.2", "0.1.0-2.2-SNAPSHOT")).contains(MISMATCH);
        assertThat(FlinkLineCheck.problem("1.20.3", "1.2", null))
                .hasValueSatisfying(
                        message ->
                                assertThat(message)
                                        .startsWith(
                                                "flink.version 1.20.3 is not a release of"
                                                        + " flink.line 1.2, so the job would get"
                                                        + " the connector of Flink 1.2. Set")
                                        .contains("<flink.line>1.20</flink.line>"));
    }

    @Test
    void aVersionThatIsNoReleaseIsRefused() {
        assertThat(FlinkLineCheck.problem("2.3", "2.3", null))
                .contains(
                        "flink.version 2.3 is not a Flink release: set it to your cluster's and"
                                + " flink.line to its line, e.g."
                                + " <flink.version>2.3.0</flink.version> and"
                                + " <flink.line>2.3</flink.line>.");
    }

    @Test
    void aProjectWithoutBothPropertiesIsNotChecked() {
        assertThat(FlinkLineCheck.problem(null, "2.2", null)).isEmpty();
        assertThat(FlinkLineCheck.problem("2.3.0", null, null)).isEmpty();
    }

    @Test
    void theBuildStopsOnAProjectOfAnotherLineNamingItsConnector() {
        MavenSession session = session(new Properties(), project("2.3.0", "2.2"));

        assertThatThrownBy(() -> new FlinkLineCheck().afterProjectsRead(session))
                .isInstanceOf(MavenExecutionException.class)
                .hasMessage(MISMATCH);
    }

    @Test
    void aCommandLinePropertyWinsOverThePoms() {
        Properties commandLine = new Properties();
        commandLine.setProperty("flink.line", "2.3");
        MavenSession fixed = session(commandLine, project("2.3.0", "2.2"));
        assertThatCode(() -> new FlinkLineCheck().afterProjectsRead(fixed))
                .doesNotThrowAnyException();

        commandLine.setProperty("flink.version", "2.2.1");
        commandLine.remove("flink.line");
        MavenSession broken = session(commandLine, project("2.3.0", "2.3"));
        assertThatThrownBy(() -> new FlinkLineCheck().afterProjectsRead(broken))
                .hasMessageStartingWith("flink.version 2.2.1 is not a release of flink.line 2.3");
    }

    private static MavenProject project(String flinkVersion, String flinkLine) {
        Model model = new Model();
        model.setGroupId("com.example");
        model.setArtifactId("my-job");
        model.setVersion("1.0");
        Properties properties = new Properties();
        properties.setProperty("flink.version", flinkVersion);
        properties.setProperty("flink.line", flinkLine);
        model.setProperties(properties);
        Dependency connector = new Dependency();
        connector.setGroupId("org.apache.flink");
        connector.setArtifactId("flink-connector-iggy");
        connector.setVersion("0.1.0-" + flinkLine + "-SNAPSHOT");
        model.setDependencies(List.of(connector));
        return new MavenProject(model);
    }

    @SuppressWarnings("deprecation") // the constructor a test can call without a container
    private static MavenSession session(Properties commandLine, MavenProject project) {
        MavenExecutionRequest request = new DefaultMavenExecutionRequest();
        request.setUserProperties(commandLine);
        MavenSession session =
                new MavenSession(null, null, request, new DefaultMavenExecutionResult());
        session.setProjects(List.of(project));
        return session;
    }
}

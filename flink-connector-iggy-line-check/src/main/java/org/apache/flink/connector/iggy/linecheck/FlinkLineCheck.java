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

import org.apache.maven.AbstractMavenLifecycleParticipant;
import org.apache.maven.MavenExecutionException;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.model.Dependency;
import org.apache.maven.project.MavenProject;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stops a job's build when its {@code flink.version} is not a release of its {@code flink.line}:
 * the connector's version names the line ({@code 0.1.0-2.3} for Flink 2.3), so such a job would
 * pair the cluster's Flink with another line's connector. A job's pom loads it as a build
 * extension, and Maven calls it once every project is read, before it resolves any dependency: the
 * build stops with this message even where the other line's connector is not installed.
 *
 * <p>A property given on the command line wins over the pom's, as in Maven's own interpolation; the
 * pom's includes what its active profiles set. A project without both properties is not checked.
 * Stateless: Maven calls it on its main thread.
 */
public final class FlinkLineCheck extends AbstractMavenLifecycleParticipant {

    /** A Flink release, major.minor.patch with anything after it; group 1 is its line. */
    private static final Pattern RELEASE = Pattern.compile("^(\\d+\\.\\d+)\\.\\d+.*$");

    private static final Set<String> CONNECTORS =
            Set.of("flink-connector-iggy", "flink-sql-connector-iggy");

    @Override
    public void afterProjectsRead(MavenSession session) throws MavenExecutionException {
        for (MavenProject project : session.getProjects()) {
            Optional<String> problem =
                    problem(
                            property(session, project, "flink.version"),
                            property(session, project, "flink.line"),
                            connectorVersion(project));
            if (problem.isPresent()) {
                throw new MavenExecutionException(problem.get(), project.getFile());
            }
        }
    }

    /**
     * What is wrong with pairing {@code flinkVersion} with {@code flinkLine}, if anything; {@code
     * connectorVersion} is the connector the project depends on, {@code null} if it names none.
     */
    static Optional<String> problem(
            String flinkVersion, String flinkLine, String connectorVersion) {
        if (flinkVersion == null || flinkLine == null) {
            return Optional.empty();
        }
        Matcher release = RELEASE.matcher(flinkVersion);
        if (!release.matches()) {
            return Optional.of(
                    String.format(
                            "flink.version %s is not a Flink release: set it to your cluster's"
                                    + " and flink.line to its line, e.g."
                                    + " <flink.version>2.3.0</flink.version> and"
                                    + " <flink.line>2.3</flink.line>.",
                            flinkVersion));
        }
        String line = release.group(1);
        if (line.equals(flinkLine)) {
            return Optional.empty();
        }
        return Optional.of(
                String.format(
                        "flink.version %1$s is not a release of flink.line %2$s, so the job would"
                                + " get the connector of Flink %2$s%3$s. Set both properties to"
                                + " your cluster's: <flink.version>%1$s</flink.version> and"
                                + " <flink.line>%4$s</flink.line>, or build with"
                                + " -Dflink.version=%1$s -Dflink.line=%4$s.",
                        flinkVersion,
                        flinkLine,
                        connectorVersion == null ? "" : " (" + connectorVersion + ")",
                        line));
    }

    private static String property(MavenSession session, MavenProject project, String name) {
        String given = session.getUserProperties().getProperty(name);
        return given != null ? given : project.getProperties().getProperty(name);
    }

    /** The version of the connector the project depends on, or {@code null}. */
    private static String connectorVersion(MavenProject project) {
        return project.getDependencies().stream()
                .filter(
                        d ->
                                "org.apache.flink".equals(d.getGroupId())
                                        && CONNECTORS.contains(d.getArtifactId()))
                .map(Dependency::getVersion)
                .findFirst()
                .orElse(null);
    }
}

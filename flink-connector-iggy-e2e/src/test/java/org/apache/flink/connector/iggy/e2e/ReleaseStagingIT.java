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

import org.apache.flink.connector.iggy.playground.FlinkProcesses;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a user of a published release does, against a staging repository. From a copy of this tree,
 * {@code mvn -Prelease deploy} (docs/development/releasing.md, unsigned here) deploys the artifacts
 * of two Flink lines, 2.2 and 2.3, into a staging directory: for each, the parent pom, the
 * connector, the SQL jar and the test utilities with their sources and javadoc jars, under a
 * version without {@code -SNAPSHOT}, and poms without any {@code ${...}}. Then the job template,
 * with the release's connector version, builds for each line in a fresh local repository that can
 * take the connector only from the staging directory (Flink and the rest from this build's local
 * repository, else Maven Central), and its job runs on that line's Flink (a local cluster in its
 * own JVM) against the in-JVM Iggy server. The line check, the template's build extension, is
 * staged once for every line ({@code 0.1.0}), and stops a template that pairs Flink 2.3 with the
 * 2.2 line before anything is resolved or compiled.
 */
class ReleaseStagingIT {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path HOME =
            Path.of("target", "release-it-" + System.currentTimeMillis()).toAbsolutePath();
    private static final Path STAGING = HOME.resolve("staging");

    /** A user who can take the connector only from the staging directory. */
    private static UserMaven user;

    private static final String RELEASE = "0.1.0";
    private static final List<String> FLINK_VERSIONS = List.of("2.2.0", "2.3.0");
    private static final List<String> ARTIFACTS =
            List.of(
                    "flink-connector-iggy",
                    "flink-sql-connector-iggy",
                    "flink-connector-iggy-test-utils");

    /** What the tree holds besides its sources: build output, a playground, a git checkout. */
    private static final Set<String> NOT_COPIED =
            Set.of("target", ".git", ".playground", ".idea", ".flattened-pom.xml");

    private static final Duration DEPLOY = Duration.ofMinutes(15);
    private static final Duration BUILD = Duration.ofMinutes(10);
    private static final Duration JOB = Duration.ofMinutes(3);

    @BeforeAll
    static void deployEveryLineIntoTheStagingDirectory() throws Exception {
        Path tree = HOME.resolve("tree");
        copyTree(ROOT, tree);
        for (String flink : FLINK_VERSIONS) {
            // the first line deploys the line check, which every line shares
            String notDeployed =
                    flink.equals(FLINK_VERSIONS.get(0))
                            ? "!flink-connector-iggy-e2e"
                            : "!flink-connector-iggy-e2e,!flink-connector-iggy-line-check";
            Maven.run(
                            tree,
                            DEPLOY,
                            List.of(
                                    "-Prelease",
                                    "-Dflink.version=" + flink,
                                    "-pl",
                                    notDeployed,
                                    "-Dmaven.test.skip=true",
                                    "clean",
                                    "deploy",
                                    "-DaltDeploymentRepository=staging::" + STAGING.toUri(),
                                    // unsigned, nothing installed, the checks done by this build
                                    "-Dgpg.skip",
                                    "-Dmaven.install.skip=true",
                                    "-Dspotless.check.skip=true",
                                    "-Drat.skip=true"))
                    .succeeded();
        }
        user = new UserMaven(HOME.resolve("user"), Map.of("staging", STAGING));
    }

    @Test
    void eachLineIsStagedWithSourcesJavadocAndResolvedPoms() throws IOException {
        for (String flink : FLINK_VERSIONS) {
            String version = release(flink);
            Path parent = staged("flink-connector-iggy-parent", version);
            assertThat(parent.resolve("flink-connector-iggy-parent-" + version + ".pom"))
                    .isRegularFile();
            for (String artifact : ARTIFACTS) {
                Path folder = staged(artifact, version);
                for (String suffix : List.of(".pom", ".jar", "-sources.jar", "-javadoc.jar")) {
                    assertThat(folder.resolve(artifact + "-" + version + suffix)).isRegularFile();
                }
            }
            assertThat(
                            Files.readString(
                                    staged("flink-connector-iggy", version)
                                            .resolve("flink-connector-iggy-" + version + ".pom")))
                    .as("the connector's dependencies, of Flink %s", flink)
                    .contains(
                            "<artifactId>flink-connector-base</artifactId>\n      <version>"
                                    + flink
                                    + "</version>");
            Path sqlJar =
                    staged("flink-sql-connector-iggy", version)
                            .resolve("flink-sql-connector-iggy-" + version + ".jar");
            try (JarFile jar = new JarFile(sqlJar.toFile())) {
                assertThat(jar.stream().map(e -> e.getName()))
                        .as("the SQL jar, with the SDK relocated")
                        .contains(
                                "org/apache/flink/connector/iggy/table/IggyDynamicTableFactory.class")
                        .anyMatch(
                                e ->
                                        e.startsWith(
                                                "org/apache/flink/connector/iggy/shaded/org/apache/iggy/"))
                        .noneMatch(e -> e.startsWith("org/apache/iggy/"));
            }
        }
        Path lineCheck = staged("flink-connector-iggy-line-check", RELEASE);
        for (String suffix : List.of(".pom", ".jar", "-sources.jar", "-javadoc.jar")) {
            assertThat(lineCheck.resolve("flink-connector-iggy-line-check-" + RELEASE + suffix))
                    .isRegularFile();
        }
        try (Stream<Path> files = Files.walk(STAGING)) {
            for (Path pom : files.filter(p -> p.toString().endsWith(".pom")).toList()) {
                String text = Files.readString(pom);
                assertThat(text).as("%s", pom).doesNotContain("${", "SNAPSHOT");
                assertThat(text)
                        .as("%s", pom)
                        .contains("<version>" + pom.getParent().getFileName() + "</version>");
            }
        }
    }

    @Test
    void theJobTemplateBuildsAgainstTheStagedConnectorAndRunsOnEachLine() throws Exception {
        for (String flink : FLINK_VERSIONS) {
            Path template = copyTemplate(flink, line(flink));
            Path classpath = template.resolve("flink.classpath");
            user.run(
                            template,
                            BUILD,
                            "package",
                            "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath",
                            "-Dmdep.includeScope=provided",
                            "-Dmdep.outputFile=" + classpath)
                    .succeeded();
            assertThat(
                            Files.readString(
                                    user.repository()
                                            .resolve(
                                                    "org/apache/flink/flink-connector-iggy/"
                                                            + release(flink)
                                                            + "/_remote.repositories")))
                    .as("where the connector of Flink %s came from", flink)
                    .contains(">staging=");

            Path jar = template.resolve("target/my-iggy-job-1.0-SNAPSHOT.jar");
            runsAndWritesTheUpperCasedEvents(jar, Files.readString(classpath).strip(), flink);
        }
    }

    @Test
    void aTemplatePairingFlink23WithThe22LineStopsBeforeResolvingAnything() throws Exception {
        Path template = copyTemplate("2.3.0", "2.2");

        EndedProcess run = user.run(template, BUILD, "package");

        assertThat(run.exitCode()).as("exit code; it printed:%n%s", run.printed()).isNotZero();
        assertThat(run.printed())
                .contains(
                        "flink.version 2.3.0 is not a release of flink.line 2.2, so the job would"
                                + " get the connector of Flink 2.2 (0.1.0-2.2).")
                .doesNotContain("maven-compiler-plugin", "Could not resolve dependencies");
    }

    /**
     * Runs the job jar's {@code main} as the IDE or a test would, on {@code flinkClasspath} (Flink
     * {@code flink}'s local cluster), until it has written every message of {@code shop/events} in
     * upper case to {@code shop/output}.
     */
    private static void runsAndWritesTheUpperCasedEvents(
            Path jar, String flinkClasspath, String flink) throws Exception {
        if (IGGY.isExternal()) {
            try {
                IGGY.deleteStream("shop");
            } catch (RuntimeException noSuchStream) {
                // the first run on this server
            }
        }
        IGGY.createStream("shop");
        IGGY.createTopic("shop", "events", 1);
        IGGY.createTopic("shop", "output", 1);
        IGGY.send(
                "shop",
                "events",
                0,
                List.of(
                        "k1=v1".getBytes(StandardCharsets.UTF_8),
                        "k2=v2".getBytes(StandardCharsets.UTF_8)));
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.addAll(FlinkProcesses.JAVA_17_OPTIONS);
        command.add("-classpath");
        command.add(jar + File.pathSeparator + flinkClasspath);
        command.add("com.example.MyJob");
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(HOME.resolve("my-job-" + flink + ".out").toFile());
        builder.environment().put("IGGY_TCP_ADDRESS", IGGY.address());
        builder.environment().put("IGGY_USERNAME", IGGY.username());
        builder.environment().put("IGGY_PASSWORD", IGGY.password());
        Process job = builder.start();
        try {
            assertThat(IGGY.awaitMessages("shop", "output", 0, 2, JOB))
                    .as("what the job on Flink %s wrote", flink)
                    .extracting(m -> new String(m.payload(), StandardCharsets.UTF_8))
                    .containsExactly("K1=V1", "K2=V2");
        } finally {
            job.descendants().forEach(ProcessHandle::destroyForcibly);
            job.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            IGGY.deleteStream("shop");
        }
    }

    /**
     * A copy of {@code job-template/} with the pom's Flink release and line set as a user sets
     * them, and the release's versions of the connector and the line check (the template names the
     * snapshots).
     */
    private static Path copyTemplate(String flinkVersion, String flinkLine) throws IOException {
        Path copy = HOME.resolve("template-" + flinkVersion + "-" + flinkLine);
        JobTemplate.copy(copy, flinkVersion, flinkLine);
        JobTemplate.setRelease(copy, RELEASE);
        return copy;
    }

    /** Copies a folder's files but {@link #NOT_COPIED}. */
    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file :
                    files.filter(
                                    p ->
                                            from.relativize(p).toString().isEmpty()
                                                    || Stream.of(
                                                                    from.relativize(p)
                                                                            .toString()
                                                                            .split("/"))
                                                            .noneMatch(NOT_COPIED::contains))
                            .toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }

    private static Path staged(String artifact, String version) {
        return STAGING.resolve("org/apache/flink").resolve(artifact).resolve(version);
    }

    /** The release version for a Flink release: 0.1.0-2.3 for 2.3.0. */
    private static String release(String flink) {
        return RELEASE + "-" + line(flink);
    }

    private static String line(String flink) {
        return flink.substring(0, flink.lastIndexOf('.'));
    }
}

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

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The job project of docs/getting-started.md ({@code job-template/}, whose {@code pom.xml} the page
 * shows as it is) builds with Maven into a job jar that holds the job, the connector and the SDK,
 * but not Flink. It is built with this repository's connector, through the {@code job-template}
 * profile of the root {@code pom.xml}, for the Flink release the running build is for.
 */
class JobTemplateIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theDocumentedPomBuildsAJobJarWithTheConnectorAndWithoutFlink() throws Exception {
        String mavenHome = System.getProperty("job-template-it.maven-home", "");
        Path mvn = mavenHome.isEmpty() ? Path.of("mvn") : Path.of(mavenHome, "bin", "mvn");
        List<String> command =
                new ArrayList<>(
                        List.of(
                                mvn.toString(),
                                "-B",
                                "-q",
                                // the build running this test resolved everything it needs
                                "-o",
                                "-Pjob-template",
                                "-pl",
                                "job-template",
                                "-am",
                                "-Dmaven.test.skip=true",
                                "-Dspotless.check.skip=true",
                                "-Drat.skip=true",
                                // the running build's Flink, for the connector and the template
                                // alike, as a user of that line sets flink.version in the pom
                                "-Dflink.version="
                                        + System.getProperty(
                                                "job-template-it.flink-version", "2.2.0"),
                                "package"));
        Path output = Files.createTempFile(Path.of("target"), "job-template-it", ".out");
        Process build =
                new ProcessBuilder(command)
                        .directory(ROOT.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                        .start();
        boolean ended = build.waitFor(15, TimeUnit.MINUTES);
        if (!ended) {
            build.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(ended).as("%s ended; it printed:%n%s", command, printed).isTrue();
        assertThat(build.exitValue()).as("exit of %s; it printed:%n%s", command, printed).isZero();

        Path jar = ROOT.resolve("job-template/target/my-iggy-job-1.0-SNAPSHOT.jar");
        try (JarFile job = new JarFile(jar.toFile())) {
            List<String> entries = job.stream().map(e -> e.getName()).toList();
            assertThat(entries)
                    .contains(
                            "com/example/MyJob.class",
                            "org/apache/flink/connector/iggy/source/IggySource.class")
                    .anyMatch(e -> e.startsWith("org/apache/iggy/"))
                    .noneMatch(e -> e.startsWith("org/apache/flink/streaming/api/"));
            assertThat(job.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo("com.example.MyJob");
        }
    }
}

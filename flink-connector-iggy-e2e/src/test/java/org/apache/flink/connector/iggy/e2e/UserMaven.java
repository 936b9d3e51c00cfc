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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maven as a user runs it in a project of their own: with a new local repository and a settings
 * file whose repositories are the given ones, then this build's local repository for releases only
 * (Flink and the plugins, copied rather than downloaded; never a snapshot this build installed,
 * such as a connector), and Maven Central behind them.
 */
final class UserMaven {

    private static final Path LINE_CHECK =
            Path.of("..", "flink-connector-iggy-line-check").toAbsolutePath().normalize();

    private final Path repository;
    private final Path settings;

    /**
     * A user whose files live under {@code home}, with {@code repositories} (id to folder) searched
     * first, in their order.
     */
    UserMaven(Path home, Map<String, Path> repositories) throws IOException {
        this.repository = home.resolve("user-repository");
        this.settings = home.resolve("settings.xml");
        Map<String, Path> all = new LinkedHashMap<>(repositories);
        all.put("build-local-repository", Path.of(System.getProperty("user-maven.repository")));
        Files.createDirectories(home);
        Files.writeString(settings, settings(all), StandardCharsets.UTF_8);
    }

    /** The user's local repository. */
    Path repository() {
        return repository;
    }

    /** Runs {@code mvn goalsAndOptions} in {@code folder}, as this user. */
    EndedProcess run(Path folder, Duration timeout, String... goalsAndOptions)
            throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>();
        arguments.add("-s");
        arguments.add(settings.toString());
        arguments.add("-Dmaven.repo.local=" + repository);
        arguments.addAll(List.of(goalsAndOptions));
        return Maven.run(folder, timeout, arguments);
    }

    /**
     * Puts the line check this build made into the user's local repository, as installing any line
     * of the connector does, and nothing else of the connector's.
     */
    void installLineCheck() throws IOException {
        String version = System.getProperty("user-maven.line-check-version");
        String name = "flink-connector-iggy-line-check-" + version;
        Path folder =
                repository.resolve("org/apache/flink/flink-connector-iggy-line-check/" + version);
        Files.createDirectories(folder);
        Files.copy(
                LINE_CHECK.resolve("target").resolve(name + ".jar"), folder.resolve(name + ".jar"));
        Files.copy(LINE_CHECK.resolve(".flattened-pom.xml"), folder.resolve(name + ".pom"));
    }

    /**
     * Neither repository has a {@code maven-metadata.xml} to check or checksums to compare for what
     * it holds; the versions are fixed.
     */
    private static String settings(Map<String, Path> repositories) {
        String repository =
                "<id>%s</id><url>%s</url>"
                        + "<releases><checksumPolicy>ignore</checksumPolicy></releases>"
                        + "<snapshots><enabled>false</enabled></snapshots>";
        StringBuilder text =
                new StringBuilder("<settings><profiles><profile><id>user</id><repositories>");
        repositories.forEach(
                (id, folder) ->
                        text.append("<repository>")
                                .append(String.format(repository, id, folder.toUri()))
                                .append("</repository>"));
        text.append("</repositories><pluginRepositories>");
        repositories.forEach(
                (id, folder) ->
                        text.append("<pluginRepository>")
                                .append(String.format(repository, id, folder.toUri()))
                                .append("</pluginRepository>"));
        return text.append("</pluginRepositories></profile></profiles>")
                .append("<activeProfiles><activeProfile>user</activeProfile></activeProfiles>")
                .append("</settings>\n")
                .toString();
    }
}

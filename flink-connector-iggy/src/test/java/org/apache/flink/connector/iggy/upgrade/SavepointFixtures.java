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
package org.apache.flink.connector.iggy.upgrade;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.runtime.util.EnvironmentInformation;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.stream.Stream;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/** Savepoints stored as test fixtures: copying them in and out, waiting for a job's end. */
final class SavepointFixtures {

    private SavepointFixtures() {}

    /** Copies the files of a savepoint directory. */
    static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.copy(
                        file,
                        to.resolve(file.getFileName().toString()),
                        StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /**
     * Stores a savepoint taken by the running Flink under {@code
     * src/test/resources/<fixtures>/flink-<version>}, to be committed.
     */
    static void store(String savepoint, String fixtures) throws IOException {
        Path target =
                Paths.get(System.getProperty("basedir", "."))
                        .resolve("src/test/resources")
                        .resolve(fixtures)
                        .resolve("flink-" + EnvironmentInformation.getVersion());
        copy(Paths.get(URI.create(savepoint)), target);
        assertThat(target.resolve("_metadata")).exists();
    }

    /** Creates {@code stream}, deleting first what a real server kept of an earlier run. */
    static void recreateStream(IggyServerExtension iggy, String stream) {
        if (iggy.isExternal()) {
            try {
                iggy.deleteStream(stream);
            } catch (RuntimeException noSuchStream) {
                // the first run on this server
            }
        }
        iggy.createStream(stream);
    }

    static void waitForStatus(
            ClusterClient<?> client, JobID job, JobStatus status, Duration timeout)
            throws InterruptedException {
        waitUntil(
                "job " + job + " is " + status,
                timeout,
                () -> client.getJobStatus(job).get() == status);
    }
}

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

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process that ran to its end: its command, exit code and what it printed (stdout and stderr).
 */
record EndedProcess(String command, int exitCode, String printed) {

    /**
     * Runs {@code builder}'s process with nothing on its input, its output in a file under {@code
     * target}; fails if it does not end within {@code timeout}.
     */
    static EndedProcess run(ProcessBuilder builder, Duration timeout)
            throws IOException, InterruptedException {
        Path output = Files.createTempFile(Path.of("target"), "process", ".out");
        Process process =
                builder.redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                        .start();
        boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!ended) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        String command = String.join(" ", builder.command());
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(ended)
                .as("'%s' ended within %s; it printed:%n%s", command, timeout, printed)
                .isTrue();
        return new EndedProcess(command, process.exitValue(), printed);
    }

    /** What it printed, or fails naming the command when it did not succeed. */
    String succeeded() {
        assertThat(exitCode).as("exit code of '%s'; it printed:%n%s", command, printed).isZero();
        return printed;
    }
}

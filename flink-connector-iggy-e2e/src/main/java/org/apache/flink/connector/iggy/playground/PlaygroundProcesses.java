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
package org.apache.flink.connector.iggy.playground;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * The processes the playground started, recorded in {@code <home>/processes} (name, process id,
 * start time) so that each command of {@code playground.sh}, a JVM of its own, finds them again,
 * and only them: a process id the operating system gave to another process since does not match.
 * Used by one thread of one command at a time.
 */
final class PlaygroundProcesses {

    private static final Duration STOP = Duration.ofSeconds(30);

    private final Path home;
    private final Path file;

    /** One process the playground started: enough to find it again, and only it. */
    record Started(String name, long pid, Instant startedAt) {
        String line() {
            return name + " " + pid + " " + startedAt;
        }

        static Started parse(String line) {
            String[] parts = line.trim().split(" ");
            return new Started(parts[0], Long.parseLong(parts[1]), Instant.parse(parts[2]));
        }

        /** The process, if it is still the one started (a reused process id is not). */
        Optional<ProcessHandle> handle() {
            return ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .filter(h -> h.info().startInstant().map(startedAt::equals).orElse(false));
        }

        boolean isRunning() {
            return handle().isPresent();
        }
    }

    PlaygroundProcesses(Path home) {
        this.home = home;
        this.file = home.resolve("processes");
    }

    /** Every process recorded, in the order started, ended ones too. */
    List<Started> recorded() throws IOException {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank())
                .map(Started::parse)
                .toList();
    }

    /** The recorded processes still running, in the order started. */
    List<Started> running() throws IOException {
        return recorded().stream().filter(Started::isRunning).toList();
    }

    boolean isRunning(String name) throws IOException {
        return running().stream().anyMatch(s -> s.name().equals(name));
    }

    /**
     * Starts {@code command} as {@code name}, its output in {@code <home>/<name>.out}, and records
     * it.
     */
    Started launch(String name, List<String> command) throws IOException {
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(home.resolve(name + ".out").toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
                        .start();
        Instant startedAt =
                process.info()
                        .startInstant()
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                "The operating system does not tell when "
                                                        + name
                                                        + " started"));
        Started started = new Started(name, process.pid(), startedAt);
        Files.writeString(
                file,
                started.line() + "\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        return started;
    }

    /** Keeps only the records of {@code kept} that still run; no file when none does. */
    void retain(List<Started> kept) throws IOException {
        List<Started> running = kept.stream().filter(Started::isRunning).toList();
        if (running.isEmpty()) {
            Files.deleteIfExists(file);
        } else {
            Files.writeString(
                    file,
                    running.stream().map(s -> s.line() + "\n").collect(Collectors.joining()),
                    StandardCharsets.UTF_8);
        }
    }

    /** Ends the process: asks it to exit, kills it if it does not within 30 seconds. */
    static void end(ProcessHandle process) throws InterruptedException {
        process.destroy();
        if (!exited(process)) {
            kill(process);
        }
    }

    /** Kills the process at once (SIGKILL), as a lost machine ends it, and waits until it ended. */
    static void kill(ProcessHandle process) throws InterruptedException {
        process.destroyForcibly();
        if (!exited(process)) {
            throw new IllegalStateException(
                    "Process " + process.pid() + " did not end, not even when killed");
        }
    }

    private static boolean exited(ProcessHandle process) throws InterruptedException {
        try {
            process.onExit().get(STOP.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        }
    }

    private static File nullDevice() {
        return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }
}

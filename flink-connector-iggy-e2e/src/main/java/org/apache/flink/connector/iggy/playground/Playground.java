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
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * The playground that {@code playground.sh} drives: an in-JVM Iggy server with the streams and
 * topics the documentation uses, a Flink JobManager (web UI) and a TaskManager, each its own
 * process started from Maven artifacts, and Flink's SQL client with the SQL jar.
 *
 * <p>{@code start} leaves the processes running and records them (process id and start time) in
 * {@code <home>/processes}; {@code stop} ends exactly those; {@code sql} runs the SQL client and
 * {@code flink} Flink's command-line client in the foreground. Single-threaded: everything runs on
 * the main thread.
 */
public final class Playground {

    /** The topics every page of the documentation uses, all in stream {@code shop}. */
    public static final List<String> TOPICS =
            List.of(
                    "shop/events",
                    "shop/latest",
                    "shop/orders",
                    "shop/customers",
                    "shop/raw-topic",
                    "shop/output");

    private static final String LISTENING = "Embedded Iggy server listening on ";

    /**
     * The root user the playground starts its server with (the docs' tables name it), and hands to
     * the jobs {@code flink} submits.
     */
    private static final String PLAYGROUND_USERNAME = "iggy";

    private static final String PLAYGROUND_PASSWORD = "iggy";
    private static final Duration IGGY_START = Duration.ofSeconds(60);
    private static final Duration CLUSTER_START = Duration.ofSeconds(180);
    private static final Duration STOP = Duration.ofSeconds(30);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(200);

    private final Path home;
    private final Path processesFile;
    private final Settings settings;

    /** Where things are and which ports to use; from system properties and the environment. */
    record Settings(
            Path home,
            Path iggyJar,
            Path sqlJar,
            String clusterClasspath,
            String clientClasspath,
            int iggyPort,
            int restPort) {

        static Settings from(Map<String, String> env) throws IOException {
            return new Settings(
                    Path.of(property("playground.home")),
                    Path.of(property("playground.iggy-jar")),
                    Path.of(property("playground.sql-jar")),
                    Files.readString(Path.of(property("playground.cluster-classpath"))).trim(),
                    Files.readString(Path.of(property("playground.client-classpath"))).trim(),
                    port(env, "IGGY_PORT", 8090),
                    port(env, "FLINK_REST_PORT", 8081));
        }

        private static String property(String name) {
            String value = System.getProperty(name);
            if (value == null || value.isEmpty()) {
                throw new IllegalArgumentException(
                        "System property " + name + " is missing: run playground.sh");
            }
            return value;
        }

        private static int port(Map<String, String> env, String name, int fallback) {
            String value = env.get(name);
            if (value == null || value.isEmpty()) {
                return fallback;
            }
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a port number, got " + value);
            }
        }
    }

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
    }

    Playground(Settings settings) {
        this.settings = settings;
        this.home = settings.home().toAbsolutePath();
        this.processesFile = home.resolve("processes");
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println(
                    "Usage: playground.sh start|stop|sql|flink [SQL client or flink options]");
            System.exit(2);
        }
        int exit;
        try {
            Playground playground = new Playground(Settings.from(System.getenv()));
            List<String> rest = List.of(args).subList(1, args.length);
            switch (args[0]) {
                case "start":
                    exit = playground.start();
                    break;
                case "stop":
                    exit = playground.stop();
                    break;
                case "sql":
                    exit = playground.sql(rest);
                    break;
                case "flink":
                    exit = playground.flink(rest);
                    break;
                default:
                    System.err.println(
                            "Unknown command '" + args[0] + "': start, stop, sql or flink");
                    exit = 2;
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println(e.getMessage());
            exit = 1;
        }
        System.exit(exit);
    }

    /** Starts the server and the cluster and returns once the TaskManager registered. */
    int start() throws IOException, InterruptedException {
        if (!running().isEmpty()) {
            System.err.println(
                    "The playground is running already ("
                            + home
                            + "): stop it with ./playground.sh stop");
            return 1;
        }
        requireFree(settings.iggyPort(), "IGGY_PORT");
        requireFree(settings.restPort(), "FLINK_REST_PORT");
        Files.createDirectories(home);
        Files.deleteIfExists(processesFile);
        try {
            List<String> iggy = new ArrayList<>();
            iggy.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            iggy.add("-Xmx256m");
            iggy.add("-jar");
            iggy.add(settings.iggyJar().toAbsolutePath().toString());
            iggy.add("--port");
            iggy.add(String.valueOf(settings.iggyPort()));
            iggy.add("--username");
            iggy.add(PLAYGROUND_USERNAME);
            iggy.add("--password");
            iggy.add(PLAYGROUND_PASSWORD);
            for (String topic : TOPICS) {
                iggy.add("--topic");
                iggy.add(topic);
            }
            launch("iggy", iggy);
            awaitLine(home.resolve("iggy.out"), LISTENING, IGGY_START);

            Path confDir = FlinkProcesses.writeConfig(home, settings.restPort(), 2);
            launch(
                    "jobmanager",
                    FlinkProcesses.clusterProcessCommand(
                            FlinkProcesses.JOB_MANAGER_MAIN,
                            FlinkProcesses.JOB_MANAGER_JVM_OPTIONS,
                            confDir,
                            home.resolve("jobmanager.log"),
                            settings.clusterClasspath(),
                            List.of()));
            launch(
                    "taskmanager",
                    FlinkProcesses.clusterProcessCommand(
                            FlinkProcesses.TASK_MANAGER_MAIN,
                            FlinkProcesses.TASK_MANAGER_JVM_OPTIONS,
                            confDir,
                            home.resolve("taskmanager.log"),
                            settings.clusterClasspath(),
                            List.of("-Dtaskmanager.resource-id=taskmanager")));
            awaitTaskManager();
        } catch (IOException | RuntimeException e) {
            System.err.println("The playground did not start: " + e.getMessage());
            System.err.println("Logs: " + home);
            stop();
            return 1;
        }
        System.out.println(
                "Iggy server: 127.0.0.1:"
                        + settings.iggyPort()
                        + " (user iggy, password iggy), stream shop with topics "
                        + String.join(", ", TOPICS.stream().map(t -> t.substring(5)).toList()));
        System.out.println("Flink web UI: http://localhost:" + settings.restPort());
        System.out.println("Logs: " + home + "; stop everything with ./playground.sh stop");
        return 0;
    }

    /** Ends every process {@code start} recorded that still runs; returns 0 once all ended. */
    int stop() throws IOException, InterruptedException {
        List<Started> started = recorded();
        int stopped = 0;
        // The last started first: the TaskManager, the JobManager, then the server.
        for (int i = started.size() - 1; i >= 0; i--) {
            Optional<ProcessHandle> process = started.get(i).handle();
            if (process.isPresent()) {
                end(process.get());
                stopped++;
            }
        }
        Files.deleteIfExists(processesFile);
        System.out.println(
                stopped == 0
                        ? "Nothing of the playground was running."
                        : "Stopped the playground (" + stopped + " processes).");
        return 0;
    }

    /** Runs Flink's SQL client in the foreground against the running cluster. */
    int sql(List<String> clientArguments) throws IOException, InterruptedException {
        Path confDir = home.resolve("conf");
        return foreground(
                FlinkProcesses.sqlClientCommand(
                        confDir,
                        home.resolve("sql-client.log"),
                        settings.clusterClasspath(),
                        settings.clientClasspath(),
                        settings.sqlJar(),
                        clientArguments),
                Map.of());
    }

    /**
     * Runs Flink's command-line client ({@code flink run}, {@code list}, {@code cancel}, ...) in
     * the foreground against the running cluster, with {@code IGGY_TCP_ADDRESS} naming the
     * playground's server and {@code IGGY_USERNAME}/{@code IGGY_PASSWORD} its root user: a job's
     * {@code main} runs in this client and may read them.
     */
    int flink(List<String> arguments) throws IOException, InterruptedException {
        return foreground(
                FlinkProcesses.flinkCliCommand(
                        home.resolve("conf"),
                        home.resolve("flink-cli.log"),
                        settings.clusterClasspath(),
                        arguments),
                Map.of(
                        "IGGY_TCP_ADDRESS",
                        "127.0.0.1:" + settings.iggyPort(),
                        "IGGY_USERNAME",
                        PLAYGROUND_USERNAME,
                        "IGGY_PASSWORD",
                        PLAYGROUND_PASSWORD));
    }

    /** Runs a client of the running cluster in the foreground, in this terminal. */
    private int foreground(List<String> command, Map<String, String> env)
            throws IOException, InterruptedException {
        if (running().size() < 3) {
            System.err.println(
                    "The playground is not running: start it with ./playground.sh start");
            return 1;
        }
        ProcessBuilder client = new ProcessBuilder(command).inheritIO();
        client.environment().put("FLINK_CONF_DIR", home.resolve("conf").toString());
        client.environment().putAll(env);
        return client.start().waitFor();
    }

    private void launch(String name, List<String> command) throws IOException {
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
        Files.writeString(
                processesFile,
                new Started(name, process.pid(), startedAt).line() + "\n",
                StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }

    private List<Started> recorded() throws IOException {
        if (!Files.isRegularFile(processesFile)) {
            return List.of();
        }
        return Files.readAllLines(processesFile, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank())
                .map(Started::parse)
                .toList();
    }

    private List<Started> running() throws IOException {
        return recorded().stream().filter(s -> s.handle().isPresent()).toList();
    }

    private static void end(ProcessHandle process) throws InterruptedException {
        process.destroy();
        try {
            process.onExit().get(STOP.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            process.destroyForcibly();
            try {
                process.onExit().get(STOP.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException again) {
                throw new IllegalStateException(
                        "Process " + process.pid() + " did not end, not even when killed");
            }
        }
    }

    private static void requireFree(int port, String variable) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            socket.setReuseAddress(true);
        } catch (IOException e) {
            throw new IllegalStateException(
                    "Port "
                            + port
                            + " is in use: stop what uses it, or choose another port with "
                            + variable
                            + "=PORT");
        }
    }

    private void awaitLine(Path file, String prefix, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.isRegularFile(file)
                || Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                        .noneMatch(line -> line.startsWith(prefix))) {
            requireAlive();
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(
                        "No '" + prefix.trim() + "' in " + file + " within " + timeout);
            }
            LockSupport.parkNanos(POLL_INTERVAL.toNanos());
        }
    }

    private void awaitTaskManager() throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request =
                HttpRequest.newBuilder(
                                URI.create(
                                        "http://localhost:"
                                                + settings.restPort()
                                                + "/v1/taskmanagers"))
                        .timeout(Duration.ofSeconds(10))
                        .build();
        long deadline = System.nanoTime() + CLUSTER_START.toNanos();
        while (true) {
            requireAlive();
            try {
                HttpResponse<String> response =
                        http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"taskmanager\"")) {
                    return;
                }
            } catch (IOException e) {
                // not answering yet
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(
                        "The TaskManager did not register within " + CLUSTER_START);
            }
            LockSupport.parkNanos(POLL_INTERVAL.toNanos());
        }
    }

    private void requireAlive() throws IOException {
        for (Started started : recorded()) {
            if (started.handle().isEmpty()) {
                throw new IllegalStateException(
                        started.name()
                                + " exited; see "
                                + home.resolve(started.name() + ".out")
                                + " and "
                                + home.resolve(started.name() + ".log"));
            }
        }
    }

    private static File nullDevice() {
        return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }
}

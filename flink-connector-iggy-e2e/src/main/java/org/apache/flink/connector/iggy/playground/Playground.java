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

import org.apache.flink.connector.iggy.playground.PlaygroundProcesses.Started;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The playground that {@code playground.sh} drives: an in-JVM Iggy server with the streams and
 * topics the documentation uses, a Flink JobManager (web UI) and TaskManagers, each its own process
 * started from Maven artifacts, and Flink's SQL client with the SQL jar.
 *
 * <p>{@code start} leaves the processes running and records them ({@link PlaygroundProcesses});
 * {@code stop} ends Flink's and keeps the Iggy server, whose data lives in its memory, unless told
 * {@code --all}; the next {@code start} starts Flink next to the server it kept. {@code taskmanager
 * kill} kills a TaskManager as a lost machine would end it, and {@code taskmanager start} starts
 * one more. {@code sql} runs the SQL client and {@code flink} Flink's command-line client in the
 * foreground. Single-threaded: everything runs on the main thread.
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

    private static final String USAGE =
            "Usage: playground.sh start|stop [--all]|sql|flink|taskmanager start|kill";
    private static final String IGGY = "iggy";
    private static final String JOB_MANAGER = "jobmanager";
    private static final String TASK_MANAGER = "taskmanager-";
    private static final int SLOTS = 2;
    private static final String LISTENING = "Embedded Iggy server listening on ";

    /**
     * The root user the playground starts its server with (the docs' tables name it), and hands to
     * the jobs {@code flink} submits.
     */
    private static final String PLAYGROUND_USERNAME = "iggy";

    private static final String PLAYGROUND_PASSWORD = "iggy";
    private static final Duration IGGY_START = Duration.ofSeconds(60);
    private static final Duration CLUSTER_START = Duration.ofSeconds(180);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(200);

    private final Path home;
    private final PlaygroundSettings settings;
    private final PlaygroundProcesses processes;

    Playground(PlaygroundSettings settings) {
        this.settings = settings;
        this.home = settings.home().toAbsolutePath();
        this.processes = new PlaygroundProcesses(home);
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println(USAGE);
            System.exit(2);
        }
        int exit;
        try {
            Playground playground = new Playground(PlaygroundSettings.from(System.getenv()));
            List<String> rest = List.of(args).subList(1, args.length);
            switch (args[0] + (args[0].equals("taskmanager") ? " " + String.join(" ", rest) : "")) {
                case "start":
                    exit = playground.start();
                    break;
                case "stop":
                    exit = playground.stop(rest);
                    break;
                case "sql":
                    exit = playground.sql(rest);
                    break;
                case "flink":
                    exit = playground.flink(rest);
                    break;
                case "taskmanager start":
                    exit = playground.startTaskManager();
                    break;
                case "taskmanager kill":
                    exit = playground.killTaskManager();
                    break;
                default:
                    System.err.println(
                            "Unknown command '" + String.join(" ", args) + "'. " + USAGE);
                    exit = 2;
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println(e.getMessage());
            exit = 1;
        }
        System.exit(exit);
    }

    /**
     * Starts the server, unless the last {@code stop} kept it, and the cluster; returns once the
     * TaskManager registered.
     */
    int start() throws IOException, InterruptedException {
        if (processes.isRunning(JOB_MANAGER)) {
            System.err.println(
                    "The playground is running already ("
                            + home
                            + "): stop it with ./playground.sh stop, or start a TaskManager with"
                            + " ./playground.sh taskmanager start");
            return 1;
        }
        Files.createDirectories(home);
        processes.retain(processes.running());
        boolean keptIggy = processes.isRunning(IGGY);
        if (keptIggy && isFree(settings.iggyPort())) {
            System.err.println(
                    "The playground's Iggy server runs, but not on port "
                            + settings.iggyPort()
                            + ": set IGGY_PORT as when it started, or stop it with"
                            + " ./playground.sh stop --all");
            return 1;
        }
        try {
            if (!keptIggy) {
                requireFree(settings.iggyPort(), "IGGY_PORT");
            }
            requireFree(settings.restPort(), "FLINK_REST_PORT");
            if (!keptIggy) {
                processes.launch(IGGY, iggyCommand());
                awaitLine(home.resolve(IGGY + ".out"), LISTENING, IGGY_START);
            }
            Path confDir = FlinkProcesses.writeConfig(home, settings.restPort(), SLOTS);
            processes.launch(
                    JOB_MANAGER,
                    FlinkProcesses.clusterProcessCommand(
                            FlinkProcesses.JOB_MANAGER_MAIN,
                            FlinkProcesses.JOB_MANAGER_JVM_OPTIONS,
                            confDir,
                            home.resolve(JOB_MANAGER + ".log"),
                            settings.clusterClasspath(),
                            List.of()));
            launchTaskManager();
        } catch (IOException | RuntimeException e) {
            System.err.println("The playground did not start: " + e.getMessage());
            System.err.println("Logs: " + home);
            stop(keptIggy ? List.of() : List.of("--all"));
            return 1;
        }
        System.out.println(
                "Iggy server: 127.0.0.1:"
                        + settings.iggyPort()
                        + " (user iggy, password iggy), "
                        + (keptIggy
                                ? "kept running with its streams, topics and messages"
                                : "stream shop with topics "
                                        + String.join(
                                                ", ",
                                                TOPICS.stream()
                                                        .map(t -> t.substring(5))
                                                        .toList())));
        System.out.println("Flink web UI: http://localhost:" + settings.restPort());
        System.out.println(
                "Logs: "
                        + home
                        + "; stop Flink with ./playground.sh stop, everything with"
                        + " ./playground.sh stop --all");
        return 0;
    }

    /**
     * Ends the TaskManagers and the JobManager, and with {@code --all} the Iggy server too (its
     * data is lost); returns 0 once they ended.
     */
    int stop(List<String> arguments) throws IOException, InterruptedException {
        boolean all = arguments.equals(List.of("--all"));
        if (!all && !arguments.isEmpty()) {
            throw new IllegalArgumentException(
                    "stop takes nothing or --all, not " + String.join(" ", arguments));
        }
        List<Started> started = processes.recorded();
        List<Started> kept = new ArrayList<>();
        int stopped = 0;
        // The last started first: the TaskManagers, the JobManager, then the server.
        for (int i = started.size() - 1; i >= 0; i--) {
            Started process = started.get(i);
            if (process.name().equals(IGGY) && !all) {
                kept.add(process);
            } else if (process.handle().isPresent()) {
                PlaygroundProcesses.end(process.handle().get());
                stopped++;
            }
        }
        processes.retain(kept);
        boolean iggyRuns = kept.stream().anyMatch(Started::isRunning);
        System.out.println(
                stopped == 0 && !iggyRuns
                        ? "Nothing of the playground was running."
                        : (all ? "Stopped the playground" : "Stopped Flink")
                                + " ("
                                + stopped
                                + " processes).");
        if (iggyRuns) {
            System.out.println(
                    "The Iggy server keeps running on 127.0.0.1:"
                            + settings.iggyPort()
                            + " with its data: ./playground.sh start starts Flink next to it,"
                            + " ./playground.sh stop --all stops it too (its data is lost).");
        }
        return 0;
    }

    /** Starts one more TaskManager and returns once it registered with the JobManager. */
    int startTaskManager() throws IOException, InterruptedException {
        requireRunning();
        String name = launchTaskManager();
        System.out.println(
                "Started "
                        + name
                        + " with "
                        + SLOTS
                        + " slots; its output is in "
                        + home.resolve(name + ".out"));
        return 0;
    }

    /**
     * Kills the TaskManager started last of those running, at once (SIGKILL), as a lost machine
     * ends it: Flink restarts its jobs from their last checkpoints once it has free slots.
     */
    int killTaskManager() throws IOException, InterruptedException {
        List<Started> running =
                processes.running().stream()
                        .filter(s -> s.name().startsWith(TASK_MANAGER))
                        .toList();
        if (running.isEmpty()) {
            System.err.println(
                    "No TaskManager of the playground runs: start one with ./playground.sh"
                            + " taskmanager start");
            return 1;
        }
        Started victim = running.get(running.size() - 1);
        PlaygroundProcesses.kill(victim.handle().orElseThrow());
        System.out.println(
                "Killed "
                        + victim.name()
                        + " (SIGKILL). Its jobs restart from their last checkpoints once a"
                        + " TaskManager has free slots: ./playground.sh taskmanager start starts"
                        + " one.");
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

    /**
     * Runs a client of the running cluster in the foreground, in this terminal; no TaskManager
     * needs to run.
     */
    private int foreground(List<String> command, Map<String, String> env)
            throws IOException, InterruptedException {
        requireRunning();
        ProcessBuilder client = new ProcessBuilder(command).inheritIO();
        client.environment().put("FLINK_CONF_DIR", home.resolve("conf").toString());
        client.environment().putAll(env);
        return client.start().waitFor();
    }

    private void requireRunning() throws IOException {
        if (!processes.isRunning(JOB_MANAGER)) {
            throw new IllegalStateException(
                    "The playground is not running: start it with ./playground.sh start");
        }
    }

    private List<String> iggyCommand() {
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
        return iggy;
    }

    /**
     * Starts a TaskManager named after those recorded ({@code taskmanager-1}, {@code -2}, ...; the
     * name is its resource id) and returns its name once it registered.
     */
    private String launchTaskManager() throws IOException {
        int number = 1;
        for (Started process : processes.recorded()) {
            if (process.name().startsWith(TASK_MANAGER)) {
                number =
                        Math.max(
                                number,
                                Integer.parseInt(process.name().substring(TASK_MANAGER.length()))
                                        + 1);
            }
        }
        String name = TASK_MANAGER + number;
        Started taskManager =
                processes.launch(
                        name,
                        FlinkProcesses.clusterProcessCommand(
                                FlinkProcesses.TASK_MANAGER_MAIN,
                                FlinkProcesses.TASK_MANAGER_JVM_OPTIONS,
                                home.resolve("conf"),
                                home.resolve(name + ".log"),
                                settings.clusterClasspath(),
                                List.of("-Dtaskmanager.resource-id=" + name)));
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
            requireAlive(taskManager);
            try {
                HttpResponse<String> response =
                        http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains('"' + name + '"')) {
                    return name;
                }
            } catch (IOException e) {
                // not answering yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while " + name + " registers");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(name + " did not register within " + CLUSTER_START);
            }
            LockSupport.parkNanos(POLL_INTERVAL.toNanos());
        }
    }

    private void awaitLine(Path file, String prefix, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.isRegularFile(file)
                || Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                        .noneMatch(line -> line.startsWith(prefix))) {
            requireAlive(null);
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(
                        "No '" + prefix.trim() + "' in " + file + " within " + timeout);
            }
            LockSupport.parkNanos(POLL_INTERVAL.toNanos());
        }
    }

    /** Fails naming the logs when the server, the JobManager or {@code awaited} exited. */
    private void requireAlive(Started awaited) throws IOException {
        for (Started started : processes.recorded()) {
            boolean watched =
                    started.name().equals(IGGY)
                            || started.name().equals(JOB_MANAGER)
                            || started.equals(awaited);
            if (watched && !started.isRunning()) {
                throw new IllegalStateException(
                        started.name()
                                + " exited; see "
                                + home.resolve(started.name() + ".out")
                                + " and "
                                + home.resolve(started.name() + ".log"));
            }
        }
    }

    private static void requireFree(int port, String variable) {
        if (!isFree(port)) {
            throw new IllegalStateException(
                    "Port "
                            + port
                            + " is in use: stop what uses it, or choose another port with "
                            + variable
                            + "=PORT");
        }
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            socket.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

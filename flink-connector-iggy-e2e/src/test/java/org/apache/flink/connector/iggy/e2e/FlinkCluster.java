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
import org.apache.flink.connector.iggy.testutils.Conditions;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.util.FileUtils;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A standalone Flink session cluster of separate JVMs (one JobManager, TaskManagers on demand),
 * started from the Maven artifacts listed in {@code target/flink-cluster.classpath} (written by the
 * dependency plugin) instead of a Flink distribution. Talks to it over the REST API only, as a user
 * would.
 */
final class FlinkCluster implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration POLL_INTERVAL = Duration.ofMillis(200);

    private final Path home;
    private final Path confDir;
    private final String classpath;
    private final int restPort;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<Process> processes = new ArrayList<>();
    private Process jobManager;

    /** The TaskManagers started and not killed. */
    private final List<TaskManager> taskManagers = new ArrayList<>();

    private int taskManagersStarted;

    private FlinkCluster(Path home, String classpath, int restPort) {
        this.home = home;
        this.confDir = home.resolve("conf");
        this.classpath = classpath;
        this.restPort = restPort;
        // Should the test JVM end without reaching close() (e.g. killed by a build timeout).
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "flink-cluster-stop"));
    }

    /**
     * Writes the configuration under {@code home} and starts the JobManager and one TaskManager (in
     * parallel: JVM start-up dominates); returns once the TaskManager registered.
     */
    static FlinkCluster start(Path home, int slotsPerTaskManager, Duration timeout)
            throws IOException {
        FlinkCluster cluster = startJobManager(home, slotsPerTaskManager, false);
        try {
            cluster.startTaskManager(timeout);
            return cluster;
        } catch (IOException | RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * A JobManager alone, whose configuration names no checkpoint directory; returns once its REST
     * API answers. For jobs refused when they are built, which need no TaskManager.
     */
    static FlinkCluster startWithoutCheckpointDirectory(Path home, Duration timeout)
            throws IOException {
        FlinkCluster cluster = startJobManager(home, 1, true);
        try {
            cluster.await(
                    "the JobManager's REST API",
                    timeout,
                    () -> cluster.tryGet("/overview") != null);
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private static FlinkCluster startJobManager(
            Path home, int slotsPerTaskManager, boolean withoutCheckpointDirectory)
            throws IOException {
        Path classpathFile = Path.of("target", "flink-cluster.classpath");
        if (!Files.isRegularFile(classpathFile)) {
            throw new IllegalStateException(
                    classpathFile.toAbsolutePath()
                            + " is missing: run the tests through Maven (generate-test-resources"
                            + " writes it)");
        }
        String classpath = Files.readString(classpathFile).trim();
        FlinkCluster cluster = new FlinkCluster(home, classpath, FlinkProcesses.freePort());
        try {
            FlinkProcesses.writeConfig(home, cluster.restPort, slotsPerTaskManager);
            if (withoutCheckpointDirectory) {
                Path config = cluster.confDir.resolve("config.yaml");
                Files.write(
                        config,
                        Files.readAllLines(config).stream()
                                .filter(line -> !line.startsWith("execution.checkpointing.dir:"))
                                .toList());
            }
            cluster.jobManager =
                    cluster.start(
                            "jobmanager",
                            FlinkProcesses.JOB_MANAGER_MAIN,
                            FlinkProcesses.JOB_MANAGER_JVM_OPTIONS,
                            List.of());
            return cluster;
        } catch (IOException | RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** The folder of this cluster's configuration, logs and checkpoints. */
    Path home() {
        return home;
    }

    /** What {@code FLINK_CONF_DIR} names for a Flink client of this cluster. */
    Path confDir() {
        return confDir;
    }

    /** The log4j configuration of every process of this cluster (a file per process). */
    Path log4jConfiguration() {
        return FlinkProcesses.log4jConfiguration(confDir);
    }

    /** The class path of the cluster's processes: a distribution's {@code lib/}. */
    String classpath() {
        return classpath;
    }

    /**
     * Whether a TaskManager this cluster started and did not kill exits within {@code window}: a
     * TaskManager that hit a fatal error shuts down within a few seconds of it.
     */
    boolean taskManagerExitsWithin(Duration window) throws InterruptedException {
        long deadline = System.nanoTime() + window.toNanos();
        for (TaskManager taskManager : taskManagers) {
            long left = Math.max(0, deadline - System.nanoTime());
            if (taskManager.process().waitFor(left, TimeUnit.NANOSECONDS)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Starts a new TaskManager for each one that died (not killed by {@link #killTaskManagerOf} or
     * {@link #loseHostOf}), so that a test that took one down leaves a working cluster to the next.
     */
    void replaceDeadTaskManagers(Duration timeout) throws IOException {
        List<TaskManager> dead =
                taskManagers.stream().filter(tm -> !tm.process().isAlive()).toList();
        taskManagers.removeAll(dead);
        for (int i = 0; i < dead.size(); i++) {
            startTaskManager(timeout);
        }
    }

    /**
     * Starts one more TaskManager JVM; returns once it registered with the JobManager. Like a
     * TaskManager on a host of its own, it has its own local directories ({@code io.tmp.dirs},
     * where local state and spills go) and its own {@code java.io.tmpdir}, in {@code home/<name>}.
     */
    void startTaskManager(Duration timeout) throws IOException {
        String name = "taskmanager-" + (++taskManagersStarted);
        Path local = home.resolve(name).toAbsolutePath();
        Files.createDirectories(local.resolve("io-tmp"));
        Files.createDirectories(local.resolve("java-tmp"));
        List<String> jvmOptions = new ArrayList<>(FlinkProcesses.TASK_MANAGER_JVM_OPTIONS);
        jvmOptions.add("-Djava.io.tmpdir=" + local.resolve("java-tmp"));
        Process process =
                start(
                        name,
                        FlinkProcesses.TASK_MANAGER_MAIN,
                        jvmOptions,
                        List.of(
                                "-Dtaskmanager.resource-id=" + name,
                                "-Dio.tmp.dirs=" + local.resolve("io-tmp")));
        taskManagers.add(new TaskManager(name, process, local));
        await(name + " to register", timeout, () -> registeredTaskManagers().contains(name));
    }

    /**
     * SIGKILLs the TaskManager that runs the job (its one slot) and waits until its process is
     * gone. Flink picks any free slot for a restarted job, so which TaskManager that is is asked,
     * not assumed.
     */
    void killTaskManagerOf(String jobId, Duration timeout) throws InterruptedException {
        TaskManager running = taskManagerOf(jobId, timeout);
        taskManagers.remove(running);
        kill(running);
    }

    /**
     * Loses the host of the TaskManager that runs the job: SIGKILLs it, waits until its process is
     * gone and deletes its local directories.
     */
    void loseHostOf(String jobId, Duration timeout) throws InterruptedException, IOException {
        loseHost(taskManagerOf(jobId, timeout));
    }

    /**
     * Loses the host of the TaskManager whose process has id {@code pid}, as {@link #loseHostOf}.
     */
    void loseHostOfProcess(long pid) throws InterruptedException, IOException {
        loseHost(
                taskManagers.stream()
                        .filter(tm -> tm.process().pid() == pid)
                        .findFirst()
                        .orElseThrow(
                                () ->
                                        new AssertionError(
                                                "No TaskManager of this cluster has process id "
                                                        + pid)));
    }

    private void loseHost(TaskManager lost) throws InterruptedException, IOException {
        taskManagers.remove(lost);
        kill(lost);
        FileUtils.deleteDirectory(lost.local().toFile());
    }

    /**
     * The live TaskManager of this cluster on which every subtask of the job runs, once there is
     * one: a job just restarted may still be reported on the TaskManager it ran on before.
     */
    private TaskManager taskManagerOf(String jobId, Duration timeout) {
        TaskManager[] found = new TaskManager[1];
        awaitJob(
                jobId,
                "every subtask of job " + jobId + " running on one live TaskManager",
                timeout,
                () -> {
                    Set<String> ids = taskManagerIdsOfRunningSubtasks(jobId);
                    found[0] =
                            ids.size() != 1
                                    ? null
                                    : taskManagers.stream()
                                            .filter(tm -> ids.contains(tm.name()))
                                            .filter(tm -> tm.process().isAlive())
                                            .findFirst()
                                            .orElse(null);
                    return found[0] != null;
                });
        return found[0];
    }

    /**
     * The resource ids of the TaskManagers the job's subtasks run on, or an empty set while any
     * subtask is not RUNNING.
     */
    private Set<String> taskManagerIdsOfRunningSubtasks(String jobId) {
        JsonNode job = tryGet("/jobs/" + jobId);
        Set<String> ids = new TreeSet<>();
        if (job == null) {
            return ids;
        }
        for (JsonNode vertex : job.path("vertices")) {
            JsonNode details = tryGet("/jobs/" + jobId + "/vertices/" + vertex.path("id").asText());
            if (details == null) {
                return Set.of();
            }
            for (JsonNode subtask : details.path("subtasks")) {
                if (!subtask.path("status").asText().equals("RUNNING")) {
                    return Set.of();
                }
                ids.add(subtask.path("taskmanager-id").asText());
            }
        }
        return ids;
    }

    /**
     * Where each subtask of the job is and in which state, the live TaskManagers and the job's last
     * failures, for a failure message.
     */
    private String subtasks(String jobId) {
        StringBuilder text = new StringBuilder("\n----- subtasks of job ").append(jobId);
        text.append(" (live TaskManagers: ");
        text.append(
                taskManagers.stream()
                        .filter(tm -> tm.process().isAlive())
                        .map(TaskManager::name)
                        .toList());
        text.append(") -----\n");
        JsonNode job = tryGet("/jobs/" + jobId);
        for (JsonNode vertex : job == null ? JSON.createArrayNode() : job.path("vertices")) {
            JsonNode details = tryGet("/jobs/" + jobId + "/vertices/" + vertex.path("id").asText());
            for (JsonNode subtask :
                    details == null ? JSON.createArrayNode() : details.path("subtasks")) {
                text.append(vertex.path("name").asText())
                        .append(" #")
                        .append(subtask.path("subtask").asInt())
                        .append(": ")
                        .append(subtask.path("status").asText())
                        .append(" on ")
                        .append(subtask.path("taskmanager-id").asText())
                        .append('\n');
            }
        }
        JsonNode exceptions = tryGet("/jobs/" + jobId + "/exceptions");
        JsonNode history =
                exceptions == null
                        ? JSON.createArrayNode()
                        : exceptions.path("exceptionHistory").path("entries");
        text.append("----- the job's last failures, newest first (of ")
                .append(history.size())
                .append(") -----\n");
        for (int i = 0; i < Math.min(5, history.size()); i++) {
            String stacktrace = history.get(i).path("stacktrace").asText();
            text.append(history.get(i).path("taskName").asText())
                    .append(": ")
                    .append(
                            stacktrace
                                    .lines()
                                    .filter(line -> !line.startsWith("\tat "))
                                    .limit(6)
                                    .collect(Collectors.joining(" | ")))
                    .append('\n');
        }
        return text.toString();
    }

    private static void kill(TaskManager taskManager) throws InterruptedException {
        taskManager.process().destroyForcibly();
        if (!taskManager.process().waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError(taskManager.name() + " did not die within 30 s of SIGKILL");
        }
    }

    /** A TaskManager process, with the directories of its "host". */
    private record TaskManager(String name, Process process, Path local) {}

    private Process start(
            String name, String mainClass, List<String> jvmOptions, List<String> dynamicOptions)
            throws IOException {
        List<String> command =
                FlinkProcesses.clusterProcessCommand(
                        mainClass,
                        jvmOptions,
                        confDir,
                        home.resolve(name + ".log"),
                        classpath,
                        dynamicOptions);
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(home.resolve(name + ".out").toFile())
                        .start();
        synchronized (processes) {
            processes.add(process);
        }
        return process;
    }

    // ------------------------------------------------------------------------------- jobs (REST)

    /** Uploads a jar through {@code /jars/upload}; returns its id for {@link #runJar}. */
    String uploadJar(Path jar) throws IOException, InterruptedException {
        String boundary = "----iggy-e2e-" + UUID.randomUUID();
        byte[] head =
                ("--"
                                + boundary
                                + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                                + jar.getFileName()
                                + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                        .getBytes(StandardCharsets.UTF_8);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        HttpRequest request =
                HttpRequest.newBuilder(uri("/jars/upload"))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(
                                HttpRequest.BodyPublishers.concat(
                                        HttpRequest.BodyPublishers.ofByteArray(head),
                                        HttpRequest.BodyPublishers.ofFile(jar),
                                        HttpRequest.BodyPublishers.ofByteArray(tail)))
                        .build();
        String filename = send(request).path("filename").asText();
        return Path.of(filename).getFileName().toString();
    }

    /**
     * Runs the jar's main class with {@code args} through {@code /jars/:id/run}, expecting the
     * cluster to refuse it; returns the answer's body, which names the error.
     */
    String runJarRefused(String jarId, String entryClass, List<String> args)
            throws IOException, InterruptedException {
        HttpResponse<String> response =
                http.send(
                        runRequest(jarId, entryClass, args, Map.of()),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
            throw new AssertionError("The cluster ran the job: " + response.body());
        }
        return response.body();
    }

    /** Runs the jar's main class with {@code args} through {@code /jars/:id/run}; the job id. */
    String runJar(String jarId, String entryClass, List<String> args)
            throws IOException, InterruptedException {
        return runJar(jarId, entryClass, args, Map.of());
    }

    /**
     * Like {@link #runJar(String, String, List)}, with job configuration (e.g. {@code
     * pipeline.classpaths}, what {@code flink run -C} sets).
     */
    String runJar(
            String jarId, String entryClass, List<String> args, Map<String, String> configuration)
            throws IOException, InterruptedException {
        return send(runRequest(jarId, entryClass, args, configuration)).path("jobid").asText();
    }

    private HttpRequest runRequest(
            String jarId, String entryClass, List<String> args, Map<String, String> configuration)
            throws IOException {
        Map<String, Object> body =
                Map.of(
                        "entryClass", entryClass,
                        "programArgsList", args,
                        "parallelism", 1,
                        "flinkConfiguration", configuration);
        return HttpRequest.newBuilder(uri("/jars/" + jarId + "/run"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .build();
    }

    /** The job's state (RUNNING, FINISHED, FAILED, ...). */
    String jobState(String jobId) {
        JsonNode job = tryGet("/jobs/" + jobId);
        return job == null ? "UNKNOWN" : job.path("state").asText();
    }

    /** How many checkpoints of the job completed. */
    long completedCheckpoints(String jobId) {
        JsonNode checkpoints = tryGet("/jobs/" + jobId + "/checkpoints");
        return checkpoints == null ? 0 : checkpoints.path("counts").path("completed").asLong();
    }

    /**
     * When (epoch milliseconds, this host's clock) the job's latest completed checkpoint was
     * triggered, or 0 before any. Unlike a count, which the REST API may answer from a cache a few
     * seconds old, a trigger time later than a kill proves that the restarted job completed it.
     */
    long latestCheckpointTriggeredAt(String jobId) {
        JsonNode checkpoints = tryGet("/jobs/" + jobId + "/checkpoints");
        return checkpoints == null
                ? 0
                : checkpoints.path("latest").path("completed").path("trigger_timestamp").asLong();
    }

    /** The id of the checkpoint the job last restored from, if it restored from any. */
    Optional<Long> restoredCheckpoint(String jobId) {
        JsonNode checkpoints = tryGet("/jobs/" + jobId + "/checkpoints");
        JsonNode restored =
                checkpoints == null ? null : checkpoints.path("latest").path("restored");
        return restored == null || !restored.has("id")
                ? Optional.empty()
                : Optional.of(restored.path("id").asLong());
    }

    /** The ids of the cluster's jobs, running or ended. */
    Set<String> jobIds() {
        JsonNode overview = tryGet("/jobs/overview");
        Set<String> ids = new TreeSet<>();
        if (overview != null) {
            overview.path("jobs").forEach(job -> ids.add(job.path("jid").asText()));
        }
        return ids;
    }

    /**
     * How many failures of the job Flink recorded: one for a job that failed without a restart, one
     * more for each restart that failed again.
     */
    int recordedFailures(String jobId) {
        JsonNode exceptions = tryGet("/jobs/" + jobId + "/exceptions");
        return exceptions == null ? -1 : exceptions.path("exceptionHistory").path("entries").size();
    }

    /** The job's root exception and history, for failure messages. */
    String jobExceptions(String jobId) {
        JsonNode exceptions = tryGet("/jobs/" + jobId + "/exceptions");
        return exceptions == null ? "(no answer)" : exceptions.toPrettyString();
    }

    void cancel(String jobId) throws IOException, InterruptedException {
        HttpRequest request =
                HttpRequest.newBuilder(uri("/jobs/" + jobId + "?mode=cancel"))
                        .method("PATCH", HttpRequest.BodyPublishers.noBody())
                        .build();
        http.send(request, HttpResponse.BodyHandlers.discarding());
    }

    /** Waits until the job reaches {@code state}; fails fast if it reaches another final one. */
    void awaitJobState(String jobId, String state, Duration timeout) {
        await(
                "job " + jobId + " to be " + state,
                timeout,
                () -> {
                    String current = jobState(jobId);
                    if (!current.equals(state)
                            && List.of("FINISHED", "FAILED", "CANCELED").contains(current)) {
                        throw new AssertionError(
                                "Job "
                                        + jobId
                                        + " ended "
                                        + current
                                        + " instead of "
                                        + state
                                        + ":\n"
                                        + jobExceptions(jobId)
                                        + diagnostics());
                    }
                    return current.equals(state);
                });
    }

    /** The resource ids of the TaskManagers the JobManager currently knows. */
    List<String> registeredTaskManagers() {
        JsonNode overview = tryGet("/taskmanagers");
        List<String> ids = new ArrayList<>();
        if (overview != null) {
            overview.path("taskmanagers").forEach(tm -> ids.add(tm.path("id").asText()));
        }
        return ids;
    }

    // ------------------------------------------------------------------------------ diagnostics

    /**
     * Waits until {@code condition} holds; on timeout fails with the tail of every process's log,
     * and at once when the JobManager exits.
     */
    void await(String what, Duration timeout, BooleanSupplier condition) {
        await(what, timeout, () -> "", condition);
    }

    /**
     * {@link #await}, with where the job's subtasks are and its last failures ahead of the logs in
     * the failure message.
     */
    void awaitJob(String jobId, String what, Duration timeout, BooleanSupplier condition) {
        await(what, timeout, () -> subtasks(jobId), condition);
    }

    private void await(
            String what, Duration timeout, Supplier<String> details, BooleanSupplier condition) {
        try {
            Conditions.waitUntil(
                    what,
                    timeout,
                    POLL_INTERVAL,
                    () -> {
                        if (condition.getAsBoolean()) {
                            return true;
                        }
                        if (jobManager != null && !jobManager.isAlive()) {
                            throw new AssertionError(
                                    "The JobManager exited while waiting until "
                                            + what
                                            + diagnostics());
                        }
                        return false;
                    },
                    () -> details.get() + diagnostics());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while waiting until " + what, e);
        }
    }

    /** The last lines of every process's log and console output. */
    String diagnostics() {
        StringBuilder text = new StringBuilder();
        try (var files = Files.list(home)) {
            for (Path file :
                    files.filter(
                                    f ->
                                            f.toString().endsWith(".log")
                                                    || f.toString().endsWith(".out"))
                            .sorted()
                            .toList()) {
                // A checkpoint that cannot start is logged every interval: not what explains.
                List<String> lines =
                        Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                                .filter(line -> !line.contains("Failed to trigger checkpoint"))
                                .toList();
                text.append("\n----- last lines of ").append(file).append(" -----\n");
                lines.subList(Math.max(0, lines.size() - 40), lines.size())
                        .forEach(line -> text.append(line).append('\n'));
            }
        } catch (IOException | UncheckedIOException e) {
            text.append("\n(could not read the logs under ").append(home).append(": ").append(e);
        }
        return text.toString();
    }

    /** Kills every process this cluster started, TaskManagers first, and waits until they died. */
    @Override
    public void close() {
        List<Process> started;
        synchronized (processes) {
            started = new ArrayList<>(processes);
        }
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).destroyForcibly();
        }
        for (Process process : started) {
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    // ------------------------------------------------------------------------------------ HTTP

    private URI uri(String path) {
        return URI.create("http://localhost:" + restPort + "/v1" + path);
    }

    /** GET, or null while the cluster does not answer (yet) or answers an error. */
    private JsonNode tryGet(String path) {
        try {
            HttpResponse<String> response =
                    http.send(
                            HttpRequest.newBuilder(uri(path))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private JsonNode send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError(
                    request.method()
                            + " "
                            + request.uri()
                            + " answered "
                            + response.statusCode()
                            + ": "
                            + response.body()
                            + diagnostics());
        }
        return JSON.readTree(response.body());
    }
}

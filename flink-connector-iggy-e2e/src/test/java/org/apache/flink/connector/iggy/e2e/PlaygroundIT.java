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

import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.playground.FlinkProcesses;
import org.apache.flink.connector.iggy.testutils.Conditions;
import org.apache.flink.runtime.util.EnvironmentInformation;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code playground.sh} as docs/getting-started.md uses it, with one start of the playground for
 * every check: start (which runs a SQL script through Flink's SQL client), the documented send and
 * poll commands, the documented query and SQL quick starts through the SQL client, "Watch a
 * failover" (a topic created, the exactly-once script of table-sql.md run as written by the SQL
 * client, the TaskManager killed under it and another started, every large order counted once),
 * stop, which keeps the Iggy server and its data, start again next to it, the job template and
 * README's job run with {@code flink run} and their output polled (the template also run attached
 * with a wrong password, failing with the connector's message), and stop --all; then no process of
 * the playground may be left and its ports must be free. The playground runs the Flink release this
 * build is for ({@code FLINK_VERSION}; the job template is built for it too), and its own in-JVM
 * server, on free ports here ({@code IGGY_PORT}, {@code FLINK_REST_PORT}, replaced in the scripts
 * too), so {@code IGGY_TCP_ADDRESS} does not apply.
 */
class PlaygroundIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path RESOURCES = Path.of("src", "test", "resources").toAbsolutePath();
    private static final Duration START = Duration.ofMinutes(4);
    private static final Duration COMMAND = Duration.ofMinutes(2);
    private static final Duration SQL = Duration.ofMinutes(5);
    private static final Duration BUILD = Duration.ofMinutes(15);
    private static final Duration JOB = Duration.ofMinutes(3);
    private static final Duration RECHECK = Duration.ofSeconds(1);
    private static final Pattern JOB_ID = Pattern.compile("JobID ([0-9a-f]{32})");
    private static final Pattern SQL_JOB_ID = Pattern.compile("Job ID: ([0-9a-f]{32})");

    /** The checkpoint directory the playground's exactly-once script sets. */
    private static final String SCRIPT_CHECKPOINTS = "file:///tmp/iggy-playground/checkpoints";

    @Test
    void startsRunsQueriesFailsOverRestartsAndStopsLeavingNothingRunning() throws Exception {
        int iggyPort = FlinkProcesses.freePort();
        int restPort = FlinkProcesses.freePort();
        Path home =
                Path.of("target", "playground-it-" + System.currentTimeMillis()).toAbsolutePath();
        // The Flink release this build is for: the playground finds the build is for it and
        // starts without building again.
        String flink = EnvironmentInformation.getVersion();
        Map<String, String> env =
                Map.of(
                        "FLINK_VERSION", flink,
                        "IGGY_PORT", String.valueOf(iggyPort),
                        "FLINK_REST_PORT", String.valueOf(restPort),
                        "PLAYGROUND_HOME", home.toString());
        Path firstScript = Files.createDirectories(home).resolve("first.sql");
        Files.writeString(firstScript, "SHOW CATALOGS;\n");
        String start = "./playground.sh start -f " + firstScript;
        List<String> stop = commands(RESOURCES.resolve("playground/stop.sh"));
        Set<Long> pids = new HashSet<>();
        try {
            String started = run(env, START, start);
            assertThat(started)
                    .doesNotContain("Building")
                    .contains("Flink " + flink + "\n")
                    .contains("stream shop with topics events, latest")
                    .contains("Flink web UI: http://localhost:" + restPort)
                    .contains("default_catalog");
            assertThat(recordPids(home, pids)).hasSize(3);

            List<String> commands = commands(RESOURCES.resolve("playground/send-and-poll.sh"));
            assertThat(run(env, COMMAND, commands.get(0)))
                    .contains("Sent 3 messages to shop/events")
                    .doesNotContain("SLF4J:");
            assertThat(run(env, COMMAND, commands.get(1)))
                    .contains("offset=1 payload=k2=v2", "offset=2 payload=k1=v1b")
                    .doesNotContain("offset=0");

            assertThat(run(env, COMMAND, commands.get(2)))
                    .contains("Sent 1 messages to shop/raw-topic");

            // The documented query, then the SQL quick starts of table-sql.md and catalog.md, as
            // written, in one session of the one playground: each page's tables next to the
            // others'.
            StringBuilder sql = new StringBuilder();
            for (String documented :
                    List.of("playground.sql", "quickstart.sql", "catalog-quickstart.sql")) {
                sql.append(Files.readString(RESOURCES.resolve("sql").resolve(documented)))
                        .append('\n');
            }
            Path script = home.resolve("playground.sql");
            Files.writeString(
                    script,
                    sql.toString().replace("'localhost:8090'", "'localhost:" + iggyPort + "'"));
            String printed = run(env, SQL, "./playground.sh sql -f " + script);
            assertThat(printed).doesNotContain(SqlClient.STATEMENT_FAILED);
            List<List<String>> rows = SqlClient.queryRows(printed);
            // the playground's query of shop/events
            assertThat(rows.subList(0, 3))
                    .containsExactly(
                            List.of("+I", "k1=v1"),
                            List.of("+I", "k2=v2"),
                            List.of("+I", "k1=v1b"));
            // table-sql.md's quick start, then the table catalog.md's creates
            assertThat(rows.subList(3, 11)).isEqualTo(SqlClient.QUICK_START_ROWS);
            assertThat(rows.get(11)).containsExactly("+I", "o1", "9.99");
            // catalog.md: shop.`raw-topic`, payload "hello" at partition 0, offset 0
            assertThat(rows).hasSize(13);
            assertThat(rows.get(12)).containsExactly("+I", "hello", "0", "0");

            watchesAFailover(env, home, pids);

            restartsFlinkKeepingTheServersData(env, home, pids, stop.get(0), start);

            runsTheDocumentedJobs(env);
        } finally {
            assertThat(run(env, COMMAND, stop.get(1))).contains("Stopped the playground");
        }

        assertThat(home.resolve("processes")).doesNotExist();
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive))
                    .as("process %s of the playground", pid)
                    .isEmpty();
        }
        assertThat(isFree(iggyPort)).as("Iggy port %s free", iggyPort).isTrue();
        assertThat(isFree(restPort)).as("REST port %s free", restPort).isTrue();
    }

    /**
     * getting-started.md's "Watch a failover" ({@code failover.sh}): the topic the exactly-once
     * script writes created, 1,000 large orders sent, the playground's exactly-once script of
     * table-sql.md ({@code exactly-once-playground.sql}, its port and checkpoint directory this
     * test's) run by the SQL client, its output counted once committed; the TaskManager killed, the
     * job still listed, 1,000 more orders sent while no TaskManager runs, another TaskManager
     * started; then every large order is in {@code shop/large-orders} once, and the script's
     * checkpoints are in its directory.
     */
    private static void watchesAFailover(Map<String, String> env, Path home, Set<Long> pids)
            throws Exception {
        List<String> failover = commands(RESOURCES.resolve("playground/failover.sh"));
        Path checkpoints = home.resolve("exactly-once-checkpoints");
        Path script = home.resolve("exactly-once.sql");
        Files.writeString(
                script,
                Files.readString(RESOURCES.resolve("sql/exactly-once-playground.sql"))
                        .replace("'localhost:8090'", "'localhost:" + env.get("IGGY_PORT") + "'")
                        .replace(SCRIPT_CHECKPOINTS, checkpoints.toUri().toString()));
        String submit = failover.get(2);
        assertThat(submit).endsWith(" -f exactly-once.sql");

        assertThat(run(env, COMMAND, failover.get(0)))
                .contains("Created topic shop/large-orders with 1 partition(s)");
        assertThat(run(env, COMMAND, failover.get(1)))
                .contains("Sent 1000 messages to shop/orders");
        String submitted = run(env, SQL, submit.replace("exactly-once.sql", script.toString()));
        assertThat(submitted).doesNotContain(SqlClient.STATEMENT_FAILED);
        Matcher jobId = SQL_JOB_ID.matcher(submitted);
        assertThat(jobId.find()).as("the INSERT's job id in:%n%s", submitted).isTrue();
        String count = failover.get(3);
        awaitCount(env, count, 1000);

        String killed = run(env, COMMAND, failover.get(4));
        assertThat(killed).contains("Killed taskmanager-1 (SIGKILL)");
        long firstTaskManager = pidOf(home, "taskmanager-1");
        assertThat(ProcessHandle.of(firstTaskManager).filter(ProcessHandle::isAlive)).isEmpty();
        // flink (and sql, and stop) work while no TaskManager runs
        assertThat(run(env, COMMAND, failover.get(5))).contains(jobId.group(1));
        assertThat(run(env, COMMAND, failover.get(6)))
                .contains("Sent 1000 messages to shop/orders");
        assertThat(run(env, START, failover.get(7))).contains("Started taskmanager-2");
        recordPids(home, pids);

        awaitCount(env, failover.get(8), 2000);
        assertThat(run(env, COMMAND, failover.get(9)).strip())
                .as("orders found twice")
                .isEqualTo("0");
        try (Stream<Path> jobCheckpoints = Files.list(checkpoints.resolve(jobId.group(1)))) {
            assertThat(jobCheckpoints.map(p -> p.getFileName().toString()))
                    .as("the script's checkpoint directory")
                    .anyMatch(name -> name.startsWith("chk-"));
        }
    }

    /**
     * {@code stop} ends Flink and keeps the server, {@code start} starts Flink next to it: the
     * topic created and the orders sent before are still there.
     */
    private static void restartsFlinkKeepingTheServersData(
            Map<String, String> env, Path home, Set<Long> pids, String stop, String start)
            throws Exception {
        long server = pidOf(home, "iggy");
        assertThat(run(env, COMMAND, stop))
                .contains("Stopped Flink (2 processes)")
                .contains("The Iggy server keeps running");
        assertThat(Files.readAllLines(home.resolve("processes")))
                .singleElement()
                .satisfies(line -> assertThat(line).startsWith("iggy " + server + " "));

        assertThat(run(env, START, start))
                .contains("kept running with its streams, topics and messages")
                .contains("default_catalog");
        assertThat(pidOf(home, "iggy")).isEqualTo(server);
        recordPids(home, pids);
        List<String> failover = commands(RESOURCES.resolve("playground/failover.sh"));
        assertThat(run(env, COMMAND, failover.get(8)).strip()).isEqualTo("2000");
    }

    /**
     * Runs {@code count} (a {@code poll} counted by {@code grep -c}) until it prints {@code
     * expected}; fails at once if it counts more.
     */
    private static void awaitCount(Map<String, String> env, String count, int expected)
            throws InterruptedException {
        AtomicReference<String> printed = new AtomicReference<>("");
        Conditions.waitUntil(
                "'" + count + "' prints " + expected,
                JOB,
                RECHECK,
                () -> {
                    // grep -c exits with 1 when it counts 0
                    printed.set(execute(env, COMMAND, count).printed().strip());
                    assertThat(Integer.parseInt(printed.get()))
                            .as("what '%s' printed", count)
                            .isLessThanOrEqualTo(expected);
                    return printed.get().equals(String.valueOf(expected));
                },
                () -> "; it last printed:\n" + printed.get());
    }

    /** Adds the process ids the playground recorded; returns them. */
    private static List<Long> recordPids(Path home, Set<Long> pids) throws IOException {
        List<Long> recorded = new ArrayList<>();
        for (String line : Files.readAllLines(home.resolve("processes"))) {
            recorded.add(Long.parseLong(line.split(" ")[1]));
        }
        pids.addAll(recorded);
        return recorded;
    }

    /** The process id the playground recorded for {@code name}. */
    private static long pidOf(Path home, String name) throws IOException {
        return Files.readAllLines(home.resolve("processes")).stream()
                .filter(line -> line.startsWith(name + " "))
                .map(line -> Long.parseLong(line.split(" ")[1]))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no process " + name + " recorded"));
    }

    /**
     * getting-started.md's "Running your job": the job template built with Maven, submitted with
     * {@code flink run -d}, listed as running, and its output (the messages sent to {@code
     * shop/events} before, in upper case) polled from {@code shop/output}; then its "A first job":
     * README's job, from the repository's job jar, and what it wrote to {@code shop/latest}.
     */
    private static void runsTheDocumentedJobs(Map<String, String> env) throws Exception {
        List<String> myJob = commands(RESOURCES.resolve("playground/my-job.sh"));
        Map<String, String> withMaven = new HashMap<>(env);
        String mavenHome = System.getProperty("playground-it.maven-home", "");
        if (!mavenHome.isEmpty()) {
            withMaven.put("PATH", Path.of(mavenHome, "bin") + ":" + System.getenv("PATH"));
        }
        // As documented, for the Flink release the playground runs (getting-started.md: another
        // line adds -Dflink.version); offline and without the checks: the running build did both.
        run(
                withMaven,
                BUILD,
                myJob.get(0)
                        + " -o -Dflink.version="
                        + env.get("FLINK_VERSION")
                        + " -Dspotless.check.skip=true -Drat.skip=true");
        assertTheJobJarHoldsTheJobAndTheConnectorButNoFlink();
        failsOnceWithTheConnectorsMessage(env, myJob.get(1));
        String flinkList = myJob.get(2);
        runsAndWrites(
                env,
                myJob.get(1),
                "my iggy job",
                flinkList,
                myJob.get(3),
                List.of(
                        "offset=0 payload=K1=V1",
                        "offset=1 payload=K2=V2",
                        "offset=2 payload=K1=V1B"));

        List<String> firstJob = commands(RESOURCES.resolve("playground/first-job.sh"));
        runsAndWrites(
                env,
                firstJob.get(0),
                "latest per key",
                flinkList,
                firstJob.get(1),
                List.of(
                        "offset=0 payload=k1=v1",
                        "offset=1 payload=k2=v2",
                        "offset=2 payload=k1=v1b"));
    }

    /**
     * The job template run as documented but attached (without {@code -d}) and with a wrong
     * password ({@code iggy.password} of the Flink configuration comes before the playground's
     * {@code IGGY_PASSWORD}): {@code flink run} waits for the job, which fails without a restart,
     * and prints the connector's one-line message as the root cause, without the password.
     */
    private static void failsOnceWithTheConnectorsMessage(
            Map<String, String> env, String documentedRun) throws Exception {
        String run =
                documentedRun.replace(
                        " run -d ",
                        " run -D"
                                + IggyConnectionConfig.PASSWORD_CONFIG_KEY
                                + "=not-the-password ");
        assertThat(run)
                .as("the documented '%s' with a wrong password", documentedRun)
                .contains(" -D");
        EndedProcess failed = execute(env, COMMAND, run);
        assertThat(failed.exitCode())
                .as("exit code of '%s'; it printed:%n%s", run, failed.printed())
                .isNotZero();
        assertThat(failed.printed())
                .as("what '%s' printed", run)
                .contains("The program finished with the following exception")
                .contains(
                        "Caused by: "
                                + IggyConfigurationException.class.getName()
                                + ": Cannot log in to Iggy at 127.0.0.1:"
                                + env.get("IGGY_PORT")
                                + " as user 'iggy'")
                // Flink's word that it failed the job at the first failure: no restart.
                .contains("The failure is not recoverable")
                .doesNotContain("Recovery is suppressed by", "not-the-password");
    }

    /**
     * Submits a job with {@code run}, waits until {@code list} shows it running as {@code jobName}
     * and until {@code poll} prints the {@code expected} lines, and only those.
     */
    private static void runsAndWrites(
            Map<String, String> env,
            String run,
            String jobName,
            String list,
            String poll,
            List<String> expected)
            throws Exception {
        String submitted = run(env, COMMAND, run);
        Matcher jobId = JOB_ID.matcher(submitted);
        assertThat(jobId.find()).as("a job id in what '%s' printed:%n%s", run, submitted).isTrue();
        awaitPrinted(env, list, jobId.group(1) + " : " + jobName + " (RUNNING)");

        String polled = awaitPrinted(env, poll, expected.get(expected.size() - 1));
        assertThat(polled.lines().filter(line -> line.startsWith("offset=")))
                .as("what '%s' printed", poll)
                .containsExactlyElementsOf(expected);
    }

    /** Runs {@code command} again until it prints {@code expected}; returns what it printed. */
    private static String awaitPrinted(Map<String, String> env, String command, String expected)
            throws InterruptedException {
        AtomicReference<String> printed = new AtomicReference<>("");
        Conditions.waitUntil(
                "'" + command + "' prints '" + expected + "'",
                JOB,
                RECHECK,
                () -> {
                    printed.set(run(env, COMMAND, command));
                    return printed.get().contains(expected);
                },
                () -> "; it last printed:\n" + printed.get());
        return printed.get();
    }

    /** What getting-started.md says the template's jar holds: the job and the connector. */
    private static void assertTheJobJarHoldsTheJobAndTheConnectorButNoFlink() throws IOException {
        Path jar = ROOT.resolve("job-template/target/my-iggy-job-1.0-SNAPSHOT.jar");
        try (JarFile job = new JarFile(jar.toFile())) {
            List<String> entries = job.stream().map(e -> e.getName()).toList();
            assertThat(entries)
                    .contains(
                            "com/example/MyJob.class",
                            "org/apache/flink/connector/iggy/source/IggySource.class",
                            "org/apache/flink/connector/iggy/sink/IggySink.class")
                    .anyMatch(e -> e.startsWith("org/apache/iggy/"))
                    .noneMatch(e -> e.startsWith("org/apache/flink/streaming/api/"));
            assertThat(job.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo("com.example.MyJob");
        }
    }

    /** The commands of a script (its lines that are neither comments nor empty). */
    private static List<String> commands(Path script) throws IOException {
        return Files.readAllLines(script, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .toList();
    }

    /** Runs {@code command} with bash in the repository's root; what it printed, or fails. */
    private static String run(Map<String, String> env, Duration timeout, String command)
            throws IOException, InterruptedException {
        return execute(env, timeout, command).succeeded();
    }

    private static EndedProcess execute(Map<String, String> env, Duration timeout, String command)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", command).directory(ROOT.toFile());
        builder.environment().putAll(env);
        return EndedProcess.run(builder, timeout);
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

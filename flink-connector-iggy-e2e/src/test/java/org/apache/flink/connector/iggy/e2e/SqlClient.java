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

import java.io.File;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Flink's real SQL client ({@code org.apache.flink.table.client.SqlClient}, what {@code
 * sql-client.sh} starts) in embedded mode, in its own JVM, against a {@link FlinkCluster}: {@code
 * -f script.sql -j <the SQL jar>}, with the cluster's {@code FLINK_CONF_DIR}. Its class path is the
 * cluster's plus the jars a distribution keeps in {@code opt/} for it ({@code
 * target/sql-client.classpath}, written by the build).
 */
final class SqlClient {

    private static final Path CLASSPATH_FILE = Path.of("target", "sql-client.classpath");
    private static final AtomicInteger RUNS = new AtomicInteger();

    /**
     * What the SQL client quick start of docs/table-sql.md ({@code quickstart.sql}) prints: the
     * orders, then the changelog of the customers keyed map.
     */
    static final List<List<String>> QUICK_START_ROWS =
            List.of(
                    List.of("+I", "o-1", "alice", "12.50"),
                    List.of("+I", "o-2", "bob", "7.25"),
                    List.of("+I", "o-3", "alice", "3.00"),
                    List.of("+I", "c1", "alice", "gold"),
                    List.of("+I", "c2", "bob", "silver"),
                    List.of("-U", "c1", "alice", "gold"),
                    List.of("+U", "c1", "alice", "platinum"),
                    List.of("-D", "c2", "bob", "silver"));

    /** What the client prints when a statement fails (followed by the root cause only). */
    static final String STATEMENT_FAILED = "[ERROR] Could not execute SQL statement.";

    private final FlinkCluster cluster;
    private final Path sqlJar;

    SqlClient(FlinkCluster cluster, Path sqlJar) {
        this.cluster = cluster;
        this.sqlJar = sqlJar;
    }

    /**
     * Runs {@code script} as {@code sql-client.sh -j <jar> -f <script>} would, with each key of
     * {@code replacements} (which must occur in the script, so that a changed script fails loudly)
     * replaced by its value, e.g. the documented {@code 'address' = 'localhost:8090'} by the test
     * server's address; returns what the client printed (its console output).
     *
     * @throws AssertionError if a statement fails, or the client exits non-zero or does not end
     *     within {@code timeout}
     */
    String run(Path script, Map<String, String> replacements, Duration timeout)
            throws IOException, InterruptedException {
        return run(script, replacements, timeout, true);
    }

    /**
     * Like {@link #run}, for a script one of whose statements must fail: returns what the client
     * printed, which ends with that statement's error.
     *
     * @throws AssertionError if no statement fails
     */
    String runFailing(Path script, Map<String, String> replacements, Duration timeout)
            throws IOException, InterruptedException {
        return run(script, replacements, timeout, false);
    }

    private String run(
            Path script, Map<String, String> replacements, Duration timeout, boolean mustSucceed)
            throws IOException, InterruptedException {
        String sql =
                replaced(Files.readString(script, StandardCharsets.UTF_8), script, replacements);
        String name = "sql-client-" + RUNS.incrementAndGet();
        Path runScript = cluster.home().resolve(name + ".sql").toAbsolutePath();
        Files.writeString(runScript, sql, StandardCharsets.UTF_8);
        Path output = cluster.home().resolve(name + ".out").toAbsolutePath();
        Process client =
                start(
                        name,
                        List.of("-f", runScript.toString()),
                        ProcessBuilder.Redirect.from(nullDevice()));
        boolean ended = client.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!ended) {
            client.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        // With -f the client stops at the first failing statement but still exits 0.
        boolean failed = !ended || client.exitValue() != 0 || printed.contains(STATEMENT_FAILED);
        if (failed == mustSucceed) {
            throw new AssertionError(
                    "The SQL client running "
                            + script
                            + (ended
                                    ? " exited " + client.exitValue()
                                    : " did not end within " + timeout)
                            + (mustSucceed ? "" : " without the failure expected")
                            + ". It printed:\n"
                            + printed
                            + cluster.diagnostics());
        }
        return printed;
    }

    /**
     * Types the statements of {@code script}, without its license header (what its page shows),
     * into an interactive client as a user pastes them, with {@code replacements} as in {@link
     * #run}, then {@code QUIT;}; returns what the client printed.
     *
     * @throws AssertionError if a statement fails, or the client does not quit within {@code
     *     timeout}
     */
    String paste(Path script, Map<String, String> replacements, Duration timeout)
            throws IOException, InterruptedException {
        String sql =
                replaced(Files.readString(script, StandardCharsets.UTF_8), script, replacements);
        try (Interactive client = startInteractive()) {
            client.type(sql.substring(sql.indexOf("\n\n") + 2));
            String printed = client.quit(timeout);
            if (printed.contains(STATEMENT_FAILED)) {
                throw new AssertionError(
                        "A statement of "
                                + script
                                + " failed. The SQL client printed:\n"
                                + printed);
            }
            return printed;
        }
    }

    /**
     * {@code sql} with each key of {@code replacements} replaced by its value; each key must occur
     * in it, so that a changed {@code source} fails loudly.
     */
    static String replaced(String sql, Object source, Map<String, String> replacements) {
        for (Map.Entry<String, String> replacement : replacements.entrySet()) {
            if (!sql.contains(replacement.getKey())) {
                throw new IllegalArgumentException(
                        source + " does not contain '" + replacement.getKey() + "' any more");
            }
            sql = sql.replace(replacement.getKey(), replacement.getValue());
        }
        return sql;
    }

    /**
     * Starts the SQL client as {@code sql-client.sh -j <jar>} without a script: interactive,
     * reading the statements the test types on its standard input, and, unlike with {@code -f},
     * going on after a statement failed.
     */
    Interactive startInteractive() throws IOException {
        String name = "sql-client-" + RUNS.incrementAndGet();
        // Its history stays out of the user's home (~/.flink-sql-history by default).
        Path history = cluster.home().resolve(name + ".history").toAbsolutePath();
        return new Interactive(
                start(name, List.of("--history", history.toString()), ProcessBuilder.Redirect.PIPE),
                cluster.home().resolve(name + ".out"));
    }

    /** The client's process, its console output written to {@code <name>.out} in the home. */
    private Process start(String name, List<String> arguments, ProcessBuilder.Redirect input)
            throws IOException {
        List<String> command =
                FlinkProcesses.sqlClientCommand(
                        cluster.confDir(),
                        cluster.home().resolve(name + ".log"),
                        cluster.classpath(),
                        clientClasspath(),
                        sqlJar,
                        arguments);
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(cluster.home().resolve(name + ".out").toFile())
                        .redirectInput(input);
        builder.environment().put("FLINK_CONF_DIR", cluster.confDir().toAbsolutePath().toString());
        return builder.start();
    }

    /** A running interactive SQL client; used by the test thread only. */
    final class Interactive implements AutoCloseable {
        private final Process client;
        private final Path output;
        private final Writer input;

        private Interactive(Process client, Path output) {
            this.client = client;
            this.output = output;
            this.input = new OutputStreamWriter(client.getOutputStream(), StandardCharsets.UTF_8);
        }

        /** Types {@code statements} (each ending with {@code ;} and a new line). */
        void type(String statements) throws IOException {
            input.write(statements);
            input.flush();
        }

        /** Types {@code QUIT;}, waits until the client exited, and returns all it printed. */
        String quit(Duration timeout) throws IOException, InterruptedException {
            type("QUIT;\n");
            input.close();
            boolean ended = client.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                client.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
            if (!ended || client.exitValue() != 0) {
                throw new AssertionError(
                        "The SQL client "
                                + (ended ? "exited " + client.exitValue() : "did not quit")
                                + details());
            }
            return printed();
        }

        /** Kills the client if it still runs (a test that failed before {@link #quit}). */
        @Override
        public void close() throws InterruptedException {
            if (client.isAlive()) {
                client.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }

        private String printed() throws IOException {
            return Files.readString(output, StandardCharsets.UTF_8);
        }

        private String details() {
            try {
                return ". It printed:\n" + printed() + cluster.diagnostics();
            } catch (IOException e) {
                return ". Its output " + output + " cannot be read: " + e;
            }
        }
    }

    /**
     * The result rows of every query the SQL client printed in tableau mode, each as its cells (the
     * first is the row kind: {@code +I}, {@code -U}, {@code +U}, {@code -D}).
     */
    static List<List<String>> resultRows(String printed) {
        List<List<String>> rows = new ArrayList<>();
        for (String line : printed.split("\\R")) {
            if (!line.startsWith("|")) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            for (String cell : line.substring(1).split("\\|")) {
                cells.add(cell.trim());
            }
            if (!cells.get(0).equals("op")) {
                rows.add(cells);
            }
        }
        return rows;
    }

    /** The rows the queries printed, without the tables SHOW statements print. */
    static List<List<String>> queryRows(String printed) {
        return resultRows(printed).stream().filter(row -> row.get(0).matches("[+-][IUD]")).toList();
    }

    private static String clientClasspath() throws IOException {
        if (!Files.isRegularFile(CLASSPATH_FILE)) {
            throw new IllegalStateException(
                    CLASSPATH_FILE.toAbsolutePath()
                            + " is missing: run the tests through Maven (generate-test-resources"
                            + " writes it)");
        }
        return Files.readString(CLASSPATH_FILE).trim();
    }

    private static File nullDevice() {
        return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }
}

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
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What it takes to run Flink's processes from Maven artifacts instead of a Flink distribution: the
 * configuration its start scripts would write or compute (every TaskManager memory component, the
 * CPU cores), the log4j configuration, and the JVM options of Flink's own {@code config.yaml} on
 * Java 17. Shared by the {@link Playground} and the end-to-end tests, so both start the same
 * cluster. Stateless.
 */
public final class FlinkProcesses {

    /** What Flink's default {@code config.yaml} passes to every Flink JVM on Java 17. */
    public static final List<String> JAVA_17_OPTIONS =
            List.of(
                    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
                    "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
                    "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.net=ALL-UNNAMED",
                    "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens=java.base/java.text=ALL-UNNAMED",
                    "--add-opens=java.base/java.time=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    public static final String JOB_MANAGER_MAIN =
            "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    public static final String TASK_MANAGER_MAIN =
            "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";

    /** What {@code sql-client.sh} starts. */
    public static final String SQL_CLIENT_MAIN = "org.apache.flink.table.client.SqlClient";

    /** What {@code bin/flink} starts: {@code flink run}, {@code list}, {@code cancel}, ... */
    public static final String FLINK_CLI_MAIN = "org.apache.flink.client.cli.CliFrontend";

    /** Heap of the JobManager JVM (the configuration's sizes are the TaskManager's). */
    public static final List<String> JOB_MANAGER_JVM_OPTIONS = List.of("-Xmx256m");

    /** The JVM sizes that match the TaskManager memory of {@link #writeConfig}. */
    public static final List<String> TASK_MANAGER_JVM_OPTIONS =
            List.of("-Xmx224m", "-XX:MaxDirectMemorySize=192m");

    /** Heap of a client JVM: the SQL client or {@code flink run}. */
    public static final List<String> CLIENT_JVM_OPTIONS = List.of("-Xmx256m");

    private FlinkProcesses() {}

    /**
     * Writes {@code home/conf/config.yaml} and {@code home/conf/log4j.properties} for a session
     * cluster on localhost with its REST API (and web UI) on {@code restPort}; every other port is
     * picked free or ephemeral. Returns the configuration directory ({@code FLINK_CONF_DIR}).
     */
    public static Path writeConfig(Path home, int restPort, int slotsPerTaskManager)
            throws IOException {
        Path confDir = home.resolve("conf");
        Files.createDirectories(confDir);
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("jobmanager.rpc.address", "localhost");
        config.put("jobmanager.rpc.port", freePort());
        config.put("jobmanager.bind-host", "localhost");
        config.put("rest.address", "localhost");
        config.put("rest.bind-address", "localhost");
        config.put("rest.port", restPort);
        config.put("web.upload.dir", home.resolve("uploads").toAbsolutePath());
        config.put("web.tmpdir", home.resolve("web").toAbsolutePath());
        config.put("io.tmp.dirs", home.resolve("tmp").toAbsolutePath());
        config.put("blob.server.port", 0);
        config.put("taskmanager.host", "localhost");
        config.put("taskmanager.bind-host", "localhost");
        config.put("taskmanager.rpc.port", 0);
        config.put("taskmanager.data.port", 0);
        config.put("taskmanager.numberOfTaskSlots", slotsPerTaskManager);
        // What Flink's start scripts compute for a TaskManager: kept small (2 cores, shared).
        config.put("taskmanager.cpu.cores", 1.0);
        config.put("taskmanager.memory.framework.heap.size", "64m");
        config.put("taskmanager.memory.task.heap.size", "160m");
        config.put("taskmanager.memory.managed.size", "16m");
        config.put("taskmanager.memory.network.min", "16m");
        config.put("taskmanager.memory.network.max", "16m");
        config.put("taskmanager.memory.framework.off-heap.size", "64m");
        config.put("taskmanager.memory.task.off-heap.size", "64m");
        config.put("taskmanager.memory.jvm-metaspace.size", "192m");
        config.put("taskmanager.memory.jvm-overhead.min", "64m");
        config.put("taskmanager.memory.jvm-overhead.max", "64m");
        // A killed TaskManager is noticed by failed heartbeat RPCs within seconds; the timeout is
        // only the fallback and stays generous so that a loaded machine causes no spurious loss.
        config.put("heartbeat.interval", 1000);
        config.put("heartbeat.timeout", 20000);
        config.put("restart-strategy.type", "fixed-delay");
        config.put("restart-strategy.fixed-delay.attempts", 50);
        config.put("restart-strategy.fixed-delay.delay", "500 ms");
        config.put("execution.checkpointing.dir", home.resolve("checkpoints").toUri());
        config.put("state.backend.type", "hashmap");
        config.put("parallelism.default", 1);
        StringBuilder yaml = new StringBuilder();
        config.forEach((key, value) -> yaml.append(key).append(": ").append(value).append('\n'));
        Files.writeString(confDir.resolve("config.yaml"), yaml.toString());
        Files.writeString(
                log4jConfiguration(confDir),
                String.join(
                        "\n",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.file.ref = MainAppender",
                        "appender.main.name = MainAppender",
                        "appender.main.type = File",
                        "appender.main.fileName = ${sys:log.file}",
                        "appender.main.layout.type = PatternLayout",
                        "appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
                        ""));
        return confDir;
    }

    /** The log4j configuration {@link #writeConfig} writes: one log file per process. */
    public static Path log4jConfiguration(Path confDir) {
        return confDir.resolve("log4j.properties").toAbsolutePath();
    }

    /**
     * The command line of a Flink JVM: {@code mainClass} on {@code classpath} with {@code
     * jvmOptions}, the Java 17 options, small-JVM GC and JIT settings and its own log file.
     */
    public static List<String> javaCommand(
            List<String> jvmOptions,
            Path confDir,
            Path logFile,
            String classpath,
            String mainClass,
            List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        // Small JVMs on a small machine: cheap GC and JIT.
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        command.addAll(JAVA_17_OPTIONS);
        command.add("-Dlog.file=" + logFile.toAbsolutePath());
        command.add("-Dlog4j.configurationFile=" + log4jConfiguration(confDir).toUri());
        command.add("-classpath");
        command.add(classpath);
        command.add(mainClass);
        command.addAll(arguments);
        return command;
    }

    /**
     * The command line of a JobManager or TaskManager process of the cluster in {@code confDir}.
     */
    public static List<String> clusterProcessCommand(
            String mainClass,
            List<String> jvmOptions,
            Path confDir,
            Path logFile,
            String classpath,
            List<String> dynamicOptions) {
        List<String> arguments = new ArrayList<>();
        arguments.add("--configDir");
        arguments.add(confDir.toAbsolutePath().toString());
        arguments.addAll(dynamicOptions);
        return javaCommand(jvmOptions, confDir, logFile, classpath, mainClass, arguments);
    }

    /**
     * The command line of Flink's SQL client in embedded mode with {@code sqlJar}: {@code
     * clusterClasspath} plus what a distribution keeps in {@code opt/} for it ({@code
     * clientClasspath}), then {@code arguments} (e.g. {@code -f script.sql}). Run it with {@code
     * FLINK_CONF_DIR} set to {@code confDir}.
     */
    public static List<String> sqlClientCommand(
            Path confDir,
            Path logFile,
            String clusterClasspath,
            String clientClasspath,
            Path sqlJar,
            List<String> arguments) {
        List<String> clientArguments = new ArrayList<>();
        clientArguments.add("--jar");
        clientArguments.add(sqlJar.toAbsolutePath().toString());
        clientArguments.addAll(arguments);
        return javaCommand(
                CLIENT_JVM_OPTIONS,
                confDir,
                logFile,
                clusterClasspath + File.pathSeparator + clientClasspath,
                SQL_CLIENT_MAIN,
                clientArguments);
    }

    /**
     * The command line of Flink's command-line client ({@code bin/flink} of a distribution) with
     * {@code arguments}, e.g. {@code run -d job.jar}. Run it with {@code FLINK_CONF_DIR} set to
     * {@code confDir}: it submits to the cluster that configuration names.
     */
    public static List<String> flinkCliCommand(
            Path confDir, Path logFile, String clusterClasspath, List<String> arguments) {
        return javaCommand(
                CLIENT_JVM_OPTIONS, confDir, logFile, clusterClasspath, FLINK_CLI_MAIN, arguments);
    }

    /** A TCP port free at the time of the call. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

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

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.common.IggyMapChangeTypeInfo;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A savepoint taken by a job with the Iggy source and the keyed-map sink on one Flink release
 * restores on a later one: from an earlier patch of the running line, and from the previous minor
 * line of the same major version (2.2 on 2.3), as Flink promises state compatibility across minor
 * releases. The source goes on after the last message it read, and the sink does not send again
 * what it sent before the savepoint.
 *
 * <p>The savepoints are stored under {@code src/test/resources/savepoints/flink-<version>}. Each
 * test restores the newest one of its kind; with none, it is skipped, or fails with {@code
 * -Diggy.savepoint.patch-restore.required=true} or {@code
 * -Diggy.savepoint.minor-restore.required=true} (.ci/run sets them where a fixture is stored). To
 * store one for the running version instead of restoring (then commit it;
 * docs/development/testing.md lists the command of every stored version):
 *
 * <pre>{@code
 * mvn -B -pl flink-connector-iggy -am verify -Dflink.version=2.2.0 \
 *     -Dtest=FlinkUpgradeSavepointITCase -Dsurefire.failIfNoSpecifiedTests=false -DskipITs \
 *     -Diggy.savepoint.fixture.write=true
 * }</pre>
 */
class FlinkUpgradeSavepointITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(1);

    private static final String FIXTURES = "savepoints";
    private static final String WRITE = "iggy.savepoint.fixture.write";
    private static final String STREAM = "patch-upgrade";
    private static final String IN = "changes";
    private static final String OUT = "map";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** What the job read and sent before every stored savepoint: one key per message. */
    private static final List<String> BEFORE = List.of("k1=v1", "k2=v2", "k3=v3");

    @BeforeEach
    void createTopics() {
        SavepointFixtures.recreateStream(IGGY, STREAM);
        IGGY.createTopic(STREAM, IN, 1);
        IGGY.createTopic(STREAM, OUT, 1);
        send(BEFORE);
    }

    @AfterEach
    void deleteTopics() {
        IGGY.deleteStream(STREAM);
    }

    @Test
    @DisabledIfSystemProperty(named = WRITE, matches = "true")
    void restoresTheSavepointOfAnEarlierPatchOfThisLine(
            @InjectClusterClient ClusterClient<?> client, @TempDir Path work) throws Exception {
        int[] running = parse(EnvironmentInformation.getVersion());
        restoresTheNewestOf(
                stored(v -> v[0] == running[0] && v[1] == running[1] && v[2] < running[2]),
                "an earlier patch of this line",
                "iggy.savepoint.patch-restore.required",
                client,
                work);
    }

    @Test
    @DisabledIfSystemProperty(named = WRITE, matches = "true")
    void restoresTheSavepointOfThePreviousMinorLine(
            @InjectClusterClient ClusterClient<?> client, @TempDir Path work) throws Exception {
        int[] running = parse(EnvironmentInformation.getVersion());
        restoresTheNewestOf(
                stored(v -> v[0] == running[0] && v[1] == running[1] - 1),
                "the previous minor line",
                "iggy.savepoint.minor-restore.required",
                client,
                work);
    }

    /**
     * Restores the newest of the {@code stored} versions' savepoints (a run restores one, as the
     * topics must be as they were then); skips without one unless {@code required} is set.
     */
    private static void restoresTheNewestOf(
            List<String> stored, String which, String required, ClusterClient<?> client, Path work)
            throws Exception {
        String running = EnvironmentInformation.getVersion();
        String none = "no stored savepoint of " + which + " of Flink " + running;
        if (Boolean.getBoolean(required)) {
            assertThat(stored).as(none).isNotEmpty(); // .ci/run: a restore, never a skip
        }
        assumeTrue(!stored.isEmpty(), none);
        String version = stored.get(stored.size() - 1);
        Path savepoint = work.resolve("flink-" + version);
        SavepointFixtures.copy(fixture(version), savepoint);

        // k1 unchanged: not sent again; k2 changed and k4 new: sent.
        send(List.of("k1=v1", "k2=v2b", "k4=v4"));
        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint.toUri().toString());
        JobClient job = job(StreamExecutionEnvironment.getExecutionEnvironment(restore));
        try {
            waitUntil("two messages sent", TIMEOUT, () -> payloads().size() >= 2);
            assertThat(payloads())
                    .as("sent after restoring the savepoint of Flink %s on %s", version, running)
                    .containsExactly("v2b", "v4");
        } finally {
            job.cancel().get(60, TimeUnit.SECONDS);
            SavepointFixtures.waitForStatus(client, job.getJobID(), JobStatus.CANCELED, TIMEOUT);
        }
    }

    /** Stores the running version's savepoint (see the class comment). */
    @Test
    @EnabledIfSystemProperty(named = WRITE, matches = "true")
    void storesTheSavepointOfThisVersion(
            @InjectClusterClient ClusterClient<?> client, @TempDir Path work) throws Exception {
        JobClient job = job(StreamExecutionEnvironment.getExecutionEnvironment());
        waitUntil("the first messages sent", TIMEOUT, () -> payloads().size() == BEFORE.size());
        assertThat(payloads()).containsExactly("v1", "v2", "v3");
        String savepoint =
                job.stopWithSavepoint(false, work.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(60, TimeUnit.SECONDS);
        SavepointFixtures.waitForStatus(client, job.getJobID(), JobStatus.FINISHED, TIMEOUT);
        SavepointFixtures.store(savepoint, FIXTURES);
    }

    /** Source, a map to changes, the keyed-map sink; every operator with a fixed uid. */
    private static JobClient job(StreamExecutionEnvironment env) throws Exception {
        IggyConnectionConfig connection =
                IggyConnectionConfig.builder()
                        .setAddress(IGGY.address())
                        .setCredentials(IGGY.username(), IGGY.password())
                        .build();
        env.setParallelism(1);
        env.fromSource(
                        IggySource.<String>builder()
                                .setConnection(connection)
                                .setStream(STREAM)
                                .setTopic(IN)
                                .setConsumerName("patch-upgrade")
                                .setStartingOffsets(IggyStartingOffsets.earliest())
                                .setValueOnlyDeserializer(new SimpleStringSchema())
                                .build(),
                        WatermarkStrategy.noWatermarks(),
                        "changes")
                .uid("iggy-source")
                .map(FlinkUpgradeSavepointITCase::toChange)
                .returns(IggyMapChangeTypeInfo.of(Types.STRING, Types.STRING))
                .uid("to-changes")
                .sinkTo(
                        IggySink.<String, String>keyedMap()
                                .setConnection(connection)
                                .setStream(STREAM)
                                .setTopic(OUT)
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .setReconcileUid("fingerprints")
                                .build())
                .uid("map-sink");
        return env.executeAsync("patch upgrade");
    }

    private static IggyMapChange<String, String> toChange(String line) {
        String[] keyAndValue = line.split("=", 2);
        return IggyMapChange.upsert(keyAndValue[0], keyAndValue[1]);
    }

    /**
     * The stored versions whose {@code [major, minor, patch]} pass {@code filter} (all of one
     * line), oldest first.
     */
    private static List<String> stored(Predicate<int[]> filter) throws Exception {
        URL root = FlinkUpgradeSavepointITCase.class.getClassLoader().getResource(FIXTURES);
        if (root == null) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(Paths.get(root.toURI()))) {
            return dirs.map(dir -> dir.getFileName().toString())
                    .filter(name -> name.matches("flink-\\d+\\.\\d+\\.\\d+"))
                    .map(name -> name.substring("flink-".length()))
                    .filter(version -> filter.test(parse(version)))
                    .sorted(Comparator.comparingInt(version -> parse(version)[2]))
                    .collect(Collectors.toList());
        }
    }

    private static int[] parse(String version) {
        String[] parts = version.split("[.-]");
        return new int[] {
            Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2])
        };
    }

    private static Path fixture(String version) throws URISyntaxException {
        return Paths.get(
                FlinkUpgradeSavepointITCase.class
                        .getClassLoader()
                        .getResource(FIXTURES + "/flink-" + version)
                        .toURI());
    }

    private static void send(List<String> lines) {
        List<byte[]> payloads = new ArrayList<>();
        lines.forEach(line -> payloads.add(line.getBytes(StandardCharsets.UTF_8)));
        IGGY.send(STREAM, IN, 0, payloads);
    }

    private static List<String> payloads() {
        return IGGY.readAll(STREAM, OUT, 0).stream()
                .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }
}

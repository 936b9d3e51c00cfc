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
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.sink.IggySink;
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
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A savepoint of an exactly-once job whose committer still ran in the writer's task restores into
 * the layout with the committer in a task of its own: the committables pending in the savepoint are
 * committed, and the job goes on where its source stopped. Each record once, in order.
 *
 * <p>The savepoint is stored under {@code src/test/resources/savepoints/chained-committer/}, with
 * the number of records the job had committed when it stopped next to it. It was taken with the
 * chained layout (the code before the hand-off); the test restores it on the same Flink line or a
 * later one and is skipped on earlier lines. To store one (then commit it), on a checkout of that
 * code:
 *
 * <pre>{@code
 * mvn -o -pl flink-connector-iggy -am verify -Dtest=ChainedCommitterSavepointITCase \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Diggy.savepoint.fixture.write=true
 * }</pre>
 */
class ChainedCommitterSavepointITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    private static final String FIXTURES = "savepoints/chained-committer";
    private static final String FIXTURE_VERSION = "2.2.0";
    private static final String STREAM = "chained-committer";
    private static final String TOPIC = "out";
    private static final int RECORDS = 400;
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @BeforeEach
    void createTopic() {
        SavepointFixtures.recreateStream(IGGY, STREAM);
        IGGY.createTopic(STREAM, TOPIC, 1);
    }

    @AfterEach
    void deleteStream() {
        IGGY.deleteStream(STREAM);
    }

    @Test
    void theCommittablesPendingInTheSavepointAreCommittedAndTheJobGoesOn(
            @InjectClusterClient ClusterClient<?> client, @TempDir Path work) throws Exception {
        assumeTrue(
                atLeast(EnvironmentInformation.getVersion(), FIXTURE_VERSION),
                "a savepoint of Flink " + FIXTURE_VERSION + " restores on that line or later");
        URL stored =
                getClass().getClassLoader().getResource(FIXTURES + "/flink-" + FIXTURE_VERSION);
        assertThat(stored).as("the stored savepoint").isNotNull();
        Path savepoint = work.resolve("savepoint");
        SavepointFixtures.copy(Paths.get(stored.toURI()), savepoint);
        int committedBefore =
                Integer.parseInt(
                        Files.readString(
                                        Paths.get(
                                                getClass()
                                                        .getClassLoader()
                                                        .getResource(
                                                                FIXTURES
                                                                        + "/flink-"
                                                                        + FIXTURE_VERSION
                                                                        + ".records")
                                                        .toURI()))
                                .strip());

        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint.toUri().toString());
        JobClient job = job(StreamExecutionEnvironment.getExecutionEnvironment(restore), 1000);
        SavepointFixtures.waitForStatus(client, job.getJobID(), JobStatus.FINISHED, TIMEOUT);

        List<String> out = payloads();
        assertThat(out).as("the last record").endsWith("r" + (RECORDS - 1));
        int first = Integer.parseInt(out.get(0).substring(1));
        assertThat(first)
                .as("the savepoint's pending committables were committed after the restore")
                .isLessThan(committedBefore);
        assertThat(out)
                .as("each record from the first pending one on, once, in order")
                .containsExactlyElementsOf(
                        IntStream.range(first, RECORDS)
                                .mapToObj(i -> "r" + i)
                                .collect(Collectors.toList()));
    }

    /** Stores the running version's savepoint (see the class comment). */
    @Test
    @EnabledIfSystemProperty(named = "iggy.savepoint.fixture.write", matches = "true")
    void storesTheSavepoint(@InjectClusterClient ClusterClient<?> client, @TempDir Path work)
            throws Exception {
        JobClient job = job(StreamExecutionEnvironment.getExecutionEnvironment(), 50);
        waitUntil("the first records committed", TIMEOUT, () -> payloads().size() >= 50);
        String savepoint =
                job.stopWithSavepoint(false, work.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(60, TimeUnit.SECONDS);
        SavepointFixtures.waitForStatus(client, job.getJobID(), JobStatus.FINISHED, TIMEOUT);
        SavepointFixtures.store(savepoint, FIXTURES);
        Path records =
                Paths.get(System.getProperty("basedir", "."))
                        .resolve("src/test/resources")
                        .resolve(FIXTURES)
                        .resolve("flink-" + EnvironmentInformation.getVersion() + ".records");
        Files.writeString(records, payloads().size() + "\n");
    }

    /** Indexes at {@code perSecond}, as "r<i>", into the exactly-once sink with uid iggy-sink. */
    private static JobClient job(StreamExecutionEnvironment env, int perSecond) throws Exception {
        env.setParallelism(1);
        env.enableCheckpointing(300);
        env.fromSource(
                        new DataGeneratorSource<>(
                                (GeneratorFunction<Long, Long>) index -> index,
                                RECORDS,
                                RateLimiterStrategy.perSecond(perSecond),
                                Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "indexes")
                .uid("indexes")
                .map(i -> "r" + i)
                .returns(Types.STRING)
                .uid("text")
                .sinkTo(
                        IggySink.<String>builder()
                                .setConnection(
                                        IggyConnectionConfig.builder()
                                                .setAddress(IGGY.address())
                                                .setCredentials(IGGY.username(), IGGY.password())
                                                .build())
                                .setStream(STREAM)
                                .setTopic(TOPIC)
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                                .build())
                .uid("iggy-sink");
        return env.executeAsync("exactly-once, chained committer savepoint");
    }

    private static boolean atLeast(String running, String fixture) {
        int[] r = parse(running);
        int[] f = parse(fixture);
        return r[0] != f[0] ? r[0] > f[0] : r[1] >= f[1];
    }

    private static int[] parse(String version) {
        String[] parts = version.split("[.-]");
        return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
    }

    private static List<String> payloads() {
        return IGGY.readAll(STREAM, TOPIC, 0).stream()
                .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }
}

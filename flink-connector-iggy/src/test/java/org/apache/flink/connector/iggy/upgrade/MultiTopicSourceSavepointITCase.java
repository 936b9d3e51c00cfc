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
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A savepoint of a source that read one topic restores into a source over a list of topics.
 *
 * <p>A job that adds a topic to its list, in any position, or reads a pattern that matches the old
 * topic, reads the new topics from the start position and the old one on from the savepoint, at
 * parallelism 1 and 2, each message once; one whose source no longer reads the savepoint's topic
 * fails saying so.
 *
 * <p>The savepoint under {@code src/test/resources/savepoints-single-topic-source/flink-2.2.0} was
 * written by the single-topic source (before topic lists existed): it read {@code o-<p>-<i>} for i
 * in 0..2 from both partitions of topic {@code orders}. To write it again (then commit it):
 *
 * <pre>{@code
 * mvn -o -pl flink-connector-iggy -am verify -Dtest=MultiTopicSourceSavepointITCase \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Diggy.savepoint.fixture.write=true
 * }</pre>
 */
class MultiTopicSourceSavepointITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    private static final String FIXTURES = "savepoints-single-topic-source";
    private static final String STREAM = "multi-topic-upgrade";
    private static final String ORDERS = "orders";
    private static final String REFUNDS = "refunds";
    private static final String FIXTURE_VERSION = "2.2.0";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @BeforeEach
    void createTopics() {
        if (IGGY.isExternal()) {
            try {
                IGGY.deleteStream(STREAM);
            } catch (RuntimeException noSuchStream) {
                // the first run on this server
            }
        }
        IGGY.createStream(STREAM);
        IGGY.createTopic(STREAM, ORDERS, 2);
        for (int p = 0; p < 2; p++) {
            send(ORDERS, p, "o-" + p + "-0", "o-" + p + "-1", "o-" + p + "-2");
        }
    }

    @AfterEach
    void deleteTopics() {
        IGGY.deleteStream(STREAM);
    }

    @Test
    void theSingleTopicSourcesSavepointRestoresIntoAListThatAddsATopic(@TempDir Path work)
            throws Exception {
        restoresOnceEach(work, 1, b -> b.setTopics(ORDERS, REFUNDS));
    }

    @Test
    void theSingleTopicSourcesSavepointRestoresIntoAListWhereItsTopicIsNotFirstAtParallelismTwo(
            @TempDir Path work) throws Exception {
        restoresOnceEach(work, 2, b -> b.setTopics(REFUNDS, ORDERS));
    }

    @Test
    void theSingleTopicSourcesSavepointRestoresIntoATopicPattern(@TempDir Path work)
            throws Exception {
        restoresOnceEach(work, 1, b -> b.setTopicPattern(Pattern.compile("orders|refunds")));
    }

    /**
     * Orders after what the savepoint read and refunds from their start, then a marker in every
     * partition: everything read exactly once up to the markers.
     */
    private static void restoresOnceEach(
            Path work, int parallelism, UnaryOperator<IggySourceBuilder<String>> topics)
            throws Exception {
        Path savepoint = storedSavepoint(work);
        IGGY.createTopic(STREAM, REFUNDS, 1);
        send(ORDERS, 0, "o-0-3");
        send(ORDERS, 1, "o-1-3");
        send(REFUNDS, 0, "r-0-0");
        Running job =
                run(
                        StreamExecutionEnvironment.getExecutionEnvironment(restoring(savepoint)),
                        parallelism,
                        topics);
        try {
            List<String> read = new ArrayList<>(job.take(3));
            send(ORDERS, 0, "end-o-0");
            send(ORDERS, 1, "end-o-1");
            send(REFUNDS, 0, "end-r-0");
            read.addAll(job.takeUntil(Set.of("end-o-0", "end-o-1", "end-r-0")));
            assertThat(read)
                    .as("orders after what the savepoint read, refunds from its start, once each")
                    .containsExactlyInAnyOrder(
                            "o-0-3", "o-1-3", "r-0-0", "end-o-0", "end-o-1", "end-r-0");
        } finally {
            if (!job.client.getJobStatus().get().isGloballyTerminalState()) {
                job.client.cancel().get(60, TimeUnit.SECONDS);
            }
            job.records.close();
        }
    }

    @Test
    void aSavepointRestoredIntoASourceThatNoLongerReadsItsTopicFailsSayingWhatChanged(
            @TempDir Path work) throws Exception {
        Path savepoint = storedSavepoint(work);
        IGGY.createTopic(STREAM, REFUNDS, 1);
        send(REFUNDS, 0, "r-0-0");

        Running job =
                run(
                        StreamExecutionEnvironment.getExecutionEnvironment(restoring(savepoint)),
                        b -> b.setTopics(REFUNDS));
        try {
            // The job fails: its result says why (the collect iterator may just end).
            assertThatThrownBy(
                            () ->
                                    job.client
                                            .getJobExecutionResult()
                                            .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
                    .satisfies(
                            e ->
                                    assertThat(ExceptionUtils.stringifyException(e))
                                            .contains(
                                                    "splits of topic 'orders' of stream '"
                                                            + STREAM
                                                            + "'")
                                            .contains("no longer reads")
                                            .contains("start the job without its state"));
        } finally {
            job.records.close();
        }
    }

    /**
     * A copy of the stored savepoint; skipped on Flink releases older than the one that wrote it,
     * which cannot read it.
     */
    private static Path storedSavepoint(Path work) throws Exception {
        String running = EnvironmentInformation.getVersion();
        assumeTrue(
                compareVersions(running, FIXTURE_VERSION) >= 0,
                "Flink " + running + " cannot read a savepoint of Flink " + FIXTURE_VERSION);
        Path savepoint = work.resolve("savepoint");
        SavepointFixtures.copy(
                Paths.get(
                        MultiTopicSourceSavepointITCase.class
                                .getClassLoader()
                                .getResource(FIXTURES + "/flink-" + FIXTURE_VERSION)
                                .toURI()),
                savepoint);
        return savepoint;
    }

    private static int compareVersions(String a, String b) {
        String[] x = a.split("[.-]");
        String[] y = b.split("[.-]");
        for (int i = 0; i < 3; i++) {
            int c = Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Stores the single-topic source's savepoint (see the class comment). */
    @Test
    @EnabledIfSystemProperty(named = "iggy.savepoint.fixture.write", matches = "true")
    void storesTheSavepointOfTheSingleTopicSource(
            @InjectClusterClient ClusterClient<?> client, @TempDir Path work) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Running job = runFixtureJob(env, b -> b.setTopic(ORDERS));
        List<String> read = job.take(6);
        assertThat(read).hasSize(6);
        String savepoint =
                job.client
                        .stopWithSavepoint(
                                false, work.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(60, TimeUnit.SECONDS);
        SavepointFixtures.waitForStatus(client, job.client.getJobID(), JobStatus.FINISHED, TIMEOUT);
        job.records.close();
        SavepointFixtures.store(savepoint, FIXTURES);
    }

    /** A restored job at parallelism 1. */
    private static Running run(
            StreamExecutionEnvironment env, UnaryOperator<IggySourceBuilder<String>> topics)
            throws Exception {
        return run(env, 1, topics);
    }

    /**
     * A restored job: the source (uid {@code iggy-source}), then a map, then a collect sink. The
     * fixture's collect sink state holds what the old job emitted; with the map between, the sink
     * is another operator than the fixture's, so that state stays unclaimed and is not emitted
     * again.
     */
    private static Running run(
            StreamExecutionEnvironment env,
            int parallelism,
            UnaryOperator<IggySourceBuilder<String>> topics)
            throws Exception {
        return collect(env, source(env, parallelism, topics).map(r -> r).uid("read"));
    }

    /** The job that writes the fixture: the source and a collect sink. */
    private static Running runFixtureJob(
            StreamExecutionEnvironment env, UnaryOperator<IggySourceBuilder<String>> topics)
            throws Exception {
        return collect(env, source(env, 1, topics));
    }

    private static DataStream<String> source(
            StreamExecutionEnvironment env,
            int parallelism,
            UnaryOperator<IggySourceBuilder<String>> topics) {
        env.setParallelism(parallelism);
        IggySourceBuilder<String> builder =
                IggySource.<String>builder()
                        .setConnection(
                                IggyConnectionConfig.builder()
                                        .setAddress(IGGY.address())
                                        .setCredentials(IGGY.username(), IGGY.password())
                                        .build())
                        .setStream(STREAM)
                        .setConsumerName("multi-topic-upgrade")
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setValueOnlyDeserializer(new SimpleStringSchema());
        return env.fromSource(
                        topics.apply(builder).build(), WatermarkStrategy.noWatermarks(), "orders")
                .uid("iggy-source");
    }

    private static Running collect(StreamExecutionEnvironment env, DataStream<String> records)
            throws Exception {
        CloseableIterator<String> iterator = records.collectAsync();
        return new Running(env.executeAsync("multi-topic upgrade"), iterator);
    }

    private static final class Running {
        final JobClient client;
        final CloseableIterator<String> records;

        Running(JobClient client, CloseableIterator<String> records) {
            this.client = client;
            this.records = records;
        }

        /** The next {@code count} records, or what failed the job, within the deadline. */
        List<String> take(int count) throws Exception {
            return CompletableFuture.supplyAsync(
                            () -> {
                                List<String> taken = new ArrayList<>();
                                while (taken.size() < count && records.hasNext()) {
                                    taken.add(records.next());
                                }
                                return taken;
                            })
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }

        /** The records up to and with every one of {@code markers}, within the deadline. */
        List<String> takeUntil(Set<String> markers) throws Exception {
            return CompletableFuture.supplyAsync(
                            () -> {
                                Set<String> missing = new HashSet<>(markers);
                                List<String> taken = new ArrayList<>();
                                while (!missing.isEmpty() && records.hasNext()) {
                                    String record = records.next();
                                    taken.add(record);
                                    missing.remove(record);
                                }
                                return taken;
                            })
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static void send(String topic, int partition, String... lines) {
        List<byte[]> payloads = new ArrayList<>();
        for (String line : lines) {
            payloads.add(line.getBytes(StandardCharsets.UTF_8));
        }
        IGGY.send(STREAM, topic, partition, payloads);
    }

    /** Restores the savepoint, without restarts, so that a failure ends the job. */
    private static Configuration restoring(Path savepoint) {
        Configuration config = new Configuration();
        config.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint.toUri().toString());
        config.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, true);
        config.setString("restart-strategy.type", "none");
        return config;
    }
}

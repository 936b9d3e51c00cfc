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
package org.apache.flink.connector.iggy.common;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;

import org.apache.iggy.identifier.UserId;
import org.apache.iggy.user.StreamPermissions;
import org.apache.iggy.user.UserStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A configuration error (wrong credentials, a missing stream or topic, a permission denied, TLS on
 * one side only) fails the job at once, without a restart, even under the playground's restart
 * strategy of 50 attempts; a failure that may pass (no server listening) is retried as the strategy
 * says.
 */
class ConfigurationErrorsFailFastITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(1);

    /** What Flink's scheduler says of a failure that no restart strategy may retry. */
    private static final String NOT_RECOVERABLE = "The failure is not recoverable";

    private static final String PASSWORD = "secret-password";

    private String stream;
    private String user;

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("config-errors");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
    }

    @AfterEach
    void deleteStreamAndUser() {
        IGGY.deleteStream(stream);
        if (user != null) {
            IGGY.client().users().deleteUser(UserId.of(user));
        }
    }

    /** The playground's restart strategy: 50 attempts, half a second apart. */
    private static StreamExecutionEnvironment playgroundRestarts() {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 50);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(500));
        return StreamExecutionEnvironment.getExecutionEnvironment(conf);
    }

    private static IggyConnectionConfig.Builder connection() {
        return IggyConnectionConfig.builder()
                .setAddress(IGGY.address())
                .setCredentials(IGGY.username(), IGGY.password())
                .setConnectTimeout(Duration.ofSeconds(5));
    }

    @Test
    void aSourceWithAWrongPasswordFailsWithoutRestarts() {
        Throwable failure =
                runSource(connection().setCredentials(IGGY.username(), "wrong").build(), "t");

        assertConfigurationError(failure, "Cannot log in to Iggy at " + IGGY.address());
    }

    @Test
    void aSourceOfAMissingTopicFailsWithoutRestarts() {
        Throwable failure = runSource(connection().build(), "misspelt");

        assertConfigurationError(failure, "Iggy topic 'misspelt' does not exist in stream");
    }

    @Test
    void aSourceWhoseUserMayNotReadTheTopicFailsWithoutRestarts() {
        user = IGGY.uniqueName("no-permissions");
        IGGY.client().users().createUser(user, PASSWORD, UserStatus.Active, Optional.empty());

        Throwable failure = runSource(connection().setCredentials(user, PASSWORD).build(), "t");

        assertConfigurationError(
                failure, "The Iggy server denied the permission to read topic 't'");
    }

    /** The user may read the stream (so the sink opens) but not send to it. */
    @Test
    void aSinkWhoseUserMayNotSendFailsWithoutRestarts() {
        user = IGGY.uniqueName("read-only");
        StreamPermissions readOnly =
                new StreamPermissions(false, true, false, true, true, false, Map.of());
        IGGY.createUserOfStream(user, PASSWORD, stream, readOnly);

        Throwable failure =
                runSink(
                        playgroundRestarts(),
                        connection().setCredentials(user, PASSWORD).build(),
                        "t");

        assertConfigurationError(failure, "The Iggy server denied the permission");
    }

    @Test
    void aSinkToAMissingTopicFailsWithoutRestarts() {
        Throwable failure = runSink(playgroundRestarts(), connection().build(), "misspelt");

        assertConfigurationError(failure, "Iggy topic 'misspelt' does not exist in stream");
    }

    @Test
    void aSinkWithAWrongPasswordFailsWithoutRestarts() {
        Throwable failure =
                runSink(
                        playgroundRestarts(),
                        connection().setCredentials(IGGY.username(), "wrong").build(),
                        "t");

        assertConfigurationError(failure, "Cannot log in to Iggy at " + IGGY.address());
    }

    @Test
    void tlsAgainstAPlainServerIsAConfigurationError() {
        Throwable failure =
                catchThrowable(
                        () ->
                                IggyServerClient.connect(
                                        connection()
                                                .setTlsEnabled(true)
                                                .setConnectTimeout(Duration.ofSeconds(2))
                                                .build(),
                                        new SimpleCounter()));

        assertThat(failure)
                .isInstanceOf(IggyConfigurationException.class)
                .hasMessageContaining("the TLS handshake");
    }

    /**
     * No server listening may be one restarting: the restart strategy retries it. (A sink job: a
     * collecting client, as the SQL client's {@code SELECT}, gives up at the first restart of a job
     * without checkpoints, saying only {@code Job restarted}.)
     */
    @Test
    void anUnreachableServerIsRetried() {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        IggyConnectionConfig unreachable =
                connection()
                        .setAddress("127.0.0.1:1")
                        .setConnectTimeout(Duration.ofSeconds(1))
                        .build();

        Throwable failure = runSink(env, unreachable, "t");

        assertThat(ExceptionUtils.stringifyException(failure))
                .contains("Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy")
                .contains("maxNumberRestartAttempts=2")
                .contains("Cannot connect to Iggy at 127.0.0.1:1")
                .doesNotContain(NOT_RECOVERABLE);
        assertThat(ExceptionUtils.findThrowable(failure, IggyConfigurationException.class))
                .isEmpty();
    }

    /** Runs a job writing two records to {@code topic}; its failure. */
    private Throwable runSink(
            StreamExecutionEnvironment env, IggyConnectionConfig config, String topic) {
        env.fromData("a", "b")
                .sinkTo(
                        IggySink.<String>builder()
                                .setConnection(config)
                                .setStream(stream)
                                .setTopic(topic)
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .build());
        return catchThrowable(() -> env.execute("sink to " + topic));
    }

    private Throwable runSource(IggyConnectionConfig config, String topic) {
        return catchThrowable(() -> collectAll(playgroundRestarts(), source(config, topic)));
    }

    private IggySource<String> source(IggyConnectionConfig config, String topic) {
        return IggySource.<String>builder()
                .setConnection(config)
                .setStream(stream)
                .setTopic(topic)
                .setConsumerName("c")
                .setStartingOffsets(IggyStartingOffsets.earliest())
                .setValueOnlyDeserializer(new SimpleStringSchema())
                .build();
    }

    private static void collectAll(StreamExecutionEnvironment env, IggySource<String> source)
            throws Exception {
        try (CloseableIterator<String> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "s").executeAndCollect()) {
            it.forEachRemaining(x -> {});
        }
    }

    /**
     * The job failed at its first failure, as not recoverable, and the root cause (what the SQL
     * client prints) is the connector's message.
     */
    private static void assertConfigurationError(Throwable failure, String message) {
        assertThat(failure).as("the job failed").isNotNull();
        assertThat(ExceptionUtils.findThrowableWithMessage(failure, NOT_RECOVERABLE))
                .as("failed without a restart:%n%s", ExceptionUtils.stringifyException(failure))
                .isPresent();
        assertThat(ExceptionUtils.findThrowable(failure, IggyConfigurationException.class))
                .get()
                .extracting(Throwable::getMessage)
                .asString()
                .contains(message);
        assertThat(rootCause(failure))
                .isInstanceOf(IggyConfigurationException.class)
                .hasMessageContaining(message);
    }

    private static Throwable rootCause(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }
}

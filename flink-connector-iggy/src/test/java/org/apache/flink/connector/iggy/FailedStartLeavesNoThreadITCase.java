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
package org.apache.flink.connector.iggy;

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.sink.writer.TestSinkInitContext;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.FactoryUtil;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A catalog, source or sink whose connection or login fails has ended every thread it started (the
 * SDK's Netty event loops included) by the time the failure reaches the caller: Flink's SQL client
 * releases its class loader right after a failed {@code CREATE CATALOG}, and a thread still running
 * then fails to load classes there ({@code NoClassDefFoundError}).
 */
class FailedStartLeavesNoThreadITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    /**
     * How long a thread that has finished its work may take to exit: far below the 2 s that the
     * SDK's own close keeps its event loops, so a client closed that way fails the test.
     */
    private static final Duration EXIT_GRACE = Duration.ofSeconds(1);

    private String stream;

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("threads");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
    }

    @AfterEach
    void deleteStream() {
        IGGY.deleteStream(stream);
    }

    private static IggyConnectionConfig.Builder connection() {
        return IggyConnectionConfig.builder()
                .setAddress(IGGY.address())
                .setCredentials(IGGY.username(), IGGY.password())
                .setConnectTimeout(Duration.ofSeconds(2));
    }

    private static IggyConnectionConfig wrongPassword() {
        return connection().setCredentials(IGGY.username(), "not-the-password").build();
    }

    @Test
    void aFailedLoginEndsTheClientsThreadsBeforeItThrows() {
        assertThat(
                        threadsLeftBy(
                                () ->
                                        IggyServerClient.connect(
                                                wrongPassword(), new SimpleCounter())))
                .isEmpty();
        assertThat(
                        threadsLeftBy(
                                () ->
                                        IggyServerClient.connectWithOneConnection(
                                                connection()
                                                        .setPersonalAccessToken("no-such-token")
                                                        .build(),
                                                new SimpleCounter())))
                .isEmpty();
    }

    @Test
    void aFailedConnectEndsTheClientsThreadsBeforeItThrows() throws IOException {
        String closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = "127.0.0.1:" + socket.getLocalPort();
        }
        IggyConnectionConfig unreachable = connection().setAddress(closed).build();

        assertThat(threadsLeftBy(() -> IggyServerClient.connect(unreachable, new SimpleCounter())))
                .isEmpty();
    }

    @Test
    void aLoginThatTimesOutEndsTheClientsThreadsBeforeItThrows() throws IOException {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            IggyConnectionConfig neverAnswers =
                    connection().setAddress("127.0.0.1:" + silent.getLocalPort()).build();

            assertThat(
                            threadsLeftBy(
                                    () ->
                                            IggyServerClient.connect(
                                                    neverAnswers, new SimpleCounter())))
                    .isEmpty();
        }
    }

    /** What the SQL client's {@code CREATE CATALOG} with a wrong password does. */
    @Test
    void aCatalogThatCannotLogInLeavesNoThread() {
        Catalog catalog =
                FactoryUtil.createCatalog(
                        "wrong",
                        Map.of(
                                "type",
                                "iggy",
                                "address",
                                IGGY.address(),
                                "username",
                                IGGY.username(),
                                "password",
                                "not-the-password"),
                        new Configuration(),
                        getClass().getClassLoader());

        assertThat(threadsLeftBy(catalog::open)).isEmpty();
    }

    @Test
    void aSourceThatCannotLogInLeavesNoThread() {
        IggySource<String> source =
                IggySource.<String>builder()
                        .setConnection(wrongPassword())
                        .setStream(stream)
                        .setTopic("t")
                        .setConsumerName("c")
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setValueOnlyDeserializer(new SimpleStringSchema())
                        .build();
        TestingSplitEnumeratorContext<IggyPartitionSplit> context =
                new TestingSplitEnumeratorContext<>(1);

        List<Thread> left =
                threadsLeftBy(
                        () -> {
                            try (SplitEnumerator<IggyPartitionSplit, ?> enumerator =
                                    source.createEnumerator(context)) {
                                enumerator.start();
                                context.triggerAllActions(); // the description, which fails
                                context.registerReader(0, "localhost");
                                enumerator.addReader(0); // a failed start fails the job now
                            }
                        });

        assertThat(left).isEmpty();
    }

    @Test
    void aSinkThatCannotLogInOrFindItsTopicLeavesNoThread() {
        IggySink<String> wrong =
                IggySink.<String>builder()
                        .setConnection(wrongPassword())
                        .setStream(stream)
                        .setTopic("t")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .build();
        IggySink<String> missingTopic =
                IggySink.<String>builder()
                        .setConnection(connection().build())
                        .setStream(stream)
                        .setTopic("no-such-topic")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .build();

        assertThat(threadsLeftBy(() -> writeOne(wrong))).isEmpty();
        assertThat(threadsLeftBy(() -> writeOne(missingTopic))).isEmpty();
    }

    private static void writeOne(IggySink<String> sink) throws Exception {
        try (SinkWriter<String> writer = sink.createWriter(new TestSinkInitContext())) {
            writer.write("a", null);
            writer.flush(false);
        }
    }

    /**
     * Runs {@code action}, which must fail, and returns the threads it started that are still alive
     * once it has failed (each given {@link #EXIT_GRACE} to exit). Leaves out the in-JVM server's
     * threads and the JDK's shared ones, which belong to neither the connector nor the SDK.
     */
    private static List<Thread> threadsLeftBy(FailingAction action) {
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        Throwable failure = catchThrowable(action::run);
        assertThat(failure).as("the action must fail").isNotNull();

        long deadline = System.nanoTime() + EXIT_GRACE.toNanos();
        List<Thread> left = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (before.contains(thread) || notOurs(thread)) {
                continue;
            }
            try {
                thread.join(
                        Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            if (thread.isAlive()) {
                left.add(thread);
            }
        }
        return left;
    }

    private static boolean notOurs(Thread thread) {
        String name = thread.getName();
        return name.startsWith("iggy-embedded-")
                || name.startsWith("ForkJoinPool.commonPool")
                || name.equals("CompletableFutureDelayScheduler");
    }

    @FunctionalInterface
    private interface FailingAction {
        void run() throws Exception;
    }
}

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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.connector.iggy.testutils.server.EmbeddedIggyServer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.RestartStrategyUtils;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.testutils.junit.SharedReference;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;

import static org.apache.flink.connector.iggy.sink.testutils.IggySinkExternalContext.connection;
import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MiniCluster's only TaskManager is killed mid-stream, after a checkpoint; a new one is started
 * and the job replays what followed the checkpoint. With deterministic message ids and the server's
 * deduplication on, the topic holds every record exactly once; without deduplication the replay
 * shows up as duplicates (at-least-once).
 */
class IggySinkIdempotentWritesITCase {

    @RegisterExtension
    static final IggyServerExtension DEDUPLICATING =
            new IggyServerExtension(
                    EmbeddedIggyServer.Config.builder().deduplicationEnabled().build());

    @RegisterExtension static final IggyServerExtension PLAIN = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    private static final int RECORDS = 400;
    private static final int KILL_FROM = 150;

    /**
     * The MiniCluster's index of the TaskManager that runs now: a killed one keeps its index and a
     * started one gets the next.
     */
    private static int liveTaskManager;

    /** Hands the kill point's signals to the job, fresh for every test. */
    @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

    private SharedReference<CompletableFuture<Long>> killPointReached;
    @Nullable private SharedReference<IntSupplier> messagesInTopic;

    @BeforeEach
    void resetFailure() {
        killPointReached = shared.add(new CompletableFuture<>());
        messagesInTopic = null;
    }

    @Test
    void keyedMapWithIdempotentWritesLeavesNoDuplicatesAfterAFailover(
            @InjectMiniCluster MiniCluster flink) throws Exception {
        Assumptions.assumeFalse(
                DEDUPLICATING.isExternal(), "needs the embedded server with deduplication on");
        String stream = topicOn(DEDUPLICATING);
        messagesInTopic = shared.add(() -> payloads(DEDUPLICATING, stream).size());
        run(flink, changes -> changes, keyedMapSink(DEDUPLICATING, stream, true));

        List<String> payloads = payloads(DEDUPLICATING, stream);
        assertThat(killPointReached.get()).isDone();
        assertThat(payloads).hasSize(RECORDS).doesNotHaveDuplicates();
    }

    @Test
    void streamModeWithMessageIdFunctionLeavesNoDuplicatesAfterAFailover(
            @InjectMiniCluster MiniCluster flink) throws Exception {
        Assumptions.assumeFalse(
                DEDUPLICATING.isExternal(), "needs the embedded server with deduplication on");
        String stream = topicOn(DEDUPLICATING);
        run(
                flink,
                changes -> changes.map(IggyMapChange::value).returns(Types.STRING),
                IggySink.<String>builder()
                        .setConnection(connection(DEDUPLICATING))
                        .setStream(stream)
                        .setTopic("out")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .setMessageIdFunction(
                                v -> BigInteger.valueOf(1 + Long.parseLong(v.substring(1))))
                        .build());
        assertThat(killPointReached.get()).isDone();
        assertThat(payloads(DEDUPLICATING, stream)).hasSize(RECORDS).doesNotHaveDuplicates();
    }

    @Test
    void withoutDeduplicationTheReplayIsSentAgain(@InjectMiniCluster MiniCluster flink)
            throws Exception {
        String stream = topicOn(PLAIN);
        messagesInTopic = shared.add(() -> payloads(PLAIN, stream).size());
        run(flink, changes -> changes, keyedMapSink(PLAIN, stream, true));

        List<String> payloads = payloads(PLAIN, stream);
        Set<String> distinct = new HashSet<>(payloads);
        assertThat(killPointReached.get()).isDone();
        assertThat(distinct).hasSize(RECORDS);
        assertThat(payloads.size()).isGreaterThan(RECORDS);
    }

    private <T> void run(
            MiniCluster flink,
            Function<DataStream<IggyMapChange<String, String>>, DataStream<T>> shape,
            Sink<T> sink)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        // ~50 records between checkpoints, so that the kill can follow one by more than 10.
        env.enableCheckpointing(500);
        RestartStrategyUtils.configureFixedDelayRestartStrategy(env, 5, 100L);
        DataStream<IggyMapChange<String, String>> changes =
                env.fromSource(
                                new DataGeneratorSource<>(
                                        index -> index,
                                        RECORDS,
                                        RateLimiterStrategy.perSecond(100),
                                        Types.LONG),
                                WatermarkStrategy.noWatermarks(),
                                "indexes")
                        .map(new KillPointAfterCheckpoint(killPointReached, messagesInTopic))
                        .returns(IggyKeyedMapSinkITCase.CHANGES);
        shape.apply(changes).sinkTo(sink);
        JobClient job = env.executeAsync("failover");

        killPointReached.get().get(60, TimeUnit.SECONDS);
        flink.terminateTaskManager(liveTaskManager).get(60, TimeUnit.SECONDS);
        flink.startTaskManager();
        liveTaskManager++;

        job.getJobExecutionResult().get(120, TimeUnit.SECONDS);
    }

    private static Sink<IggyMapChange<String, String>> keyedMapSink(
            IggyServerExtension iggy, String stream, boolean idempotent) {
        return IggySink.<String, String>keyedMap()
                .setConnection(connection(iggy))
                .setStream(stream)
                .setTopic("out")
                .setValueSerializationSchema(new SimpleStringSchema())
                .setIdempotentWrites(idempotent)
                .build();
    }

    private static String topicOn(IggyServerExtension iggy) {
        String stream = iggy.uniqueName("idempotent");
        iggy.createStream(stream);
        iggy.createTopic(stream, "out", 1);
        return stream;
    }

    private static List<String> payloads(IggyServerExtension iggy, String stream) {
        return iggy.readAll(stream, "out", 0).stream()
                .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }

    /**
     * Turns index i into upsert(k(i mod 20), v(i)). From record {@link #KILL_FROM} on, once a
     * checkpoint completed and at least {@link #AFTER_CHECKPOINT} records passed since the last
     * checkpoint barrier, it tells the test to kill the TaskManager and waits for it, so that those
     * records are replayed. Counting from the barrier, not from the completion: a barrier that
     * passed after the last completion belongs to a checkpoint that may still complete, and the
     * records before it would then not be replayed. If the test tells it how to count the topic
     * (only when the writer runs in another task), it first waits until everything it emitted is in
     * the topic, so the replay is certain to repeat sent messages.
     */
    static final class KillPointAfterCheckpoint
            implements MapFunction<Long, IggyMapChange<String, String>>,
                    CheckpointListener,
                    CheckpointedFunction {
        static final int AFTER_CHECKPOINT = 10;
        private final SharedReference<CompletableFuture<Long>> reached;
        @Nullable private final SharedReference<IntSupplier> messagesInTopic;
        private transient boolean checkpointed;
        private transient int sinceCheckpoint;

        KillPointAfterCheckpoint(
                SharedReference<CompletableFuture<Long>> reached,
                @Nullable SharedReference<IntSupplier> messagesInTopic) {
            this.reached = reached;
            this.messagesInTopic = messagesInTopic;
        }

        @Override
        public IggyMapChange<String, String> map(Long index) throws InterruptedException {
            sinceCheckpoint++;
            if (index >= KILL_FROM
                    && checkpointed
                    && sinceCheckpoint > AFTER_CHECKPOINT
                    && !reached.get().isDone()) {
                awaitMessagesInTopic(index);
                reached.get().complete(index);
                // Hold the task here until the kill interrupts it: no record and no checkpoint
                // barrier passes, so the job recovers from the checkpoint this record followed.
                try {
                    new CompletableFuture<Void>().get();
                } catch (ExecutionException impossible) {
                    throw new IllegalStateException(impossible);
                }
            }
            return IggyMapChange.upsert("k" + (index % 20), "v" + index);
        }

        /** Fails the job (and so the test) naming the counts when they never arrive. */
        private void awaitMessagesInTopic(long expected) throws InterruptedException {
            if (messagesInTopic == null) {
                return;
            }
            IntSupplier count = messagesInTopic.get();
            waitUntil(
                    expected + " messages are in the topic before the kill point",
                    Duration.ofSeconds(20),
                    () -> count.getAsInt() >= expected,
                    () -> ", but it has " + count.getAsInt());
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            sinceCheckpoint = 0;
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            checkpointed = true;
        }
    }
}

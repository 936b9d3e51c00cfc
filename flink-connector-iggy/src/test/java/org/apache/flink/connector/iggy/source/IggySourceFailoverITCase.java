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
package org.apache.flink.connector.iggy.source;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.RestartStrategyUtils;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.testutils.junit.SharedReference;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.connection;
import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.numbered;
import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure that breaks naive Iggy sources (auto-commit, or storing offsets when polled): records
 * 0-9 are consumed and checkpointed, records 10-19 are polled but not checkpointed when the job
 * fails. After recovery each of 0-29 is in the checkpointed output exactly once, and the stored
 * consumer offset never ran ahead of a completed checkpoint.
 */
class IggySourceFailoverITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    /** Hands the signals below to the job's functions, fresh for every test. */
    @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

    private SharedReference<CountDownLatch> firstTenCheckpointed;
    private SharedReference<CountDownLatch> failed;
    private SharedReference<AtomicLong> storedAtFailure;

    @BeforeEach
    void signals() {
        firstTenCheckpointed = shared.add(new CountDownLatch(1));
        failed = shared.add(new CountDownLatch(1));
        storedAtFailure = shared.add(new AtomicLong(Long.MIN_VALUE));
    }

    /** Fails the first attempt when record 10 arrives; tells the test when 0-9 are checkpointed. */
    private static final class FailAtRecordTen extends RichMapFunction<String, String>
            implements CheckpointedFunction, CheckpointListener {
        private final String stream;
        private final String topic;
        private final String consumer;
        private final SharedReference<CountDownLatch> firstTenCheckpointed;
        private final SharedReference<CountDownLatch> failed;
        private final SharedReference<AtomicLong> storedAtFailure;
        private final Map<Long, Integer> seenAtCheckpoint = new ConcurrentHashMap<>();
        private int seen;

        FailAtRecordTen(
                String stream,
                String topic,
                String consumer,
                SharedReference<CountDownLatch> firstTenCheckpointed,
                SharedReference<CountDownLatch> failed,
                SharedReference<AtomicLong> storedAtFailure) {
            this.stream = stream;
            this.topic = topic;
            this.consumer = consumer;
            this.firstTenCheckpointed = firstTenCheckpointed;
            this.failed = failed;
            this.storedAtFailure = storedAtFailure;
        }

        @Override
        public String map(String value) {
            if (value.equals("r10") && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0) {
                storedAtFailure
                        .get()
                        .set(IGGY.storedOffset(stream, topic, 0, consumer).orElse(-1L));
                failed.get().countDown();
                throw new IllegalStateException("Injected failure after polling records 10-19");
            }
            seen++;
            return value;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            seenAtCheckpoint.put(context.getCheckpointId(), seen);
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            Integer seenThen = seenAtCheckpoint.get(checkpointId);
            if (seenThen != null && seenThen >= 10) {
                firstTenCheckpointed.get().countDown();
            }
        }
    }

    @Test
    void polledButUncheckpointedRecordsAreReplayedExactlyOnceAndTheStoredOffsetNeverRunsAhead()
            throws Exception {
        String stream = IGGY.uniqueName("failover");
        String topic = "t";
        String consumer = IGGY.uniqueName("consumer");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, topic, 1);
        IGGY.send(stream, topic, 0, numbered("r", 0, 10));

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(100);
        RestartStrategyUtils.configureFixedDelayRestartStrategy(env, 2, Duration.ofMillis(100));
        IggySource<String> source =
                IggySource.<String>builder()
                        .setConnection(connection(IGGY))
                        .setStream(stream)
                        .setTopic(topic)
                        .setConsumerName(consumer)
                        .setStartingOffsets(IggyStartingOffsets.committed())
                        .setPollInterval(Duration.ofMillis(20))
                        .setValueOnlyDeserializer(new SimpleStringSchema())
                        .build();

        List<String> output = new ArrayList<>();
        try (CloseableIterator<String> results =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "iggy")
                        .map(
                                new FailAtRecordTen(
                                        stream,
                                        topic,
                                        consumer,
                                        firstTenCheckpointed,
                                        failed,
                                        storedAtFailure))
                        .executeAndCollect("failover")) {
            for (int i = 0; i < 10; i++) {
                output.add(results.next());
            }
            assertThat(firstTenCheckpointed.get().await(60, TimeUnit.SECONDS)).isTrue();
            waitUntil(
                    "offset 9 stored after the checkpoint of 0-9",
                    Duration.ofSeconds(30),
                    () -> IGGY.storedOffset(stream, topic, 0, consumer).equals(Optional.of(9L)));

            IGGY.send(stream, topic, 0, numbered("r", 10, 20));
            assertThat(failed.get().await(60, TimeUnit.SECONDS)).isTrue();
            IGGY.send(stream, topic, 0, numbered("r", 20, 30));

            for (int i = 10; i < 30; i++) {
                output.add(results.next());
            }
        }

        assertThat(storedAtFailure.get().get())
                .as("records 10-19 were polled but not checkpointed: nothing past 9 stored")
                .isEqualTo(9L);
        List<String> expected = new ArrayList<>();
        numbered("r", 0, 30).forEach(p -> expected.add(new String(p)));
        assertThat(output).containsExactlyElementsOf(expected);
        assertThat(IGGY.storedOffset(stream, topic, 0, consumer).orElseThrow()).isBetween(9L, 29L);
    }
}

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
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.RestartStrategyUtils;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;

import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.connection;
import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.numbered;
import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.ourFailure;
import static org.apache.flink.connector.iggy.source.IggySourceTestSupport.take;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A topic deleted and created again under a running source: the source fails with a clear error, or
 * reads the new topic from its start when told to; it never reads on at the old offsets.
 */
class IggySourceTopicRecreationITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(1);

    private String stream;

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("recreated");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
    }

    private CloseableIterator<String> startJob(boolean readRecreatedFromStart) throws Exception {
        return run(
                IggySource.<String>builder()
                        .setConnection(connection(IGGY))
                        .setStream(stream)
                        .setTopic("t")
                        .setConsumerName("c")
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setPollInterval(Duration.ofMillis(20))
                        .setReadRecreatedTopicFromStart(readRecreatedFromStart)
                        .setValueOnlyDeserializer(new SimpleStringSchema())
                        .build());
    }

    private static CloseableIterator<String> run(IggySource<String> source) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        RestartStrategyUtils.configureNoRestartStrategy(env);
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "iggy").executeAndCollect();
    }

    private void recreateTopicWith5100NewMessages() {
        IGGY.client().topics().deleteTopic(StreamId.of(stream), TopicId.of("t"));
        IGGY.createTopic(stream, "t", 1);
        for (int batch = 0; batch < 51; batch++) {
            IGGY.send(stream, "t", 0, numbered("new-", batch * 100, batch * 100 + 100));
        }
    }

    @Test
    void failsWithAClearErrorByDefault() throws Exception {
        IGGY.send(stream, "t", 0, numbered("old-", 0, 100));
        try (CloseableIterator<String> it = startJob(false)) {
            assertThat(take(it, 100)).endsWith("old-99");
            recreateTopicWith5100NewMessages();

            assertThat(ourFailure(it).getMessage())
                    .contains("topic 't' of stream '" + stream + "'")
                    .containsAnyOf("no longer exists", "changed under the running source")
                    .contains("setReadRecreatedTopicFromStart");
        }
    }

    /**
     * A bounded source whose topic loses a partition mid-read (3 to 2, Iggy's deletePartitions)
     * cannot reach that partition's stopping offset: it fails within seconds naming the partition,
     * whatever the recreated-topic setting, instead of waiting forever.
     */
    @Test
    void aBoundedSourceFailsNamingAPartitionDeletedUnderIt() throws Exception {
        IGGY.createTopic(stream, "three", 3);
        for (long p = 0; p < 3; p++) {
            IGGY.send(stream, "three", p, numbered("p" + p + "-", 0, 100));
        }
        IggySource<String> source =
                IggySource.<String>builder()
                        .setConnection(connection(IGGY))
                        .setStream(stream)
                        .setTopic("three")
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        // Beyond what the partitions hold: the source reads and then waits.
                        .setBounded(
                                IggyStoppingOffsets.specific(Map.of(0L, 200L, 1L, 200L, 2L, 200L)))
                        .setReadRecreatedTopicFromStart(true)
                        .setValueOnlyDeserializer(new SimpleStringSchema())
                        .build();
        try (CloseableIterator<String> it = run(source)) {
            assertThat(take(it, 300)).hasSize(300);
            IGGY.client()
                    .partitions()
                    .deletePartitions(StreamId.of(stream), TopicId.of("three"), 1L);
            long deleted = System.nanoTime();

            IggyConnectorException failure = ourFailure(it);
            Duration toFailure = Duration.ofNanos(System.nanoTime() - deleted);
            assertThat(failure.getMessage())
                    .contains("topic 'three' of stream '" + stream + "'")
                    .contains("has no partition 2 any more (it has 2 partitions)")
                    .contains("cannot reach its stopping offset 200");
            assertThat(toFailure).as("failed within seconds").isLessThan(Duration.ofSeconds(10));
        }
    }

    @Test
    void readsTheNewTopicFromItsStartWhenConfigured() throws Exception {
        IGGY.send(stream, "t", 0, numbered("old-", 0, 100));
        try (CloseableIterator<String> it = startJob(true)) {
            assertThat(take(it, 100)).endsWith("old-99");
            recreateTopicWith5100NewMessages();
            List<String> after = take(it, 5100);
            assertThat(after).startsWith("new-0").endsWith("new-5099").doesNotHaveDuplicates();
        }
    }
}

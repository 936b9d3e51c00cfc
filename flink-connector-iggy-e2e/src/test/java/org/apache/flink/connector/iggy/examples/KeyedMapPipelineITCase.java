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
package org.apache.flink.connector.iggy.examples;

import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.apache.iggy.message.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A keyed-map source feeding a keyed-map sink, end to end (docs/datastream-sink.md). */
class KeyedMapPipelineITCase {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static IggyConnectionConfig connection() {
        return IggyConnectionConfig.builder()
                .setAddress(IGGY.address())
                .setCredentials(IGGY.username(), IGGY.password())
                .build();
    }

    @Test
    void exampleJobWritesOneMessagePerChangeAndSkipsTheUnchangedValue() throws Exception {
        String stream = IGGY.uniqueName("example");

        KeyedMapExample.Result result = KeyedMapExample.run(connection(), stream);

        assertThat(result.input()).isEqualTo(KeyedMapExample.INPUT);
        assertThat(result.changes())
                .containsExactly(
                        IggyMapChange.upsert("k1", "k1=v1"),
                        IggyMapChange.upsert("k2", "k2=v2"),
                        IggyMapChange.upsert("k1", "k1=v1"),
                        IggyMapChange.upsert("k1", "k1=v1b"),
                        IggyMapChange.delete("k2"));
        // The repeated k1=v1 is not written again; the delete of k2 is written as "k2=".
        assertThat(result.output()).containsExactly("k1=v1", "k2=v2", "k1=v1b", "k2=");
        IGGY.deleteStream(stream);
    }

    @Test
    void liveTailReachesTheDerivedTopicAndRepeatedLatestValuesAddNothing() throws Exception {
        String stream = IGGY.uniqueName("pipeline");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, KeyedMapExample.EVENTS, 1);
        IGGY.createTopic(stream, KeyedMapExample.LATEST, 1);
        send(stream, "k1=v1", "k2=v2", "k1=v1b");

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(200);
        KeyedMapExample.buildPipeline(env, connection(), stream, null);
        JobClient job = env.executeAsync("keyed-map pipeline");
        try {
            assertThat(payloads(awaitLatest(stream, 3)))
                    .containsExactly("k1=v1", "k2=v2", "k1=v1b");

            // The current value of every key again, then one new key produced while the job
            // runs: only the new key reaches the derived topic. One partition and parallelism 1
            // keep the order, so k3 arriving means the repeats were already reconciled.
            send(stream, "k2=v2", "k1=v1b", "k3=v3");

            assertThat(payloads(awaitLatest(stream, 4)))
                    .containsExactly("k1=v1", "k2=v2", "k1=v1b", "k3=v3");
        } finally {
            job.cancel().get();
            IGGY.deleteStream(stream);
        }
    }

    private static void send(String stream, String... lines) {
        IGGY.send(
                stream,
                KeyedMapExample.EVENTS,
                0,
                java.util.Arrays.stream(lines)
                        .map(line -> line.getBytes(StandardCharsets.UTF_8))
                        .toList());
    }

    private static List<Message> awaitLatest(String stream, int count) {
        return IGGY.awaitMessages(stream, KeyedMapExample.LATEST, 0, count, TIMEOUT);
    }

    private static List<String> payloads(List<Message> messages) {
        return messages.stream().map(m -> new String(m.payload(), StandardCharsets.UTF_8)).toList();
    }
}

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
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.apache.iggy.message.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The routing job of docs/datastream-sink.md, run against the in-JVM server. */
class RoutingJobITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @Test
    void eachChangeLandsOnceInItsTablesTopicInItsIdsPartition() throws Exception {
        String stream = IGGY.uniqueName("routing-job");
        IGGY.createStream(stream);
        Map<String, Integer> partitions = Map.of("orders", 3, "payments", 2, "refunds", 1);
        partitions.forEach((topic, count) -> IGGY.createTopic(stream, topic, count));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);

        RoutingJob.run(
                env,
                IggyConnectionConfig.builder()
                        .setAddress(IGGY.address())
                        .setCredentials(IGGY.username(), IGGY.password())
                        .build(),
                stream);

        List<String> stored = new ArrayList<>();
        partitions.forEach(
                (topic, count) -> {
                    for (long p = 0; p < count; p++) {
                        for (Message m : IGGY.readAll(stream, topic, p)) {
                            String change = new String(m.payload(), StandardCharsets.UTF_8);
                            String[] fields = change.split(",");
                            assertThat(fields[0]).isEqualTo(topic);
                            assertThat(p)
                                    .as("partition of %s", change)
                                    .isEqualTo(
                                            IggyPartitioner.partitionForKey(
                                                    fields[1].getBytes(StandardCharsets.UTF_8),
                                                    count));
                            stored.add(change);
                        }
                    }
                });
        assertThat(stored)
                .containsExactlyInAnyOrder(
                        "orders,o1,created",
                        "payments,p1,captured",
                        "orders,o2,created",
                        "refunds,r1,issued",
                        "orders,o1,shipped");
        IGGY.deleteStream(stream);
    }
}

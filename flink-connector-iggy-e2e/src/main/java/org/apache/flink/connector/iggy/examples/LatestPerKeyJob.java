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

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import static java.nio.charset.StandardCharsets.UTF_8;

/** Topic 'latest' gets one message per change of the key=value lines in topic 'events'. */
public class LatestPerKeyJob {

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        // The source stores its offsets in Iggy, and the sink its per-key state in Flink, only
        // when a checkpoint completes: without checkpointing nothing is stored.
        env.enableCheckpointing(10_000);

        // The address and the credentials stay out of the code. The address: IGGY_TCP_ADDRESS,
        // else the playground's. The credentials: iggy.username and iggy.password (or
        // iggy.personal-access-token) of the Flink configuration, else IGGY_USERNAME and
        // IGGY_PASSWORD (or IGGY_PERSONAL_ACCESS_TOKEN) of the environment; build() fails naming
        // all of them when none is set.
        IggyConnectionConfig iggy =
                IggyConnectionConfig.builder()
                        .setAddress(
                                System.getenv().getOrDefault("IGGY_TCP_ADDRESS", "localhost:8090"))
                        .setFlinkConfiguration(env.getConfiguration())
                        .build();

        // Read a topic as a keyed map: key = the text before '=', every message an upsert (no
        // deletion filter: the example job of KeyedMapExample also deletes a key on "key=").
        IggySource<IggyMapChange<String, String>> source =
                IggySource.<IggyMapChange<String, String>>builder()
                        .setConnection(iggy)
                        .setStream("shop")
                        .setTopic("events")
                        .setConsumerName("latest-per-key") // offsets are stored under this name
                        .setStartingOffsets(IggyStartingOffsets.committed())
                        .setDeserializer(
                                IggyRecordDeserializationSchema.keyedMap(
                                        message -> {
                                            String line = new String(message.payload(), UTF_8);
                                            int eq = line.indexOf('=');
                                            return eq < 0 ? null : line.substring(0, eq);
                                        },
                                        new SimpleStringSchema()))
                        .build();

        // Write it reconciled: a key's value is sent only when it changed. The uids keep the
        // read positions and the per-key state restorable from a savepoint when the job changes.
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "events")
                .uid("events-source")
                .sinkTo(
                        IggySink.<String, String>keyedMap()
                                .setConnection(iggy)
                                .setStream("shop")
                                .setTopic("latest")
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .setReconcileUid("fingerprints")
                                .build())
                .uid("latest-sink");

        env.execute("latest per key");
    }
}

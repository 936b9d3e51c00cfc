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
package com.example;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.util.Locale;

/** Writes every message of topic 'events' of stream 'shop', in upper case, to topic 'output'. */
public class MyJob {

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        // The source stores its offsets in Iggy when a checkpoint completes: a restarted job goes
        // on from there.
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

        IggySource<String> source =
                IggySource.<String>builder()
                        .setConnection(iggy)
                        .setStream("shop")
                        .setTopic("events")
                        .setConsumerName("my-iggy-job") // offsets are stored under this name
                        .setStartingOffsets(IggyStartingOffsets.committed())
                        .setValueOnlyDeserializer(new SimpleStringSchema())
                        .build();

        IggySink<String> sink =
                IggySink.<String>builder()
                        .setConnection(iggy)
                        .setStream("shop")
                        .setTopic("output")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .build();

        // Stable operator ids: a savepoint keeps the source's read positions under its uid, so
        // the job can change and still restore them.
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "events")
                .uid("events-source")
                .map(line -> line.toUpperCase(Locale.ROOT))
                .sinkTo(sink)
                .uid("output-sink");
        env.execute("my iggy job");
    }
}

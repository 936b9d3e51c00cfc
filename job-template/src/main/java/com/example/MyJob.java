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
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** Prints the messages of topic 'events' of stream 'shop' (the playground's). */
public class MyJob {

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();

        // Keep credentials out of code: from the environment, with the playground's defaults.
        IggyConnectionConfig iggy =
                IggyConnectionConfig.builder()
                        .setAddress(System.getenv().getOrDefault("IGGY_TCP_ADDRESS", "localhost:8090"))
                        .setCredentials(
                                System.getenv().getOrDefault("IGGY_USERNAME", "iggy"),
                                System.getenv().getOrDefault("IGGY_PASSWORD", "iggy"))
                        .build();

        IggySource<String> source =
                IggySource.<String>builder()
                        .setConnection(iggy)
                        .setStream("shop")
                        .setTopic("events")
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setValueOnlyDeserializer(new SimpleStringSchema())
                        .build();

        env.fromSource(source, WatermarkStrategy.noWatermarks(), "events").print();
        env.execute("my iggy job");
    }
}

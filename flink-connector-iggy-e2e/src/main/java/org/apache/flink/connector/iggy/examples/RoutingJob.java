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

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import static java.nio.charset.StandardCharsets.UTF_8;

/** Each change "table,id,what" goes to the topic named after its table, in its id's partition. */
public class RoutingJob {

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        IggyConnectionConfig iggy =
                IggyConnectionConfig.builder()
                        .setAddress(
                                System.getenv().getOrDefault("IGGY_TCP_ADDRESS", "localhost:8090"))
                        .setFlinkConfiguration(env.getConfiguration())
                        .build();
        run(env, iggy, "shop");
    }

    /** Writes five changes of three tables into topics orders, payments and refunds of stream. */
    public static void run(StreamExecutionEnvironment env, IggyConnectionConfig iggy, String stream)
            throws Exception {
        IggySink<String> sink =
                IggySink.<String>builder()
                        .setConnection(iggy)
                        .setStream(stream)
                        // every topic must exist: a change for a missing one fails the job
                        .setTopicSelector((change, context) -> context.topic(change.split(",")[0]))
                        .setValueSerializationSchema(new SimpleStringSchema())
                        // key partitioning holds per topic: among that topic's partitions
                        .setKeySerializationSchema(change -> change.split(",")[1].getBytes(UTF_8))
                        .setPartitionByKey()
                        .build();
        env.fromData(
                        "orders,o1,created",
                        "payments,p1,captured",
                        "orders,o2,created",
                        "refunds,r1,issued",
                        "orders,o1,shipped")
                .sinkTo(sink)
                .uid("shop-changes-sink");
        env.execute("route shop changes");
    }
}

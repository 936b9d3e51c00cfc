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
package org.apache.flink.connector.iggy.common;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.LineageGraph;
import org.apache.flink.streaming.api.lineage.LineageVertex;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flink 2 builds a job's lineage graph from its sources and sinks (Flink 1.20 has the interfaces
 * but builds no graph): the Iggy source and both sinks appear in it with their topics.
 */
class IggyLineageGraphTest {

    @Test
    void jobLineageGraphNamesEveryIggyTopic() {
        IggyConnectionConfig connection =
                IggyConnectionConfig.builder()
                        .setAddress("127.0.0.1:8090")
                        .setCredentials("u", "p")
                        .build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        DataStream<String> in =
                env.fromSource(
                        IggySource.<String>builder()
                                .setConnection(connection)
                                .setStream("shop")
                                .setTopic("orders")
                                .setConsumerName("c")
                                .setValueOnlyDeserializer(new SimpleStringSchema())
                                .build(),
                        WatermarkStrategy.noWatermarks(),
                        "orders");
        in.sinkTo(
                IggySink.<String>builder()
                        .setConnection(connection)
                        .setStream("shop")
                        .setTopic("audit")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .build());
        in.map(order -> IggyMapChange.upsert(order, order))
                .returns(IggyMapChangeTypeInfo.of(Types.STRING, Types.STRING))
                .sinkTo(
                        IggySink.<String, String>keyedMap()
                                .setConnection(connection)
                                .setStream("shop")
                                .setTopic("latest")
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .build());

        LineageGraph graph = env.getStreamGraph().getLineageGraph();

        assertThat(names(graph.sources())).containsExactly("iggy://127.0.0.1:8090 shop.orders");
        assertThat(names(graph.sinks()))
                .containsExactlyInAnyOrder(
                        "iggy://127.0.0.1:8090 shop.audit", "iggy://127.0.0.1:8090 shop.latest");
    }

    private static List<String> names(List<? extends LineageVertex> vertices) {
        return vertices.stream()
                .flatMap(vertex -> vertex.datasets().stream())
                .map(IggyLineageGraphTest::name)
                .collect(Collectors.toList());
    }

    private static String name(LineageDataset dataset) {
        return dataset.namespace() + " " + dataset.name();
    }
}

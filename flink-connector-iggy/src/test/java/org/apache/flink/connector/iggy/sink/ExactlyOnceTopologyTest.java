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

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.common.IggyMapChangeTypeInfo;
import org.apache.flink.connector.iggy.sink.internal.committer.CommitterHandoff;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where Flink places an exactly-once sink's committer: in a task of its own, chained to nothing of
 * the writer's, with stable uids: the writer's and the committer's are those Flink derives from the
 * sink's.
 */
class ExactlyOnceTopologyTest {

    private static final IggyConnectionConfig CONNECTION =
            IggyConnectionConfig.builder()
                    .setAddress("localhost:8090")
                    .setCredentials("iggy", "iggy")
                    .build();

    @Test
    void theCommitterRunsInAJobVertexOfItsOwnWithTheUidsOfTheChainedTopology() {
        StreamExecutionEnvironment env = environment();
        env.fromData("a", "b")
                .uid("letters")
                .sinkTo(recordSink(DeliveryGuarantee.EXACTLY_ONCE))
                .uid("iggy-sink");
        StreamGraph graph = env.getStreamGraph();

        assertThat(uids(graph))
                .contains(
                        "iggy-sink",
                        "iggy-sink: " + CommitterHandoff.NAME,
                        "Sink Committer: iggy-sink");
        List<String> vertices = vertexNames(graph);
        assertThat(vertices)
                .as("the writer's task holds no committer")
                .anySatisfy(
                        name -> assertThat(name).contains("Writer").doesNotContain("Committer"));
        assertThat(vertices)
                .as("the committer's task, after the hand-off")
                .anySatisfy(
                        name ->
                                assertThat(name)
                                        .contains(CommitterHandoff.NAME)
                                        .contains("Committer")
                                        .doesNotContain("Writer"));
    }

    @Test
    void aKeyedMapSinkWithoutAUidGetsItsCommitterTaskToo() {
        StreamExecutionEnvironment env = environment();
        env.fromData("k=v")
                .map(line -> IggyMapChange.upsert(line.split("=")[0], line.split("=")[1]))
                .returns(IggyMapChangeTypeInfo.of(Types.STRING, Types.STRING))
                .sinkTo(
                        IggySink.<String, String>keyedMap()
                                .setConnection(CONNECTION)
                                .setStream("s")
                                .setTopic("t")
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                                .build());
        StreamGraph graph = env.getStreamGraph();

        assertThat(uids(graph)).as("no uid inside a sink without one").isEmpty();
        assertThat(vertexNames(graph))
                .anySatisfy(
                        name -> assertThat(name).contains("Committer").doesNotContain("Writer"));
    }

    @Test
    void anAtLeastOnceSinkHasNoCommitter() {
        StreamExecutionEnvironment env = environment();
        DataStreamSink<String> sink =
                env.fromData("a").sinkTo(recordSink(DeliveryGuarantee.AT_LEAST_ONCE));
        sink.uid("plain");
        assertThat(vertexNames(env.getStreamGraph()))
                .noneSatisfy(name -> assertThat(name).contains("Committer"))
                .noneSatisfy(name -> assertThat(name).contains(CommitterHandoff.NAME));
    }

    /** With a checkpoint directory, without which an exactly-once job is refused. */
    private static StreamExecutionEnvironment environment() {
        Configuration configuration = new Configuration();
        configuration.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, "file:///checkpoints");
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(configuration);
        env.setParallelism(2);
        env.enableCheckpointing(1000);
        return env;
    }

    private static Sink<String> recordSink(DeliveryGuarantee guarantee) {
        return IggySink.<String>builder()
                .setConnection(CONNECTION)
                .setStream("s")
                .setTopic("t")
                .setValueSerializationSchema(new SimpleStringSchema())
                .setDeliveryGuarantee(guarantee)
                .build();
    }

    private static List<String> uids(StreamGraph graph) {
        return graph.getStreamNodes().stream()
                .map(StreamNode::getTransformationUID)
                .filter(Objects::nonNull)
                .collect(Collectors.toList());
    }

    private static List<String> vertexNames(StreamGraph graph) {
        List<String> names = new ArrayList<>();
        for (JobVertex vertex : graph.getJobGraph().getVertices()) {
            names.add(vertex.getName());
        }
        return names;
    }
}

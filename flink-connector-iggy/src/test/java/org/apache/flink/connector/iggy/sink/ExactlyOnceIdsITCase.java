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

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.connector.iggy.testutils.server.EmbeddedIggyServer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.apache.flink.connector.iggy.sink.testutils.IggySinkExternalContext.connection;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once message ids never collide between two sink operators, even of one built sink object:
 * with the server's deduplication on, a collision would drop the second operator's messages.
 */
class ExactlyOnceIdsITCase {

    @RegisterExtension
    static final IggyServerExtension DEDUPLICATING =
            new IggyServerExtension(
                    EmbeddedIggyServer.Config.builder().deduplicationEnabled().build());

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(2);

    /** The exactly-once sinks' write-ahead directory. */
    @TempDir static Path writeAhead;

    @Test
    void oneSinkObjectUsedByTwoPipelinesLosesNothing() throws Exception {
        Assumptions.assumeFalse(
                DEDUPLICATING.isExternal(), "needs the embedded server with deduplication on");
        String stream = DEDUPLICATING.uniqueName("eo-ids");
        DEDUPLICATING.createStream(stream);
        DEDUPLICATING.createTopic(stream, "out", 1);
        Sink<String> sink =
                IggySink.<String>builder()
                        .setConnection(connection(DEDUPLICATING))
                        .setStream(stream)
                        .setTopic("out")
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .setExactlyOnceWriteAheadDir(writeAhead.toUri().toString())
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .build();
        int perPipeline = 5000;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(200);
        for (String name : List.of("a", "b")) {
            env.fromSource(
                            new DataGeneratorSource<>(
                                    (GeneratorFunction<Long, String>) i -> name + i,
                                    perPipeline,
                                    Types.STRING),
                            WatermarkStrategy.noWatermarks(),
                            name)
                    .sinkTo(sink);
        }
        env.execute("one exactly-once sink object in two pipelines");

        List<String> stored =
                DEDUPLICATING.readAll(stream, "out", 0).stream()
                        .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                        .collect(Collectors.toList());
        assertThat(stored).hasSize(2 * perPipeline).doesNotHaveDuplicates();
        assertThat(stored.stream().filter(s -> s.startsWith("a"))).hasSize(perPipeline);
    }
}

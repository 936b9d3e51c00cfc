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
package org.apache.flink.connector.iggy.sink.internal.config;

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.IggySinkBuilderTest;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.junit.jupiter.api.Test;

import javax.annotation.Nullable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Where the write-ahead messages go, decided when the job is built, the refusal of a job without
 * any directory, and the checks of the directory option at build.
 */
class WriteAheadPlacementTest {

    @Test
    void theDirectorySetOnTheSinkWinsAndIsUsedAsGiven() {
        for (String directory : new String[] {"s3://bucket/wal", "file:///data/wal", "/data/wal"}) {
            IggySink<String> sink = sink(directory);
            addedToAJob(
                    sink,
                    checkpointDirectory("execution.checkpointing.dir", "s3://bucket/checkpoints"));

            assertThat(sink.writerConfig().writeAhead().directory()).isEqualTo(directory);
        }
    }

    @Test
    void theDefaultIsASubdirectoryOfTheCheckpointDirectoryUnderEitherName() {
        for (String key : new String[] {"execution.checkpointing.dir", "state.checkpoints.dir"}) {
            IggySink<String> sink = sink(null);
            addedToAJob(sink, checkpointDirectory(key, "hdfs:///flink/checkpoints"));

            assertThat(sink.writerConfig().writeAhead().directory())
                    .as(key)
                    .isEqualTo("hdfs:/flink/checkpoints/iggy-sink-write-ahead");
        }
    }

    /**
     * Neither directory: the job is refused when built, with an error that no restart retries,
     * naming both settings; a TaskManager's temporary directory is never used.
     */
    @Test
    void withoutAnyDirectoryTheJobIsRefusedWhenBuilt() {
        IggySink<String> sink = sink(null);
        assertThatThrownBy(() -> addedToAJob(sink, new Configuration()))
                .isInstanceOf(IggyConfigurationException.class)
                .hasMessageContaining("no durable place for its write-ahead files")
                .hasMessageContaining("setExactlyOnceWriteAheadDir")
                .hasMessageContaining("'sink.exactly-once.write-ahead-dir'")
                .hasMessageContaining("'execution.checkpointing.dir'");
        assertThatThrownBy(() -> sink.writerConfig().writeAhead().directory())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no write-ahead directory");
    }

    @Test
    void aRelativeOrBlankDirectoryIsRefusedAtBuild() {
        assertThatThrownBy(() -> sink("wal/relative"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "write-ahead directory 'wal/relative' must be absolute or a URI");
        assertThatThrownBy(() -> sink(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("write-ahead directory ' ' is blank");
        assertThat(sink("file:///tmp/wal")).isNotNull();
        assertThat(sink("/tmp/wal")).isNotNull();
    }

    /**
     * Builds the stream graph of a streaming job with checkpointing that writes to {@code sink}.
     */
    private static void addedToAJob(IggySink<String> sink, Configuration configuration) {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(configuration);
        env.enableCheckpointing(1000);
        env.fromData("a", "b").sinkTo(sink);
        env.getStreamGraph();
    }

    static IggySink<String> sink(@Nullable String writeAheadDir) {
        return IggySinkBuilderTest.<String>sinkTo("s", "t")
                .setValueSerializationSchema(new SimpleStringSchema())
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setExactlyOnceWriteAheadDir(writeAheadDir)
                .build();
    }

    private static Configuration checkpointDirectory(String key, String value) {
        Configuration configuration = new Configuration();
        configuration.setString(key, value);
        return configuration;
    }
}

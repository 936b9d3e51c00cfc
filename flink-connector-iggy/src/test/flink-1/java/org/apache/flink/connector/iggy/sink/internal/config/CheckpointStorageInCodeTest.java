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

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.runtime.state.storage.FileSystemCheckpointStorage;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flink 1.20 sets checkpoint storage in code too, which the job's configuration does not show: an
 * exactly-once sink takes its directory from there, as Flink's checkpoints do.
 */
class CheckpointStorageInCodeTest {

    @Test
    @SuppressWarnings("deprecation")
    void theCheckpointStorageSetInCodeHoldsTheFilesAndWinsOverTheConfiguration() {
        Configuration configuration = new Configuration();
        configuration.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, "file:///configured");
        for (Configuration job : new Configuration[] {new Configuration(), configuration}) {
            IggySink<String> sink = WriteAheadPlacementTest.sink(null);
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(job);
            env.enableCheckpointing(1000);
            env.getCheckpointConfig().setCheckpointStorage("hdfs:///in-code/checkpoints");
            env.fromData("a", "b").sinkTo(sink);
            env.getStreamGraph();

            assertThat(sink.writerConfig().writeAhead().directory())
                    .isEqualTo("hdfs:/in-code/checkpoints/iggy-sink-write-ahead");
        }
    }

    @Test
    @SuppressWarnings("deprecation")
    void aStateBackendThatIsItsOwnCheckpointStorageHoldsTheFiles() {
        IggySink<String> sink = WriteAheadPlacementTest.sink(null);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(1000);
        env.setStateBackend(
                new org.apache.flink.runtime.state.filesystem.FsStateBackend(
                        "hdfs:///backend/checkpoints"));
        env.getCheckpointConfig()
                .setCheckpointStorage(new FileSystemCheckpointStorage("hdfs:///ignored"));
        env.fromData("a", "b").sinkTo(sink);
        env.getStreamGraph();

        assertThat(sink.writerConfig().writeAhead().directory())
                .as("Flink prefers such a backend to the checkpoint storage")
                .isEqualTo("hdfs:/backend/checkpoints/iggy-sink-write-ahead");
    }
}

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
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.IggySinkBuilderTest;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where the write-ahead messages go, and the checks of the directory option at build. */
class WriteAheadPlacementTest {

    @Test
    void theDirectorySetOnTheSinkWinsAndIsUsedAsGiven() {
        for (String directory : new String[] {"s3://bucket/wal", "file:///data/wal", "/data/wal"}) {
            WriteAheadPlacement placement = new WriteAheadPlacement(directory);
            placement.resolve(checkpointDirectory("execution.checkpointing.dir", "s3://cp"));

            assertThat(placement.directory()).isEqualTo(directory);
            assertThat(placement.onLocalDisk()).isFalse();
        }
    }

    @Test
    void theDefaultIsASubdirectoryOfTheCheckpointDirectoryUnderEitherName() {
        for (String key : new String[] {"execution.checkpointing.dir", "state.checkpoints.dir"}) {
            WriteAheadPlacement placement = new WriteAheadPlacement(null);
            placement.resolve(checkpointDirectory(key, "hdfs:///flink/checkpoints"));

            assertThat(placement.directory())
                    .as(key)
                    .isEqualTo("hdfs:/flink/checkpoints/iggy-sink-write-ahead");
            assertThat(placement.onLocalDisk()).isFalse();
        }
    }

    @Test
    void withoutAnyDirectoryTheFilesGoToTheTaskManagersTemporaryDirectory() {
        WriteAheadPlacement placement = new WriteAheadPlacement(null);
        assertThat(placement.onLocalDisk()).as("before the job is built").isTrue();

        placement.resolve(new Configuration());

        assertThat(placement.onLocalDisk()).isTrue();
        assertThat(java.nio.file.Path.of(java.net.URI.create(placement.directory())))
                .as("looked up where the writer runs")
                .isEqualTo(
                        java.nio.file.Path.of(System.getProperty("java.io.tmpdir"))
                                .toAbsolutePath()
                                .resolve("iggy-sink-write-ahead"));
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

    private static IggySink<String> sink(String writeAheadDir) {
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

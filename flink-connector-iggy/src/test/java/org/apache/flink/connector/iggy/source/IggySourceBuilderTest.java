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
package org.apache.flink.connector.iggy.source;

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggySourceBuilderTest {

    private static IggySourceBuilder<String> complete() {
        return IggySource.<String>builder()
                .setConnection(
                        IggyConnectionConfig.builder()
                                .setAddress("localhost:8090")
                                .setCredentials("u", "secret-pw")
                                .build())
                .setStream("s")
                .setTopic("t")
                .setConsumerName("c")
                .setValueOnlyDeserializer(new SimpleStringSchema());
    }

    @Test
    void namesEveryMissingPropertyAtOnce() {
        assertThatThrownBy(() -> IggySource.<String>builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("connection is not set (setConnection)")
                .hasMessageContaining("stream is not set (setStream)")
                .hasMessageContaining("topic is not set (setTopic)")
                .hasMessageContaining("consumer name is not set (setConsumerName)")
                .hasMessageContaining("deserializer is not set (setDeserializer)");
    }

    @Test
    void rejectsInvalidValues() {
        assertThatThrownBy(() -> complete().setBatchSize(0).build())
                .hasMessageContaining("batch size must be at least 1");
        assertThatThrownBy(() -> complete().setPollInterval(Duration.ZERO).build())
                .hasMessageContaining("poll interval must be positive");
        assertThatThrownBy(
                        () ->
                                complete()
                                        .setBounded(IggyStoppingOffsets.latest())
                                        .setPartitionDiscoveryInterval(Duration.ofSeconds(1))
                                        .build())
                .hasMessageContaining("partition discovery applies to unbounded sources only");
    }

    @Test
    void buildConfigChecksEverythingButTheDeserializer() {
        IggySourceConfig config = complete().setDeserializer(null).buildConfig();
        assertThat(config).isEqualTo(complete().buildConfig());
        assertThat(config.consumerName()).isEqualTo("c");
        assertThat(config.bounded()).isFalse();
        assertThatThrownBy(() -> IggySource.<String>builder().setStream("s").buildConfig())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("connection is not set (setConnection)")
                .hasMessageNotContaining("deserializer");
        assertThatThrownBy(() -> complete().setBatchSize(0).buildConfig())
                .hasMessageContaining("batch size must be at least 1");
    }

    @Test
    void boundednessFollowsTheStoppingOffsets() {
        assertThat(complete().build().getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertThat(complete().setBounded(IggyStoppingOffsets.latest()).build().getBoundedness())
                .isEqualTo(Boundedness.BOUNDED);
    }

    @Test
    void toStringNeverShowsSecrets() {
        assertThat(complete().build().toString())
                .contains("'t'", "'s'", "consumer='c'")
                .doesNotContain("secret-pw");
    }
}

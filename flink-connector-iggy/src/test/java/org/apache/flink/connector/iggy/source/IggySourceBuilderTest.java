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
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.source.internal.IggySourceConfig;
import org.apache.flink.connector.iggy.source.internal.TopicSubscription;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggySourceBuilderTest {

    private static final Duration DEFAULT_PACE = IggySourceBuilder.DEFAULT_POLL_INTERVAL;

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
                .hasMessageContaining("stream is not set (setStream, or setStreamPattern)")
                .hasMessageContaining("topic is not set (setTopic, setTopics or setTopicPattern)")
                .hasMessageContaining(
                        "the committed starting position (the default) reads the offsets stored"
                                + " under a consumer name, but none is set")
                .hasMessageContaining("deserializer is not set (setDeserializer)");
    }

    @Test
    void theCommittedStartingPositionNeedsAConsumerName() {
        for (IggyStartingOffsets committed :
                new IggyStartingOffsets[] {
                    IggyStartingOffsets.committed(),
                    IggyStartingOffsets.committed(IggyStartingOffsets.CommittedFallback.FAIL)
                }) {
            assertThatThrownBy(
                            () ->
                                    complete()
                                            .setConsumerName(null)
                                            .setStartingOffsets(committed)
                                            .build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("set one (setConsumerName)");
        }
        assertThatThrownBy(() -> complete().setConsumerName(" ").build())
                .hasMessageContaining("the consumer name is blank");
        assertThatThrownBy(() -> complete().setConsumerName("c".repeat(256)).build())
                .hasMessageContaining("longer than 255 characters");
    }

    @Test
    void withoutAConsumerNameNothingIsStored() {
        IggySource<String> source =
                complete()
                        .setConsumerName(null)
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .build();
        IggySourceConfig config = IggySourceTestSupport.config(source);
        assertThat(config.storesOffsets()).isFalse();
        assertThat(config.consumerName()).isEqualTo(IggySourceConfig.POLL_ONLY_CONSUMER_NAME);
        assertThat(source.toString()).contains("no consumer name (offsets not stored)");

        IggySourceConfig named = IggySourceTestSupport.config(complete().build());
        assertThat(named.storesOffsets()).isTrue();
        assertThat(named.consumerName()).isEqualTo("c");
    }

    @Test
    void rejectsInvalidValues() {
        assertThatThrownBy(() -> complete().setPollBatchSize(0).build())
                .hasMessageContaining("poll batch size must be at least 1");
        assertThatThrownBy(() -> complete().setPollInterval(Duration.ZERO).build())
                .hasMessageContaining("poll interval must be positive");
        assertThatThrownBy(() -> complete().setPollMinInterval(Duration.ofSeconds(1)).build())
                .hasMessageContaining(
                        "the poll min interval must be positive and at most the poll"
                                + " interval (PT0.15S), but is PT1S");
        assertThatThrownBy(
                        () ->
                                complete()
                                        .setBounded(IggyStoppingOffsets.latest())
                                        .setPartitionDiscoveryInterval(Duration.ofSeconds(1))
                                        .build())
                .hasMessageContaining("partition discovery applies to unbounded sources only");
    }

    @Test
    void pollsAreSizedByTheMessageSizeUnlessABatchSizeIsSet() {
        assertThat(IggySourceTestSupport.config(complete().build()).fixedPollBatchSize()).isZero();
    }

    @Test
    void byDefaultTheSourceLooksForDataAtTheStepOfThePollInterval() {
        IggySourceConfig config = IggySourceTestSupport.config(complete().build());
        assertThat(config.pollInterval()).isEqualTo(Duration.ofMillis(150));
        assertThat(config.pollMinInterval()).isEqualTo(config.pollInterval());
        IggySourceConfig slower =
                IggySourceTestSupport.config(
                        complete().setPollInterval(Duration.ofSeconds(1)).build());
        assertThat(slower.pollMinInterval()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void byDefaultTheChecksBackOffOver250PollIntervals() {
        IggySourceConfig config =
                IggySourceTestSupport.config(
                        complete().setPollMinInterval(Duration.ofMillis(4)).build());
        assertThat(config.pollBackOff()).isEqualTo(Duration.ofMillis(37_500));
        IggySourceConfig slower =
                IggySourceTestSupport.config(
                        complete()
                                .setPollInterval(Duration.ofSeconds(1))
                                .setPollMinInterval(Duration.ofMillis(4))
                                .build());
        assertThat(slower.pollBackOff()).isEqualTo(Duration.ofSeconds(250));
        IggySourceConfig set =
                IggySourceTestSupport.config(
                        complete()
                                .setPollMinInterval(Duration.ofMillis(4))
                                .setPollBackOff(Duration.ofSeconds(5))
                                .build());
        assertThat(set.pollBackOff()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void rejectsABackOffThatIsNotPositiveOrHasNothingToBackOffFrom() {
        assertThatThrownBy(
                        () ->
                                complete()
                                        .setTopic((IggyId) null)
                                        .setPollMinInterval(Duration.ofMillis(4))
                                        .setPollBackOff(Duration.ZERO)
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .as("every problem at once")
                .hasMessageContaining(
                        "the topic is not set (setTopic, setTopics or setTopicPattern)")
                .hasMessageContaining(
                        "the poll back-off must be positive, but is PT0S (setPollBackOff; or"
                                + " leave it unset)");
        assertThatThrownBy(() -> complete().setPollBackOff(Duration.ofSeconds(5)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "the poll back-off applies only with a poll min interval shorter than"
                                + " the poll interval: set one (setPollMinInterval) or leave the"
                                + " back-off unset (setPollBackOff)");
        assertThatThrownBy(
                        () ->
                                complete()
                                        .setPollMinInterval(DEFAULT_PACE)
                                        .setPollBackOff(Duration.ofSeconds(5))
                                        .build())
                .hasMessageContaining("the poll back-off applies only with a poll min interval");
    }

    @Test
    void theSourceCarriesWhatTheBuilderWasGiven() {
        IggySource<String> source =
                complete()
                        .setStartingOffsets(IggyStartingOffsets.latest())
                        .setPollBatchSize(7)
                        .setPollInterval(Duration.ofMillis(30))
                        .setPollMinInterval(Duration.ofMillis(3))
                        .setPartitionDiscoveryInterval(Duration.ofSeconds(2))
                        .setSkipUndecodableRecords(true)
                        .build();
        IggySourceConfig config = IggySourceTestSupport.config(source);
        assertThat(config.subscription())
                .isEqualTo(
                        new TopicSubscription.TopicList(IggyId.of("s"), List.of(IggyId.of("t"))));
        assertThat(config.startingOffsets()).isEqualTo(IggyStartingOffsets.latest());
        assertThat(config.stoppingOffsets()).isNull();
        assertThat(config.fixedPollBatchSize()).isEqualTo(7);
        assertThat(config.pollInterval()).isEqualTo(Duration.ofMillis(30));
        assertThat(config.pollMinInterval()).isEqualTo(Duration.ofMillis(3));
        assertThat(config.partitionDiscoveryInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.skipUndecodableRecords()).isTrue();
        assertThat(source.getProducedType()).isEqualTo(Types.STRING);
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

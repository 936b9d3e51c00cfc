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
package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets.CommittedFallback;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Start and stop resolution: which concrete offsets each position means for a partition. */
class IggySplitPlannerTest {

    private final FakePartitionOffsets topic =
            new FakePartitionOffsets().partition(0, 10).partition(1, 0).partition(2, 5);

    private static final TopicPath T = new TopicPath(IggyId.of("s"), IggyId.of("t"));

    private static IggySplitPlanner planner(IggyStartingOffsets start, IggyStoppingOffsets stop) {
        return new IggySplitPlanner("c", start, stop);
    }

    private long start(IggyStartingOffsets start, long partition) {
        return start(start, T, partition);
    }

    private long start(IggyStartingOffsets start, TopicPath topicPath, long partition) {
        return planner(start, null).initialSplit(topicPath, partition, topic).startingOffset();
    }

    private long stop(IggyStoppingOffsets stop, long partition) {
        return stop(stop, T, partition);
    }

    private long stop(IggyStoppingOffsets stop, TopicPath topicPath, long partition) {
        return planner(IggyStartingOffsets.earliest(), stop)
                .initialSplit(topicPath, partition, topic)
                .stoppingOffset();
    }

    @Test
    void earliestStartsAtZeroAndLatestAtTheHighWatermark() {
        assertThat(start(IggyStartingOffsets.earliest(), 0)).isZero();
        assertThat(start(IggyStartingOffsets.latest(), 0)).isEqualTo(10);
        assertThat(start(IggyStartingOffsets.latest(), 1)).isZero();
    }

    @Test
    void committedStartsAfterTheStoredOffset() {
        topic.storedOffsets.put(0L, 2L);
        assertThat(start(IggyStartingOffsets.committed(), 0)).isEqualTo(3);
    }

    @Test
    void committedFallsBackWhenNothingIsStored() {
        assertThat(start(IggyStartingOffsets.committed(CommittedFallback.EARLIEST), 2)).isZero();
        assertThat(start(IggyStartingOffsets.committed(CommittedFallback.LATEST), 2)).isEqualTo(5);
        assertThatThrownBy(() -> start(IggyStartingOffsets.committed(CommittedFallback.FAIL), 2))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining(
                        "Consumer 'c' has no stored offset for partition 2 of topic 't' of stream 's'")
                .hasMessageContaining("fallback");
    }

    @Test
    void timestampStartsAtTheFirstMessageAtOrAfterItOrAtTheEnd() {
        Map<Long, Long> index = new TreeMap<>(Map.of(1000L, 0L, 2000L, 4L, 3000L, 7L));
        topic.offsetByTimestamp.put(0L, new TreeMap<>(index));
        assertThat(start(IggyStartingOffsets.timestamp(1500), 0)).isEqualTo(4);
        assertThat(start(IggyStartingOffsets.timestamp(2000), 0)).isEqualTo(4);
        assertThat(start(IggyStartingOffsets.timestamp(9000), 0)).isEqualTo(10);
    }

    @Test
    void specificOffsetsApplyPerPartitionAndOthersStartAtZero() {
        IggyStartingOffsets specific = IggyStartingOffsets.specific(Map.of(0L, 6L));
        assertThat(start(specific, 0)).isEqualTo(6);
        assertThat(start(specific, 2)).isZero();
    }

    @Test
    void specificOffsetsByTopicApplyToTheirTopicOnly() {
        TopicPath u = new TopicPath(IggyId.of("s"), IggyId.of("u"));
        IggyStartingOffsets start =
                IggyStartingOffsets.specificByTopic(
                        Map.of(
                                IggyTopicPartition.of("s", "t", 0),
                                6L,
                                IggyTopicPartition.of("s", "u", 2),
                                4L));
        assertThat(start(start, T, 0)).isEqualTo(6);
        assertThat(start(start, u, 0)).isZero();
        assertThat(start(start, u, 2)).isEqualTo(4);
        assertThat(start(start, T, 2)).isZero();

        IggyStoppingOffsets stop =
                IggyStoppingOffsets.specificByTopic(Map.of(IggyTopicPartition.of("s", "u", 0), 3L));
        assertThat(stop(stop, u, 0)).isEqualTo(3);
        assertThat(stop(stop, T, 0)).as("the high watermark at start").isEqualTo(10);
    }

    @Test
    void timestampsApplyToEveryTopic() {
        TopicPath u = new TopicPath(IggyId.of("other"), IggyId.of("u"));
        topic.offsetByTimestamp.put(0L, new TreeMap<>(Map.of(1000L, 0L, 2000L, 4L)));
        assertThat(start(IggyStartingOffsets.timestamp(1500), T, 0)).isEqualTo(4);
        assertThat(start(IggyStartingOffsets.timestamp(1500), u, 0)).isEqualTo(4);
        assertThat(stop(IggyStoppingOffsets.timestamp(1500), u, 0)).isEqualTo(4);
    }

    @Test
    void unboundedSplitsNeverStop() {
        assertThat(stop(null, 0)).isEqualTo(IggyPartitionSplit.NO_STOPPING_OFFSET);
    }

    @Test
    void latestStopsAtTheHighWatermarkAtStart() {
        assertThat(stop(IggyStoppingOffsets.latest(), 0)).isEqualTo(10);
        assertThat(stop(IggyStoppingOffsets.latest(), 1)).isZero();
    }

    @Test
    void specificStopsAreInitialHighWatermarksWithTheCurrentOneForOthers() {
        IggyStoppingOffsets specific = IggyStoppingOffsets.specific(Map.of(0L, 3L));
        assertThat(stop(specific, 0)).isEqualTo(3);
        assertThat(stop(specific, 2)).isEqualTo(5);
    }

    @Test
    void timestampStopsBeforeTheFirstMessageAtOrAfterIt() {
        topic.offsetByTimestamp.put(0L, new TreeMap<>(Map.of(1000L, 0L, 2000L, 4L)));
        assertThat(stop(IggyStoppingOffsets.timestamp(1500), 0)).isEqualTo(4);
        assertThat(stop(IggyStoppingOffsets.timestamp(5000), 0)).isEqualTo(10);
    }

    @Test
    void discoveredPartitionsStartAtZeroAndNeverStop() {
        IggyPartitionSplit split =
                planner(IggyStartingOffsets.latest(), null).discoveredSplit(T, 9);
        assertThat(split.startingOffset()).isZero();
        assertThat(split.isBounded()).isFalse();
    }

    @Test
    void invalidPositionsAreRejected() {
        assertThatThrownBy(() -> IggyStartingOffsets.timestamp(-1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IggyStartingOffsets.specific(Map.of(0L, -1L)))
                .hasMessageContaining("partition 0");
        assertThatThrownBy(() -> IggyStoppingOffsets.specific(Map.of(-1L, 1L)))
                .hasMessageContaining("partition -1");
    }
}

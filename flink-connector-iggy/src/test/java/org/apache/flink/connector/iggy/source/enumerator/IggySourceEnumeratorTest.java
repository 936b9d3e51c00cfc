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
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.connector.iggy.source.internal.TopicSubscription;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.TopicPath;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;

import org.junit.jupiter.api.Test;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggySourceEnumeratorTest {

    static final TopicSubscription TOPIC_T =
            new TopicSubscription.TopicList(IggyId.of("s"), List.of(IggyId.of("t")));

    private final FakePartitionOffsets topic = new FakePartitionOffsets();

    private IggySourceEnumerator enumerator(
            TestingSplitEnumeratorContext<IggyPartitionSplit> context,
            boolean bounded,
            @Nullable Duration discovery,
            @Nullable IggySourceEnumState restored) {
        IggySplitPlanner planner =
                new IggySplitPlanner(
                        "c",
                        IggyStartingOffsets.earliest(),
                        bounded ? IggyStoppingOffsets.latest() : null);
        return new IggySourceEnumerator(
                context, TOPIC_T, () -> topic, planner, bounded, discovery, "topic 't'", restored);
    }

    private static Map<Integer, List<Long>> partitionsByReader(
            TestingSplitEnumeratorContext<IggyPartitionSplit> context) {
        Map<Integer, List<Long>> result = new HashMap<>();
        context.getSplitAssignments()
                .forEach(
                        (reader, state) ->
                                result.put(
                                        reader,
                                        state.getAssignedSplits().stream()
                                                .map(IggyPartitionSplit::partitionId)
                                                .collect(Collectors.toList())));
        return result;
    }

    @Test
    void assignsEachPartitionToOneDeterministicReaderSpreadEvenly() {
        for (long p = 0; p < 7; p++) {
            topic.partition(p, 3);
        }
        TestingSplitEnumeratorContext<IggyPartitionSplit> context =
                new TestingSplitEnumeratorContext<>(3);
        IggySourceEnumerator enumerator = enumerator(context, false, null, null);
        enumerator.start();
        assertThat(topic.describeCalls).as("start() leaves describing to a worker thread").isZero();
        context.triggerAllActions();
        assertThat(topic.describeCalls).isEqualTo(1);
        assertThat(context.getSplitAssignments()).isEmpty(); // no reader yet

        for (int reader = 0; reader < 3; reader++) {
            context.registerReader(reader, "localhost");
            enumerator.addReader(reader);
        }

        assertThat(partitionsByReader(context))
                .containsOnly(
                        Map.entry(0, List.of(0L, 3L, 6L)),
                        Map.entry(1, List.of(1L, 4L)),
                        Map.entry(2, List.of(2L, 5L)));
        assertThat(topic.closed).as("no client is kept after planning").isTrue();
    }

    @Test
    void scenario7_aSplitIsNeverReadByTwoReadersAtOnce() {
        for (long p = 0; p < 4; p++) {
            topic.partition(p, 3);
        }
        TestingSplitEnumeratorContext<IggyPartitionSplit> context =
                new TestingSplitEnumeratorContext<>(2);
        IggySourceEnumerator enumerator = enumerator(context, false, null, null);
        enumerator.start();
        context.triggerAllActions();
        context.registerReader(0, "h");
        enumerator.addReader(0);
        context.registerReader(1, "h");
        enumerator.addReader(1);
        // Reader 1 fails and hands its splits back; they go to reader 1 again, never to reader 0.
        List<IggyPartitionSplit> handedBack =
                new ArrayList<>(context.getSplitAssignments().get(1).getAssignedSplits());
        enumerator.addSplitsBack(
                List.of(handedBack.get(0).withStartingOffset(2), handedBack.get(1)), 1);
        enumerator.addReader(1);

        List<Long> all = new ArrayList<>();
        partitionsByReader(context).values().forEach(all::addAll);
        assertThat(partitionsByReader(context).get(0)).containsExactly(0L, 2L);
        assertThat(partitionsByReader(context).get(1)).containsExactly(1L, 3L, 1L, 3L);
        assertThat(context.getSplitAssignments().get(1).getAssignedSplits().get(2).startingOffset())
                .as("the handed-back split keeps its progress")
                .isEqualTo(2);
    }

    @Test
    void handedBackSplitsWaitInStateUntilTheirReaderReturns() {
        topic.partition(0, 3).partition(1, 3);
        TestingSplitEnumeratorContext<IggyPartitionSplit> context =
                new TestingSplitEnumeratorContext<>(2);
        IggySourceEnumerator enumerator = enumerator(context, false, null, null);
        enumerator.start();
        context.triggerAllActions();
        context.registerReader(0, "h");
        enumerator.addReader(0);

        IggySourceEnumState state = enumerator.snapshotState(1);
        assertThat(state.assignedPartitions()).containsExactly(IggyTopicPartition.of("s", "t", 0));
        assertThat(state.pendingSplits())
                .extracting(IggyPartitionSplit::partitionId)
                .containsExactly(1L);
        assertThat(state.initialDiscoveryFinished()).isTrue();

        // Restored from that state, the enumerator does not plan the known topic again.
        TestingSplitEnumeratorContext<IggyPartitionSplit> restoredContext =
                new TestingSplitEnumeratorContext<>(2);
        IggySourceEnumerator restored = enumerator(restoredContext, false, null, state);
        topic.partition(2, 0);
        int describedBefore = topic.describeCalls;
        restored.start();
        restoredContext.triggerAllActions();
        assertThat(topic.describeCalls).isEqualTo(describedBefore);
        restoredContext.registerReader(0, "h");
        restored.addReader(0);
        restoredContext.registerReader(1, "h");
        restored.addReader(1);
        assertThat(partitionsByReader(restoredContext)).containsOnly(Map.entry(0, List.of(1L)));
    }

    @Test
    void boundedSignalsNoMoreSplitsIncludingToReadersWithoutSplits() {
        topic.partition(0, 3);
        TestingSplitEnumeratorContext<IggyPartitionSplit> context =
                new TestingSplitEnumeratorContext<>(2);
        IggySourceEnumerator enumerator = enumerator(context, true, null, null);
        enumerator.start();
        context.registerReader(1, "h");
        enumerator.addReader(1);
        assertThat(context.getSplitAssignments())
                .as("no end signal before the topic was described")
                .isEmpty();
        context.triggerAllActions();
        assertThat(context.getSplitAssignments().get(1).hasReceivedNoMoreSplitsSignal()).isTrue();
        assertThat(topic.closed).as("a bounded enumerator needs no client after planning").isTrue();

        context.registerReader(0, "h");
        enumerator.addReader(0);
        assertThat(context.getSplitAssignments().get(0).getAssignedSplits())
                .containsExactly(new IggyPartitionSplit(IggyId.of("s"), IggyId.of("t"), 0, 0, 3));
        assertThat(context.getSplitAssignments().get(0).hasReceivedNoMoreSplitsSignal()).isTrue();
    }

    @Test
    void discoversNewPartitionsPeriodicallyAndReadsThemFromTheStart() {
        topic.partition(0, 3);
        TestingSplitEnumeratorContext<IggyPartitionSplit> context =
                new TestingSplitEnumeratorContext<>(2);
        IggySourceEnumerator enumerator = enumerator(context, false, Duration.ofSeconds(1), null);
        enumerator.start();
        context.triggerAllActions();
        context.registerReader(0, "h");
        enumerator.addReader(0);
        context.registerReader(1, "h");
        enumerator.addReader(1);

        topic.partition(1, 50);
        context.triggerAllActions();

        assertThat(context.getSplitAssignments().get(1).getAssignedSplits())
                .containsExactly(
                        new IggyPartitionSplit(
                                IggyId.of("s"),
                                IggyId.of("t"),
                                1,
                                0,
                                IggyPartitionSplit.NO_STOPPING_OFFSET));
        context.triggerAllActions();
        assertThat(context.getSplitAssignments().get(1).getAssignedSplits()).hasSize(1);
        assertThat(topic.describeCalls)
                .as("the first description and two discoveries")
                .isEqualTo(3);
        assertThat(topic.closed).as("each discovery closes the client it connected").isTrue();
    }

    @Test
    void failsNamingTheTopicWhenDescribingFailsOnceAReaderHasRegistered() {
        TestingSplitEnumeratorContext<IggyPartitionSplit> context =
                new TestingSplitEnumeratorContext<>(1);
        IggySourceEnumerator enumerator = enumeratorThatCannotConnect(context);
        enumerator.start();
        context.triggerAllActions();
        assertThat(unreachable.closed).as("a failed start keeps no client either").isTrue();

        // No reader yet: failing the job while its tasks start could take a TaskManager down.
        context.registerReader(0, "h");
        assertThatThrownBy(() -> enumerator.addReader(0))
                .hasRootCauseMessage("Cannot connect to Iggy at h:1")
                .hasMessage(
                        "The Iggy source for topic 't' of stream 's' at h:1 cannot start: Cannot connect to Iggy at h:1");
    }

    @Test
    void failsAtOnceWhenDescribingFailsAfterAReaderRegistered() {
        TestingSplitEnumeratorContext<IggyPartitionSplit> context =
                new TestingSplitEnumeratorContext<>(1);
        IggySourceEnumerator enumerator = enumeratorThatCannotConnect(context);
        enumerator.start();
        context.registerReader(0, "h");
        enumerator.addReader(0);

        assertThatThrownBy(context::triggerAllActions)
                .hasRootCauseMessage("Cannot connect to Iggy at h:1")
                .satisfies(
                        e ->
                                assertThat(e)
                                        .hasStackTraceContaining(
                                                "The Iggy source for topic 't' of stream 's' at h:1 cannot start: Cannot connect to Iggy at h:1"));
    }

    /** A describer whose every description fails, as one that cannot connect does. */
    private final FakePartitionOffsets unreachable =
            new FakePartitionOffsets() {
                @Override
                public PartitionOffsets describe(TopicPath topic) {
                    throw new IggyConnectorException("Cannot connect to Iggy at h:1");
                }
            };

    private IggySourceEnumerator enumeratorThatCannotConnect(
            TestingSplitEnumeratorContext<IggyPartitionSplit> context) {
        return new IggySourceEnumerator(
                context,
                TOPIC_T,
                () -> unreachable,
                new IggySplitPlanner("c", IggyStartingOffsets.earliest(), null),
                false,
                null,
                "topic 't' of stream 's' at h:1",
                null);
    }
}

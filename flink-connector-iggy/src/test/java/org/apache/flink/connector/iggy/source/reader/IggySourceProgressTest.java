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
package org.apache.flink.connector.iggy.source.reader;

import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What the reader's threads share about its partitions, and what it decides from it. */
class IggySourceProgressTest {

    private final IggySourceProgress progress = new IggySourceProgress();

    private static IggyPartitionSplitState state(long partition, long from) {
        return new IggyPartitionSplitState(
                new IggyPartitionSplit(
                        IggyId.of("s"),
                        IggyId.of("t"),
                        partition,
                        from,
                        IggyPartitionSplit.NO_STOPPING_OFFSET));
    }

    @Test
    void caughtUpMeansEverySplitReachedTheFirstEndSeen() {
        IggyPartitionSplitState zero = state(0, 0);
        IggyPartitionSplitState one = state(1, 0);
        progress.splitAdded(zero);
        progress.splitAdded(one);
        assertThat(progress.checkCaughtUp(List.of(zero, one))).as("no end known").isFalse();

        assertThat(IggySourceProgress.publishEnd(progress.partition(state(0, 0).splitId()), 3))
                .isTrue();
        assertThat(IggySourceProgress.publishEnd(progress.partition(state(1, 0).splitId()), 0))
                .isTrue();
        assertThat(IggySourceProgress.publishEnd(progress.partition(state(0, 0).splitId()), 10))
                .as("a later end is not the first")
                .isFalse();
        zero.setNextOffset(2);
        assertThat(progress.checkCaughtUp(List.of(zero, one))).isFalse();
        assertThat(progress.caughtUp()).isFalse();

        zero.setNextOffset(3);
        assertThat(progress.checkCaughtUp(List.of(zero, one)))
                .as("the first end counts, not the latest")
                .isTrue();
        assertThat(progress.caughtUp()).isTrue();
    }

    @Test
    void pendingRecordsCountWhatIsKnownButNotEmitted() {
        IggyPartitionSplitState zero = state(0, 4);
        IggyPartitionSplitState one = state(1, 0);
        progress.splitAdded(zero);
        progress.splitAdded(one);
        assertThat(progress.pendingRecords()).as("no end known").isZero();

        IggySourceProgress.publishEnd(progress.partition(state(0, 0).splitId()), 10);
        IggySourceProgress.publishEnd(progress.partition(state(1, 0).splitId()), 3);
        assertThat(progress.pendingRecords()).isEqualTo(6 + 3);

        one.setNextOffset(3);
        progress.splitFinished(one);
        assertThat(progress.pendingRecords()).as("finished splits count no more").isEqualTo(6);
        assertThat(progress.partition(state(1, 0).splitId()).nextOffset())
                .as("a finished split keeps its last offset")
                .isEqualTo(3);
    }

    @Test
    void remembersTheLastStoredOffset() {
        String seven = state(7, 0).splitId();
        assertThat(progress.committedOffset(seven)).isEqualTo(IggySourceProgress.UNKNOWN);
        assertThat(progress.partition(seven).lastOffsetStoreTime).isEqualTo(-1);
        progress.committed(seven, 41, 1_700_000_000_000L);
        assertThat(progress.committedOffset(seven)).isEqualTo(41);
        assertThat(progress.partition(seven).lastOffsetStoreTime).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void aSplitReplacedOnTheSamePartitionIsNotFinishedByTheOldOne() {
        IggyPartitionSplitState old = state(0, 0);
        IggyPartitionSplitState current = state(0, 5);
        progress.splitAdded(old);
        progress.splitAdded(current);
        progress.splitFinished(old);
        assertThat(progress.partition(state(0, 0).splitId()).reading).isSameAs(current);
    }
}

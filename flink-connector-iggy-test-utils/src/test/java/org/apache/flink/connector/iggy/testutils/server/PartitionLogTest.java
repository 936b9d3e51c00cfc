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
package org.apache.flink.connector.iggy.testutils.server;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Segments of one partition: sealing at the segment size, deleting the oldest sealed ones, and
 * reading what is left. Every message here is {@link #MESSAGE_SIZE} bytes.
 */
class PartitionLogTest {
    private static final int MESSAGE_SIZE = 100;

    /** Three messages fill a segment. */
    private static final long SEGMENT_SIZE = 3 * MESSAGE_SIZE;

    @Test
    void theActiveSegmentIsSealedOnceItHoldsTheSegmentSize() {
        PartitionLog log = newLog(SEGMENT_SIZE);
        assertThat(log.stats().segmentsCount()).as("one empty active segment").isEqualTo(1);

        append(log, 1);
        append(log, 1);
        assertThat(log.stats().segmentsCount()).as("200 of 300 bytes").isEqualTo(1);
        assertThat(log.hasSealedSegment()).isFalse();

        append(log, 1);
        assertThat(log.stats().segmentsCount()).as("sealed, and a new active one").isEqualTo(2);
        assertThat(log.hasSealedSegment()).isTrue();

        append(log, 5);
        assertThat(log.stats().segmentsCount())
                .as("a batch larger than a segment seals the segment it lands in")
                .isEqualTo(3);
        assertThat(log.stats().messagesCount()).isEqualTo(8);
        assertThat(log.stats().sizeBytes()).isEqualTo(8L * MESSAGE_SIZE);
    }

    @Test
    void deletingTheOldestSealedSegmentKeepsTheOffsets() {
        PartitionLog log = newLog(SEGMENT_SIZE);
        for (int i = 0; i < 10; i++) {
            append(log, 1); // offsets 0..9: three sealed segments of 3, offset 9 in the active one
        }
        assertThat(log.stats().segmentsCount()).isEqualTo(4);

        assertThat(log.deleteOldestSealedSegments(1)).isEqualTo(1);

        PartitionLog.Stats stats = log.stats();
        assertThat(stats.segmentsCount()).isEqualTo(3);
        assertThat(stats.messagesCount()).isEqualTo(7);
        assertThat(stats.sizeBytes()).isEqualTo(7L * MESSAGE_SIZE);
        assertThat(stats.currentOffset()).isEqualTo(9);
        assertThat(log.firstOffset()).isEqualTo(3);
        assertThat(offsetsRead(log, 3, 100)).containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L);

        append(log, 1);
        assertThat(offsetsRead(log, 9, 100)).as("offsets go on").containsExactly(9L, 10L);
    }

    @Test
    void theActiveSegmentIsNeverDeleted() {
        PartitionLog log = newLog(SEGMENT_SIZE);
        for (int i = 0; i < 7; i++) {
            append(log, 1); // two sealed segments, offset 6 in the active one
        }

        assertThat(log.deleteOldestSealedSegments(10)).isEqualTo(2);

        PartitionLog.Stats stats = log.stats();
        assertThat(stats.segmentsCount()).isEqualTo(1);
        assertThat(stats.messagesCount()).isEqualTo(1);
        assertThat(log.firstOffset()).isEqualTo(6);
        assertThat(log.hasSealedSegment()).isFalse();
        assertThat(log.deleteOldestSealedSegments(1)).isZero();
        assertThat(log.stats().messagesCount()).isEqualTo(1);
    }

    @Test
    void afterEveryMessageWasDeletedTheCurrentOffsetStays() {
        PartitionLog log = newLog(SEGMENT_SIZE);
        append(log, 3); // fills and seals the first segment: the active one is empty

        log.deleteOldestSealedSegments(1);

        PartitionLog.Stats stats = log.stats();
        assertThat(stats.messagesCount()).isZero();
        assertThat(stats.sizeBytes()).isZero();
        assertThat(stats.currentOffset()).isEqualTo(2);
        assertThat(stats.hasCurrentOffset()).isTrue();
        assertThat(log.firstOffset()).as("the next offset to be assigned").isEqualTo(3);
        assertThat(log.read(0, 10).messageCount()).isZero();
        assertThat(log.read(0, 10).currentOffset()).isEqualTo(2);
        assertThat(log.firstOffsetAtOrAfter(0)).isEqualTo(-1);

        append(log, 1);
        assertThat(offsetsRead(log, 0, 10)).containsExactly(3L);
    }

    @Test
    void aReadBelowTheFirstRetainedOffsetStartsThere() {
        PartitionLog log = newLog(SEGMENT_SIZE);
        for (int i = 0; i < 7; i++) {
            append(log, 1);
        }
        log.deleteOldestSealedSegments(1);

        PartitionLog.ReadResult read = log.read(0, 2);

        assertThat(read.messageCount()).isEqualTo(2);
        assertThat(read.lastOffset()).isEqualTo(4);
        assertThat(offsetsRead(log, 1, 2)).containsExactly(3L, 4L);
        assertThat(log.firstOffsetAtOrAfter(0))
                .as("the oldest timestamp retained is the first retained message's")
                .isEqualTo(3);
    }

    @Test
    void purgeStartsOverWithOneEmptyActiveSegment() {
        PartitionLog log = newLog(SEGMENT_SIZE);
        for (int i = 0; i < 7; i++) {
            append(log, 1);
        }
        log.deleteOldestSealedSegments(1);

        log.purge();

        PartitionLog.Stats stats = log.stats();
        assertThat(stats.segmentsCount()).isEqualTo(1);
        assertThat(stats.messagesCount()).isZero();
        assertThat(stats.currentOffset()).isZero();
        assertThat(stats.hasCurrentOffset()).isFalse();
        assertThat(log.firstOffset()).isZero();
        append(log, 2);
        assertThat(offsetsRead(log, 0, 10)).containsExactly(0L, 1L);
    }

    @Test
    void aLongRunOfAppendsAndDeletionsReadsBackWhatIsRetained() {
        // One segment per batch of two messages: the batch array wraps, compacts and grows many
        // times while the oldest segments go.
        PartitionLog log = newLog(2 * MESSAGE_SIZE);
        for (int round = 0; round < 5_000; round++) {
            append(log, 2);
            if (round % 7 == 0) {
                append(log, 1); // an odd batch, so segments hold one or two batches
            }
            long keep = round % 50; // the number kept sealed grows and shrinks
            long sealed = log.stats().segmentsCount() - 1;
            if (sealed > keep) {
                log.deleteOldestSealedSegments(sealed - keep);
            }

            PartitionLog.Stats stats = log.stats();
            long first = log.firstOffset();
            assertThat(stats.messagesCount()).isEqualTo(stats.currentOffset() - first + 1);
            assertThat(stats.sizeBytes()).isEqualTo(stats.messagesCount() * MESSAGE_SIZE);
            List<Long> expected = new ArrayList<>();
            for (long offset = first; offset <= stats.currentOffset(); offset++) {
                expected.add(offset); // none when every segment but an empty active one went
            }
            assertThat(offsetsRead(log, 0, 1_000_000)).isEqualTo(expected);
        }
        assertThat(log.firstOffset()).as("segments were deleted").isPositive();
    }

    private static PartitionLog newLog(long segmentSize) {
        return new PartitionLog(0, 0, segmentSize, null);
    }

    /** Appends one batch of {@code count} messages of {@link #MESSAGE_SIZE} bytes. */
    private static void append(PartitionLog log, int count) {
        byte[] data = new byte[count * MESSAGE_SIZE];
        int[] ends = new int[count];
        for (int i = 0; i < count; i++) {
            ends[i] = (i + 1) * MESSAGE_SIZE;
            LittleEndian.putInt(
                    data,
                    i * MESSAGE_SIZE + MessageLayout.PAYLOAD_LENGTH,
                    MESSAGE_SIZE - MessageLayout.HEADER_SIZE);
        }
        log.append(data, ends);
    }

    /** The offsets of the messages a read returns, taken from the bytes it would send. */
    private static List<Long> offsetsRead(PartitionLog log, long from, long count) {
        List<Long> offsets = new ArrayList<>();
        for (Reply.ByteSlice slice : log.read(from, count).slices()) {
            for (int at = slice.offset();
                    at < slice.offset() + slice.length();
                    at += MESSAGE_SIZE) {
                offsets.add(LittleEndian.getLong(slice.bytes(), at + MessageLayout.OFFSET));
            }
        }
        return offsets;
    }
}

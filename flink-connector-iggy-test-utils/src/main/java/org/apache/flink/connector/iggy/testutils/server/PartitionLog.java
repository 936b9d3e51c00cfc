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

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One partition: its message log and the consumer offsets stored for it.
 *
 * <p>The log is an array of {@link StoredBatch}es, one per send, grouped into segments as the real
 * server's: once the active (last) segment holds at least the segment size, it is sealed and a new,
 * empty active segment begins. Deleting the oldest sealed segment drops its batches from the head
 * of the array (the slots are cleared, so they can be garbage-collected); the offsets of the
 * remaining messages and the current offset stay as they were. Appends and deletions cost no more
 * than the batches they add or drop: the array grows by doubling and compacts its live part to the
 * front when it fills up with at most half of it live.
 *
 * <p>A poll finds its start by binary search over the live batches and returns slices of the
 * immutable batch arrays, so it copies nothing while holding the lock.
 *
 * <p>Guarded by {@code this}: the batch array and its bounds, the segments, and the counters. The
 * consumer-offset maps are concurrent and need no lock.
 */
final class PartitionLog {
    /**
     * A poll returns at most this many bytes of messages, so the reply length fits the frame's u32
     * and a Java array. The real server has no such cap, but no real poll comes near it.
     */
    static final long MAX_READ_BYTES = 1L << 30;

    /** The real server's message checksum: XXH3-64 with seed 0. Thread-safe. */
    private static final Hasher64 XXH3 = Hashing.xxh3_64();

    private final int id;
    private final long createdAt;
    private final long segmentSize;

    /** Null when deduplication is off. */
    private final MessageDeduplicator deduplicator;

    // Guarded by "this". The live batches are batches[head..tail), oldest first.
    private StoredBatch[] batches = new StoredBatch[16];
    private int head;
    private int tail;

    /** Oldest first; the last one is the active segment. Never empty. */
    private final ArrayDeque<Segment> segments = new ArrayDeque<>();

    private long nextOffset;
    private long messagesCount;
    private long sizeBytes;
    private long lastTimestamp;

    /** Offsets stored by single consumers, keyed by {@link ConsumerRef#offsetKey()}. */
    private final Map<Long, Long> consumerOffsets = new ConcurrentHashMap<>();

    /** Offsets stored by consumer groups, keyed by group id. */
    private final Map<Integer, Long> groupOffsets = new ConcurrentHashMap<>();

    /** The last offset returned to each consumer group; decides pending revocations. */
    private final Map<Integer, Long> groupLastPolled = new ConcurrentHashMap<>();

    /**
     * @param segmentSize the size in bytes at which the active segment is sealed
     * @param deduplicator null when deduplication is off
     */
    PartitionLog(int id, long createdAt, long segmentSize, MessageDeduplicator deduplicator) {
        if (segmentSize <= 0) {
            throw new IllegalArgumentException("segmentSize must be positive: " + segmentSize);
        }
        this.id = id;
        this.createdAt = createdAt;
        this.segmentSize = segmentSize;
        this.deduplicator = deduplicator;
        segments.add(new Segment());
    }

    int id() {
        return id;
    }

    long createdAt() {
        return createdAt;
    }

    Map<Long, Long> consumerOffsets() {
        return consumerOffsets;
    }

    Map<Integer, Long> groupOffsets() {
        return groupOffsets;
    }

    Map<Integer, Long> groupLastPolled() {
        return groupLastPolled;
    }

    /** A consistent view of the counters shown in topic details and poll replies. */
    synchronized Stats stats() {
        return new Stats(
                currentOffset(), messagesCount, sizeBytes, nextOffset > 0, segments.size());
    }

    /**
     * @param currentOffset the highest offset ever assigned (0 before the first message), also
     *     after the message holding it was deleted with its segment
     * @param messagesCount the messages retained
     * @param sizeBytes the size of the messages retained
     * @param hasCurrentOffset whether an offset was ever assigned (since creation or the last
     *     purge), so {@code currentOffset} names a real offset; messages may have been deleted
     *     since
     * @param segmentsCount sealed segments plus the active one
     */
    record Stats(
            long currentOffset,
            long messagesCount,
            long sizeBytes,
            boolean hasCurrentOffset,
            int segmentsCount) {}

    /** The size of the messages retained. */
    synchronized long sizeBytes() {
        return sizeBytes;
    }

    /**
     * Appends the messages of one send, assigning consecutive offsets and one server timestamp,
     * then each message's checksum.
     *
     * @param data encoded messages (owned by the log from now on; ids already assigned)
     * @param ends end position of each message in {@code data}
     * @return the number of messages kept (fewer than sent only when deduplication drops some)
     */
    synchronized int append(byte[] data, int[] ends) {
        long timestamp = Math.max(Clock.nowMicros(), lastTimestamp);
        if (deduplicator != null) {
            int[] kept = dropDuplicates(data, ends, timestamp);
            if (kept.length != ends.length) {
                data = compact(data, ends, kept);
                ends = endsOf(data, kept, ends);
            }
            if (ends.length == 0) {
                return 0;
            }
        }
        for (int i = 0; i < ends.length; i++) {
            int start = i == 0 ? 0 : ends[i - 1];
            LittleEndian.putLong(data, start + MessageLayout.OFFSET, nextOffset + i);
            LittleEndian.putLong(data, start + MessageLayout.TIMESTAMP, timestamp);
            LittleEndian.putLong(
                    data, start + MessageLayout.CHECKSUM, checksum(data, start, ends[i]));
        }
        makeRoomForOneBatch();
        batches[tail++] = new StoredBatch(nextOffset, timestamp, data, ends);
        int size = ends[ends.length - 1];
        nextOffset += ends.length;
        messagesCount += ends.length;
        sizeBytes += size;
        lastTimestamp = timestamp;
        Segment active = segments.getLast();
        active.batches++;
        active.messages += ends.length;
        active.bytes += size;
        if (active.bytes >= segmentSize) {
            segments.add(new Segment()); // seals the active segment
        }
        return ends.length;
    }

    /**
     * Makes {@code batches[tail]} free: compacts the live batches to the front when at most half of
     * the array is live, else doubles the array. Either way, what it copies is paid for by the
     * appends that filled the array since the last time.
     */
    private void makeRoomForOneBatch() {
        if (tail < batches.length) {
            return;
        }
        int live = tail - head;
        StoredBatch[] target =
                live <= batches.length / 2 ? batches : new StoredBatch[batches.length * 2];
        System.arraycopy(batches, head, target, 0, live);
        if (target == batches) {
            Arrays.fill(batches, live, tail, null);
        }
        batches = target;
        head = 0;
        tail = live;
    }

    /**
     * The checksum of the message at {@code [start, end)}: it covers everything after the checksum
     * field, so the offset and timestamp must already be in place.
     */
    static long checksum(byte[] data, int start, int end) {
        int from = start + MessageLayout.ID;
        return XXH3.hashBytesToLong(data, from, end - from);
    }

    /** Returns the indexes of the messages whose ids were not seen within the window. */
    private int[] dropDuplicates(byte[] data, int[] ends, long now) {
        int[] kept = new int[ends.length];
        int keptCount = 0;
        for (int i = 0; i < ends.length; i++) {
            int start = i == 0 ? 0 : ends[i - 1];
            long low = LittleEndian.getLong(data, start + MessageLayout.ID);
            long high = LittleEndian.getLong(data, start + MessageLayout.ID + 8);
            if (deduplicator.recordIfNew(low, high, now)) {
                kept[keptCount++] = i;
            }
        }
        return Arrays.copyOf(kept, keptCount);
    }

    private static byte[] compact(byte[] data, int[] ends, int[] kept) {
        int size = 0;
        for (int index : kept) {
            size += ends[index] - (index == 0 ? 0 : ends[index - 1]);
        }
        byte[] result = new byte[size];
        int position = 0;
        for (int index : kept) {
            int start = index == 0 ? 0 : ends[index - 1];
            int length = ends[index] - start;
            System.arraycopy(data, start, result, position, length);
            position += length;
        }
        return result;
    }

    private static int[] endsOf(byte[] compacted, int[] kept, int[] originalEnds) {
        int[] result = new int[kept.length];
        int position = 0;
        for (int i = 0; i < kept.length; i++) {
            int index = kept[i];
            position += originalEnds[index] - (index == 0 ? 0 : originalEnds[index - 1]);
            result[i] = position;
        }
        return result;
    }

    /** Offset of the first message whose server timestamp is at least {@code micros}, or -1. */
    synchronized long firstOffsetAtOrAfter(long micros) {
        int low = head;
        int high = tail;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (Long.compareUnsigned(batches[middle].timestamp(), micros) < 0) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low < tail ? batches[low].firstOffset() : -1;
    }

    /**
     * The first retained offset: 0 before the first message, the next offset to be assigned when
     * every message was deleted with its segment.
     */
    synchronized long firstOffset() {
        return head < tail ? batches[head].firstOffset() : nextOffset;
    }

    /**
     * Reads up to {@code count} messages starting at {@code startOffset}, or at the first retained
     * offset if {@code startOffset} was deleted.
     *
     * @return the slices to send and the offset of the last message in them
     */
    synchronized ReadResult read(long startOffset, long count) {
        long current = currentOffset();
        if (messagesCount == 0 || startOffset > current || count <= 0) {
            return new ReadResult(List.of(), 0, -1, current);
        }
        startOffset = Math.max(startOffset, batches[head].firstOffset());
        int batchIndex = batchContaining(startOffset);
        List<Reply.ByteSlice> slices = new ArrayList<>();
        long remaining = count;
        long offset = startOffset;
        int messages = 0;
        long bytesLeft = MAX_READ_BYTES;
        while (remaining > 0 && batchIndex < tail) {
            StoredBatch batch = batches[batchIndex++];
            int first = (int) (offset - batch.firstOffset());
            int last = (int) Math.min(batch.count() - 1L, first + remaining - 1);
            int start = batch.start(first);
            while (last >= first && batch.ends()[last] - start > bytesLeft) {
                last--; // the reply would outgrow a frame: stop at the last message that fits
            }
            if (last < first) {
                break;
            }
            slices.add(new Reply.ByteSlice(batch.data(), start, batch.ends()[last] - start));
            bytesLeft -= batch.ends()[last] - start;
            int taken = last - first + 1;
            messages += taken;
            remaining -= taken;
            offset += taken;
        }
        return new ReadResult(slices, messages, offset - 1, current);
    }

    /** The result of {@link #read}: {@code lastOffset} is -1 when no message was read. */
    record ReadResult(
            List<Reply.ByteSlice> slices, int messageCount, long lastOffset, long currentOffset) {}

    /** The index of the live batch holding {@code offset}, which must be a retained offset. */
    private int batchContaining(long offset) {
        int low = head;
        int high = tail - 1;
        while (low < high) {
            int middle = (low + high + 1) >>> 1;
            if (batches[middle].firstOffset() <= offset) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        return low;
    }

    /**
     * Deletes up to {@code count} of the oldest sealed segments with their messages; the active
     * segment always stays. Offsets do not change: the current offset stays the highest ever
     * assigned, and the first retained offset moves up.
     *
     * @return the number of segments deleted
     */
    synchronized int deleteOldestSealedSegments(long count) {
        int deleted = 0;
        while (deleted < count && segments.size() > 1) {
            Segment oldest = segments.removeFirst();
            for (int i = 0; i < oldest.batches; i++) {
                batches[head++] = null; // let the messages be garbage-collected
            }
            messagesCount -= oldest.messages;
            sizeBytes -= oldest.bytes;
            deleted++;
        }
        return deleted;
    }

    /** Whether the partition has a segment that {@link #deleteOldestSealedSegments} can delete. */
    synchronized boolean hasSealedSegment() {
        return segments.size() > 1;
    }

    /**
     * Deletes every message and stored offset, as a purge does; offsets start again at 0 and one
     * empty active segment remains.
     */
    synchronized void purge() {
        batches = new StoredBatch[16];
        head = 0;
        tail = 0;
        segments.clear();
        segments.add(new Segment());
        nextOffset = 0;
        messagesCount = 0;
        sizeBytes = 0;
        consumerOffsets.clear();
        groupOffsets.clear();
        groupLastPolled.clear();
    }

    /** The highest offset ever assigned, or 0 before the first message. */
    private long currentOffset() {
        return nextOffset == 0 ? 0 : nextOffset - 1;
    }

    /**
     * What a segment holds: a run of consecutive live batches. Guarded by the monitor of the {@link
     * PartitionLog} that owns it.
     */
    private static final class Segment {
        private int batches;
        private long messages;
        private long bytes;
    }
}

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

import org.apache.flink.connector.iggy.source.split.TopicPath;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/** A topic held in memory: high watermarks, stored offsets and message timestamps. */
class FakePartitionOffsets implements PartitionOffsets, TopicDescriber {

    final Map<Long, Long> highWatermarks = new TreeMap<>();
    final Map<Long, Long> storedOffsets = new TreeMap<>();

    /** Per partition: timestamp (ms) of the first message at each offset. */
    final Map<Long, NavigableMap<Long, Long>> offsetByTimestamp = new TreeMap<>();

    int describeCalls;
    boolean closed;

    FakePartitionOffsets partition(long id, long highWatermark) {
        highWatermarks.put(id, highWatermark);
        return this;
    }

    @Override
    public Collection<Long> partitionIds() {
        return highWatermarks.keySet();
    }

    @Override
    public long highWatermark(long partitionId) {
        return highWatermarks.get(partitionId);
    }

    @Override
    public Optional<Long> storedOffset(long partitionId) {
        return Optional.ofNullable(storedOffsets.get(partitionId));
    }

    @Override
    public OptionalLong firstOffsetAtOrAfter(long partitionId, long timestampMillis) {
        NavigableMap<Long, Long> index = offsetByTimestamp.get(partitionId);
        if (index == null) {
            return OptionalLong.empty();
        }
        Map.Entry<Long, Long> entry = index.ceilingEntry(timestampMillis);
        return entry == null ? OptionalLong.empty() : OptionalLong.of(entry.getValue());
    }

    /** A fake of one topic: every topic asked for is this one. */
    @Override
    public Optional<PartitionOffsets> describeIfPresent(TopicPath topic) {
        return Optional.of(describe(topic));
    }

    @Override
    public List<String> streams() {
        return List.of();
    }

    @Override
    public List<String> topics(String stream) {
        return List.of();
    }

    @Override
    public PartitionOffsets describe(TopicPath topic) {
        describeCalls++;
        closed = false; // a description after a close connects again
        FakePartitionOffsets snapshot = new FakePartitionOffsets();
        snapshot.highWatermarks.putAll(highWatermarks);
        snapshot.storedOffsets.putAll(storedOffsets);
        snapshot.offsetByTimestamp.putAll(offsetByTimestamp);
        return snapshot;
    }

    @Override
    public void close() {
        closed = true;
    }
}

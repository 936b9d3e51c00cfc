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
package org.apache.flink.connector.iggy.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Specific offsets of {@link IggyStartingOffsets} and {@link IggyStoppingOffsets}: keyed by
 * partition id alone (only for a source over one topic) or by {@link IggyTopicPartition}.
 */
@Internal
public record SpecificOffsets(
        Map<Long, Long> byPartitionId, Map<IggyTopicPartition, Long> byTopicPartition)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final SpecificOffsets NONE = new SpecificOffsets(Map.of(), Map.of());

    public static SpecificOffsets byPartitionId(Map<Long, Long> offsets, String what) {
        return new SpecificOffsets(
                copy(offsets, what, p -> p >= 0, "partition ids and offsets are >= 0"), Map.of());
    }

    public static SpecificOffsets byTopicPartition(
            Map<IggyTopicPartition, Long> offsets, String what) {
        return new SpecificOffsets(Map.of(), copy(offsets, what, p -> true, "offsets are >= 0"));
    }

    private static <K> Map<K, Long> copy(
            Map<K, Long> offsets, String what, Predicate<K> validKey, String rule) {
        Objects.requireNonNull(offsets, what + " offsets");
        Map<K, Long> copy = new HashMap<>();
        offsets.forEach(
                (partition, offset) -> {
                    if (partition == null
                            || !validKey.test(partition)
                            || offset == null
                            || offset < 0) {
                        throw new IllegalArgumentException(
                                String.format(
                                        "Invalid %s offset %s for %s%s: %s",
                                        what,
                                        offset,
                                        partition instanceof Long ? "partition " : "",
                                        partition,
                                        rule));
                    }
                    copy.put(partition, offset);
                });
        return Collections.unmodifiableMap(copy);
    }

    /** The offset given for this partition, or null. */
    @Nullable
    public Long offsetOf(IggyTopicPartition partition) {
        Long offset = byTopicPartition.get(partition);
        return offset != null ? offset : byPartitionId.get(partition.partition());
    }

    @Override
    public String toString() {
        return byTopicPartition.isEmpty() ? byPartitionId.toString() : byTopicPartition.toString();
    }
}

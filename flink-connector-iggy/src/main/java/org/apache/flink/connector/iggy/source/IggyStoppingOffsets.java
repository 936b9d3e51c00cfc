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

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.source.OffsetSpecs.Spec;
import org.apache.flink.connector.iggy.source.OffsetSpecs.StopKind;
import org.apache.flink.connector.iggy.source.internal.SpecificOffsets;

import java.io.Serializable;
import java.util.Map;

/** Where each partition of a bounded source stops (exclusive), resolved when the job starts. */
@PublicEvolving
public final class IggyStoppingOffsets implements Serializable {

    private static final long serialVersionUID = 1L;

    final Spec<StopKind> spec;

    private IggyStoppingOffsets(Spec<StopKind> spec) {
        this.spec = spec;
    }

    public static IggyStoppingOffsets latest() {
        return new IggyStoppingOffsets(Spec.of(StopKind.LATEST));
    }

    /** Exclusive end offset per partition id (the initial high watermark). */
    public static IggyStoppingOffsets specific(Map<Long, Long> endOffsetsByPartition) {
        return specific(SpecificOffsets.byPartitionId(endOffsetsByPartition, "stopping"));
    }

    /** Exclusive end offset per partition; others stop at their high watermark at job start. */
    public static IggyStoppingOffsets specificByTopic(Map<IggyTopicPartition, Long> endOffsets) {
        return specific(SpecificOffsets.byTopicPartition(endOffsets, "stopping"));
    }

    private static IggyStoppingOffsets specific(SpecificOffsets offsets) {
        return new IggyStoppingOffsets(new Spec<>(StopKind.SPECIFIC, null, -1, offsets));
    }

    /**
     * Stops before the first message whose server timestamp (epoch ms) is at or after {@code
     * timestampMillis}, or at the high watermark at job start when there is none yet.
     */
    public static IggyStoppingOffsets timestamp(long timestampMillis) {
        return new IggyStoppingOffsets(
                Spec.timestamp(StopKind.TIMESTAMP, "Stopping", timestampMillis));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IggyStoppingOffsets that && spec.equals(that.spec);
    }

    @Override
    public int hashCode() {
        return spec.hashCode();
    }

    @Override
    public String toString() {
        return spec.toString();
    }
}

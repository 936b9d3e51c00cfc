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
import org.apache.flink.connector.iggy.source.OffsetSpecs.StartKind;
import org.apache.flink.connector.iggy.source.internal.SpecificOffsets;

import java.io.Serializable;
import java.util.Map;
import java.util.Objects;

/**
 * Where each partition starts when the job has no state to restore, resolved when the job starts (a
 * partition discovered later starts at the earliest offset).
 */
@PublicEvolving
public final class IggyStartingOffsets implements Serializable {

    private static final long serialVersionUID = 1L;

    /**
     * Where {@link #committed(CommittedFallback)} starts a partition without a stored offset; also
     * the type of the SQL option {@code scan.startup.committed-offset.fallback}.
     */
    @PublicEvolving
    public enum CommittedFallback {
        /** The first offset of the partition. */
        EARLIEST("earliest-offset"),
        /** The end of the partition at job start. */
        LATEST("latest-offset"),
        /** Fail the job at start, naming the partition and the consumer. */
        FAIL("fail");

        private final String optionValue;

        CommittedFallback(String optionValue) {
            this.optionValue = optionValue;
        }

        /** The value of the SQL option. */
        @Override
        public String toString() {
            return optionValue;
        }
    }

    final Spec<StartKind> spec;

    private IggyStartingOffsets(Spec<StartKind> spec) {
        this.spec = spec;
    }

    public static IggyStartingOffsets earliest() {
        return new IggyStartingOffsets(Spec.of(StartKind.EARLIEST));
    }

    public static IggyStartingOffsets latest() {
        return new IggyStartingOffsets(Spec.of(StartKind.LATEST));
    }

    /** The stored offset + 1, or the earliest offset when the consumer has stored none. */
    public static IggyStartingOffsets committed() {
        return committed(CommittedFallback.EARLIEST);
    }

    public static IggyStartingOffsets committed(CommittedFallback fallback) {
        return new IggyStartingOffsets(
                new Spec<>(
                        StartKind.COMMITTED,
                        Objects.requireNonNull(fallback, "fallback"),
                        -1,
                        SpecificOffsets.NONE));
    }

    /**
     * The first message whose server timestamp (epoch milliseconds) is at or after {@code
     * timestampMillis}; the end of the partition when there is none.
     */
    public static IggyStartingOffsets timestamp(long timestampMillis) {
        return new IggyStartingOffsets(
                Spec.timestamp(StartKind.TIMESTAMP, "Starting", timestampMillis));
    }

    /** The given next offset per partition id; other partitions start at the earliest offset. */
    public static IggyStartingOffsets specific(Map<Long, Long> offsetsByPartition) {
        return specific(SpecificOffsets.byPartitionId(offsetsByPartition, "starting"));
    }

    /** The given next offset per partition; other partitions start at the earliest offset. */
    public static IggyStartingOffsets specificByTopic(Map<IggyTopicPartition, Long> offsets) {
        return specific(SpecificOffsets.byTopicPartition(offsets, "starting"));
    }

    private static IggyStartingOffsets specific(SpecificOffsets offsets) {
        return new IggyStartingOffsets(new Spec<>(StartKind.SPECIFIC, null, -1, offsets));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IggyStartingOffsets that && spec.equals(that.spec);
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

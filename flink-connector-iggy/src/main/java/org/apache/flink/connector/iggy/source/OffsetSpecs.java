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

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets.CommittedFallback;
import org.apache.flink.connector.iggy.source.internal.SpecificOffsets;

import javax.annotation.Nullable;

import java.io.Serializable;

/**
 * What an {@link IggyStartingOffsets} or {@link IggyStoppingOffsets} holds, for the builder and the
 * enumerator; the kinds are those types' factory methods.
 */
@Internal
public final class OffsetSpecs {

    /** The kinds of {@link IggyStartingOffsets}, one per factory method. */
    public enum StartKind {
        EARLIEST,
        LATEST,
        COMMITTED,
        TIMESTAMP,
        SPECIFIC
    }

    /** The kinds of {@link IggyStoppingOffsets}, one per factory method. */
    public enum StopKind {
        LATEST,
        SPECIFIC,
        TIMESTAMP
    }

    /**
     * A starting or stopping position.
     *
     * @param fallback where {@link StartKind#COMMITTED} starts without a stored offset; else null
     * @param timestampMillis the point in time of a {@code TIMESTAMP} kind, epoch milliseconds
     * @param offsets the offsets per partition of a {@code SPECIFIC} kind
     */
    public record Spec<K extends Enum<K>>(
            K kind,
            @Nullable CommittedFallback fallback,
            long timestampMillis,
            SpecificOffsets offsets)
            implements Serializable {

        static <K extends Enum<K>> Spec<K> of(K kind) {
            return new Spec<>(kind, null, -1, SpecificOffsets.NONE);
        }

        static <K extends Enum<K>> Spec<K> timestamp(K kind, String what, long timestampMillis) {
            if (timestampMillis < 0) {
                throw new IllegalArgumentException(
                        what
                                + " timestamp must be epoch milliseconds >= 0, but is "
                                + timestampMillis);
            }
            return new Spec<>(kind, null, timestampMillis, SpecificOffsets.NONE);
        }

        @Override
        public String toString() {
            return switch (kind.name()) {
                case "COMMITTED" -> "committed (fallback " + fallback.name() + ")";
                case "TIMESTAMP" -> "timestamp " + timestampMillis;
                case "SPECIFIC" -> "specific " + offsets;
                default -> kind.name().toLowerCase();
            };
        }
    }

    private OffsetSpecs() {}

    public static Spec<StartKind> of(IggyStartingOffsets starting) {
        return starting.spec;
    }

    public static Spec<StopKind> of(IggyStoppingOffsets stopping) {
        return stopping.spec;
    }
}

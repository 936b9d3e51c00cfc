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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.iggy.common.IggyId;

import javax.annotation.Nullable;

import java.io.Serializable;

/**
 * Chooses the topic (and stream) each record goes to; {@code null} is the sink's own topic. Every
 * topic must exist: a record routed to a missing one fails the job naming it.
 *
 * <pre>{@code
 * .setTopicSelector((order, context) -> context.topic("orders-" + order.region()))
 * }</pre>
 *
 * @param <T> the sink's record type ({@code IggyMapChange<K, V>} for the keyed-map sink)
 */
@PublicEvolving
@FunctionalInterface
public interface IggyTopicSelector<T> extends Serializable {

    /** The topic for {@code record}, or {@code null} for the sink's own topic. */
    @Nullable
    IggySinkTarget select(T record, Context context);

    /** What a topic selector knows besides the record. */
    @PublicEvolving
    interface Context {

        /** The sink's stream ({@code setStream}). */
        IggyId stream();

        /** The index of the subtask choosing, from 0 to {@link #parallelism()} - 1. */
        int subtaskId();

        /** The number of parallel subtasks of the operator choosing. */
        int parallelism();

        /** The topic named {@code topic} of the sink's stream. */
        default IggySinkTarget topic(String topic) {
            return new IggySinkTarget(stream(), IggyId.of(topic));
        }
    }
}

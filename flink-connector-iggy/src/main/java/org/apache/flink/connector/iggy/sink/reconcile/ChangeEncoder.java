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
package org.apache.flink.connector.iggy.sink.reconcile;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.iggy.sink.IggyTopicSelector;

import javax.annotation.Nullable;

import java.io.Serializable;

/**
 * Turns a change into the {@link KeyedMessage} the keyed-map sink reconciles (for {@code
 * IggyMapChange} in the builder, for {@code RowData} in the table sink).
 *
 * @param <IN> the change type
 */
@Internal
public interface ChangeEncoder<IN> extends Serializable {

    /** Called once per subtask before the first change; {@code routing} for routed changes. */
    default void open(
            SerializationSchema.InitializationContext context, IggyTopicSelector.Context routing)
            throws Exception {}

    /**
     * The message for {@code change}, or {@code null} to ignore it (e.g. an UPDATE_BEFORE row);
     * fails naming the change if it has no key bytes or payload.
     */
    @Nullable
    KeyedMessage encode(IN change);
}

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
 * Turns a change of type {@code IN} into the {@link KeyedMessage} the keyed-map sink reconciles, in
 * one call. The DataStream builder has one for {@code IggyMapChange}, the table sink one for {@code
 * RowData}.
 *
 * <p>Only the payload is fingerprinted: a change whose payload equals the last one sent for its key
 * sends nothing, even if its headers differ.
 *
 * @param <IN> the change type
 */
@Internal
public interface ChangeEncoder<IN> extends Serializable {

    /**
     * Called once per subtask before the first change.
     *
     * @param routing the sink's stream and the subtask, for an encoder that routes changes to
     *     topics ({@link KeyedMessage#withTarget})
     */
    default void open(
            SerializationSchema.InitializationContext context, IggyTopicSelector.Context routing)
            throws Exception {}

    /**
     * The message for {@code change}, or {@code null} to ignore it (e.g. an UPDATE_BEFORE row).
     *
     * @throws org.apache.flink.connector.iggy.common.IggyConnectorException if the change has no
     *     key bytes or no payload, naming what produced them and the change
     */
    @Nullable
    KeyedMessage encode(IN change);
}

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
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.iggy.common.IggyMapChange;

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderValue;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.Collections;
import java.util.Map;

/**
 * How the keyed-map sink reads a change of type {@code IN}: its key bytes, whether it is an upsert
 * or a delete, the value bytes of an upsert and the payload that announces a delete, and the user
 * headers and origin timestamp of the message it sends.
 *
 * <p>Only the payload is fingerprinted: a change whose payload equals the last one sent for its key
 * sends nothing, even if its headers differ.
 *
 * <p>The DataStream builder provides one for {@link IggyMapChange}; the table sink implements it
 * for {@code RowData}.
 *
 * @param <IN> the change type
 */
@PublicEvolving
public interface IggyMapChangeEncoder<IN> extends Serializable {

    /** Called once per subtask before the first change. */
    default void open(SerializationSchema.InitializationContext context) throws Exception {}

    /** What {@code change} does, or {@code null} to ignore it (e.g. an UPDATE_BEFORE row). */
    @Nullable
    IggyMapChange.Kind kind(IN change);

    /** The key bytes: hashed into idempotent message ids and used for key partitioning. */
    byte[] key(IN change);

    /** The payload of an upsert (only the value bytes are sent and fingerprinted). */
    byte[] value(IN change);

    /** Whether deletes can be encoded; without it, a delete of a sent key fails the job. */
    boolean hasDeletionValue();

    /** The payload that announces the deletion of {@code change}'s key. */
    byte[] deletionValue(IN change);

    /** User headers of the message an upsert sends (the key header is added by the sink). */
    default Map<HeaderKey, HeaderValue> headers(IN change) {
        return Collections.emptyMap();
    }

    /** User headers of the message a delete sends (the key header is added by the sink). */
    default Map<HeaderKey, HeaderValue> deletionHeaders(IN change) {
        return Collections.emptyMap();
    }

    /**
     * The origin timestamp of the message {@code change} sends, in microseconds since the epoch, or
     * 0 for the default: the record's Flink timestamp, or the time of writing.
     */
    default long originTimestampMicros(IN change) {
        return 0;
    }

    /** The option that provides deletion payloads, as the tombstone error names it. */
    default String deletionValueOption() {
        return "setDeletionValueFunction";
    }
}

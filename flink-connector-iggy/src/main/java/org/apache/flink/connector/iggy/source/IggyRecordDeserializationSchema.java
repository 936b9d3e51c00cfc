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
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.source.internal.IggyKeyedMapDeserializationSchema;
import org.apache.flink.connector.iggy.source.internal.PayloadDeserializationSchema;
import org.apache.flink.connector.iggy.source.internal.ValueOnlyDeserializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;

import java.io.IOException;
import java.io.Serializable;
import java.util.Objects;

/**
 * Turns one Iggy message into zero or more records. The static methods build the usual ones: {@link
 * #valueOnly} (stream mode, any Flink format), {@link #payloads} (raw bytes) and {@link #keyedMap}
 * (keyed-map mode); implement it for anything else.
 *
 * <p>It sees the whole message (payload, user headers, id, offset, partition, timestamps). An
 * exception fails the job with the partition and offset named, unless the source skips undecodable
 * records ({@code IggySourceBuilder#setSkipUndecodableRecords}).
 *
 * @param <T> the record type
 */
@PublicEvolving
public interface IggyRecordDeserializationSchema<T> extends Serializable, ResultTypeQueryable<T> {

    /** Called once per reader before the first message; opens wrapped Flink formats. */
    default void open(Context context) throws Exception {}

    void deserialize(IggyMessage message, Collector<T> out) throws IOException;

    /**
     * What {@link #open} receives: Flink's initialization context plus the reader's {@code
     * numRecordsSkipped} counter, for messages a schema drops on purpose.
     */
    @PublicEvolving
    interface Context extends DeserializationSchema.InitializationContext {
        Counter skippedRecordsCounter();
    }

    /** Deserializes the payload with a Flink {@link DeserializationSchema} (any format). */
    static <T> IggyRecordDeserializationSchema<T> valueOnly(
            DeserializationSchema<T> valueDeserializer) {
        return new ValueOnlyDeserializationSchema<>(valueDeserializer);
    }

    /** Every message's payload bytes, empty payloads included. */
    static IggyRecordDeserializationSchema<byte[]> payloads() {
        return new PayloadDeserializationSchema();
    }

    /**
     * Reads the topic as a keyed map without deletes: each message becomes {@code UPSERT(key,
     * value)}; a message whose key selector returns {@code null} is skipped and counted in {@code
     * numRecordsSkipped}. See docs/datastream-source.md, "Keyed-map mode".
     */
    static <K, V> IggyRecordDeserializationSchema<IggyMapChange<K, V>> keyedMap(
            KeySelector<IggyMessage, K> keySelector, DeserializationSchema<V> valueDeserializer) {
        return new IggyKeyedMapDeserializationSchema<>(keySelector, null, valueDeserializer);
    }

    /**
     * Like {@link #keyedMap(KeySelector, DeserializationSchema)}, but a keyed message that {@code
     * isDeletion} accepts becomes {@code DELETE(key)}, even of a key never seen.
     */
    static <K, V> IggyRecordDeserializationSchema<IggyMapChange<K, V>> keyedMap(
            KeySelector<IggyMessage, K> keySelector,
            FilterFunction<IggyMessage> isDeletion,
            DeserializationSchema<V> valueDeserializer) {
        return new IggyKeyedMapDeserializationSchema<>(
                keySelector, Objects.requireNonNull(isDeletion, "isDeletion"), valueDeserializer);
    }
}

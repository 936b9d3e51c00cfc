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
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.api.java.typeutils.MissingTypeInfo;
import org.apache.flink.api.java.typeutils.TypeExtractor;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.common.IggyMapChangeTypeInfo;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.util.Collector;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.Objects;

/** {@link IggyRecordDeserializationSchema#keyedMap}; the rules are on the factory methods. */
@Internal
public final class IggyKeyedMapDeserializationSchema<K, V>
        implements IggyRecordDeserializationSchema<IggyMapChange<K, V>> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG =
            LoggerFactory.getLogger(IggyKeyedMapDeserializationSchema.class);

    private final KeySelector<IggyMessage, K> keySelector;
    @Nullable private final FilterFunction<IggyMessage> isDeletion;
    private final DeserializationSchema<V> valueDeserializer;

    private transient SkippedRecordsLog skippedLog;

    public IggyKeyedMapDeserializationSchema(
            KeySelector<IggyMessage, K> keySelector,
            @Nullable FilterFunction<IggyMessage> isDeletion,
            DeserializationSchema<V> valueDeserializer) {
        this.keySelector = Objects.requireNonNull(keySelector, "keySelector");
        this.isDeletion = isDeletion;
        this.valueDeserializer = Objects.requireNonNull(valueDeserializer, "valueDeserializer");
    }

    @Override
    public void open(Context context) throws Exception {
        skippedLog =
                new SkippedRecordsLog(
                        LOG, "whose key selector returned null", context.skippedRecordsCounter());
        valueDeserializer.open(context);
    }

    @Override
    public void deserialize(IggyMessage message, Collector<IggyMapChange<K, V>> out)
            throws IOException {
        K key;
        boolean deletion;
        try {
            key = keySelector.getKey(message);
            deletion = key != null && isDeletion != null && isDeletion.filter(message);
        } catch (Exception e) {
            throw new IOException("The key selector or the deletion test failed", e);
        }
        if (key == null) {
            skippedLog.skipped(message, null);
            return;
        }
        if (deletion) {
            out.collect(IggyMapChange.delete(key));
            return;
        }
        V value = valueDeserializer.deserialize(message.payload());
        if (value == null) {
            throw new IOException(
                    "The value deserializer returned null for key '"
                            + key
                            + "': a keyed-map value must not be null (use a deletion test for deletes)");
        }
        out.collect(IggyMapChange.upsert(key, value));
    }

    /** Where Java erased the key selector's return type, the key is a generic type. */
    @Override
    @SuppressWarnings("unchecked")
    public TypeInformation<IggyMapChange<K, V>> getProducedType() {
        TypeInformation<K> keyType =
                TypeExtractor.getUnaryOperatorReturnType(
                        keySelector,
                        KeySelector.class,
                        0,
                        1,
                        TypeExtractor.NO_INDEX,
                        null,
                        "key selector",
                        true);
        if (keyType instanceof MissingTypeInfo) {
            keyType = (TypeInformation<K>) new GenericTypeInfo<>(Object.class);
        }
        return IggyMapChangeTypeInfo.of(keyType, valueDeserializer.getProducedType());
    }
}

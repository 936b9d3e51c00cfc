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
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.serialization.RuntimeContextInitializationContextAdapters;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.sink.IggyMapChangeEncoder;
import org.apache.flink.util.Collector;

import javax.annotation.Nullable;

/**
 * Turns each change into key, payload and header bytes before the keyed-map sink's {@code keyBy}.
 */
@Internal
public class ChangeEncodingFunction<IN> extends RichFlatMapFunction<IN, EncodedChange> {

    private static final long serialVersionUID = 1L;

    private final IggyMapChangeEncoder<IN> encoder;

    public ChangeEncodingFunction(IggyMapChangeEncoder<IN> encoder) {
        this.encoder = encoder;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        encoder.open(
                RuntimeContextInitializationContextAdapters.serializationAdapter(
                        getRuntimeContext()));
    }

    @Override
    public void flatMap(IN change, Collector<EncodedChange> out) {
        EncodedChange encoded = encode(encoder, change);
        if (encoded != null) {
            out.collect(encoded);
        }
    }

    /** The encoded change, or {@code null} for a change the encoder ignores. */
    @Nullable
    public static <IN> EncodedChange encode(IggyMapChangeEncoder<IN> encoder, IN change) {
        IggyMapChange.Kind kind = encoder.kind(change);
        if (kind == null) {
            return null;
        }
        byte[] key = encoder.key(change);
        if (kind == IggyMapChange.Kind.UPSERT) {
            return new EncodedChange(
                    key,
                    false,
                    encoder.value(change),
                    EncodedHeaders.encode(encoder.headers(change)),
                    encoder.originTimestampMicros(change));
        }
        if (!encoder.hasDeletionValue()) {
            // Fails the job in the reconcile step if the key was sent.
            return new EncodedChange(key, true, null, null, 0);
        }
        return new EncodedChange(
                key,
                true,
                encoder.deletionValue(change),
                EncodedHeaders.encode(encoder.deletionHeaders(change)),
                encoder.originTimestampMicros(change));
    }
}

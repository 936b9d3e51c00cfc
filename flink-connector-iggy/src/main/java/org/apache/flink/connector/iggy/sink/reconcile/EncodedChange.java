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
import org.apache.flink.api.common.typeinfo.TypeInformation;

import javax.annotation.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A change as the reconcile step sees it: key bytes, upsert or delete, and the payload, headers and
 * origin timestamp of the message it would send. Encoding happens before the {@code keyBy}, so only
 * bytes travel between operators (with {@link EncodedChangeSerializer}) and the state is keyed by
 * the key bytes that Iggy sees.
 */
@Internal
public final class EncodedChange {

    /**
     * The key bytes as a Latin-1 string: one char per byte, so equal bytes give equal strings and
     * Flink can key, hash and serialize it as a plain String.
     */
    public String key;

    public boolean delete;

    /**
     * The value of an upsert, or the deletion payload of a delete; {@code null} for a delete when
     * deletes cannot be encoded.
     */
    @Nullable public byte[] payload;

    /** User headers in {@link EncodedHeaders}' form; {@code null} for none. */
    @Nullable public byte[] headers;

    /** Microseconds since the epoch; 0 for the record's timestamp or the time of writing. */
    public long originTimestampMicros;

    public EncodedChange() {}

    public static TypeInformation<EncodedChange> typeInfo() {
        return new SerializerTypeInfo<>(EncodedChange.class, EncodedChangeSerializer.INSTANCE);
    }

    public EncodedChange(
            byte[] key,
            boolean delete,
            @Nullable byte[] payload,
            @Nullable byte[] headers,
            long originTimestampMicros) {
        this.key = new String(key, StandardCharsets.ISO_8859_1);
        this.delete = delete;
        this.payload = payload;
        this.headers = headers;
        this.originTimestampMicros = originTimestampMicros;
    }

    public byte[] keyBytes() {
        return key.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof EncodedChange)) {
            return false;
        }
        EncodedChange that = (EncodedChange) o;
        return delete == that.delete
                && Objects.equals(key, that.key)
                && Arrays.equals(payload, that.payload)
                && Arrays.equals(headers, that.headers)
                && originTimestampMicros == that.originTimestampMicros;
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, delete);
    }

    @Override
    public String toString() {
        return (delete ? "DELETE" : "UPSERT") + "(" + key.length() + " key bytes)";
    }
}

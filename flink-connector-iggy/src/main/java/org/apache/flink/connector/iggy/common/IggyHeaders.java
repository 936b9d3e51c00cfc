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
package org.apache.flink.connector.iggy.common;

import org.apache.flink.annotation.PublicEvolving;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The user headers of an Iggy message: string keys of 1 to 255 UTF-8 bytes, each with a typed
 * {@link IggyHeaderValue}. Immutable.
 *
 * <pre>{@code
 * IggyHeaders headers = IggyHeaders.builder()
 *     .put("op", "delete")
 *     .put("version", IggyHeaderValue.ofInt32(3))
 *     .build();
 * }</pre>
 */
@PublicEvolving
public final class IggyHeaders {

    private static final IggyHeaders EMPTY = new IggyHeaders(Collections.emptyMap(), 0);

    final Map<String, IggyHeaderValue> headers; // unmodifiable; read by IggyHeadersInternals
    private final long encodedLength;

    private IggyHeaders(Map<String, IggyHeaderValue> headers, long encodedLength) {
        this.headers = headers;
        this.encodedLength = encodedLength;
    }

    public static IggyHeaders empty() {
        return EMPTY;
    }

    /** One header with a string value. */
    public static IggyHeaders of(String key, String value) {
        return of(key, IggyHeaderValue.ofString(value));
    }

    /** One header; {@link IllegalArgumentException} for a key not of 1 to 255 UTF-8 bytes. */
    public static IggyHeaders of(String key, IggyHeaderValue value) {
        return new IggyHeaders(
                Collections.singletonMap(key, Objects.requireNonNull(value, "value")),
                encodedLength(keyBytes(key), value));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Wraps unmodifiable headers without a copy (see {@link IggyHeadersInternals}). */
    static IggyHeaders wrap(Map<String, IggyHeaderValue> headers, long encodedLength) {
        return headers.isEmpty() ? EMPTY : new IggyHeaders(headers, encodedLength);
    }

    /** These headers and {@code key} with {@code value}, which replaces a value of that key. */
    public IggyHeaders with(String key, IggyHeaderValue value) {
        return isEmpty() ? of(key, value) : toBuilder().put(key, value).build();
    }

    /** The value of the header {@code key}, if the message has it. */
    public Optional<IggyHeaderValue> get(String key) {
        return headers.isEmpty() ? Optional.empty() : Optional.ofNullable(headers.get(key));
    }

    public boolean isEmpty() {
        return headers.isEmpty();
    }

    public int size() {
        return headers.size();
    }

    /** The bytes the headers take in a message as Iggy encodes them (at most 100,000). */
    public long encodedLength() {
        return encodedLength;
    }

    /** All headers, keys as UTF-8 strings: a new map that the caller may change. */
    public Map<String, IggyHeaderValue> asMap() {
        return new LinkedHashMap<>(headers);
    }

    /** A builder starting from these headers, to add to or replace some. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        headers.forEach(builder::put);
        return builder;
    }

    /** The bytes of one header as Iggy encodes it: kind (1) and length (4) of key and value. */
    private static long encodedLength(int keyBytes, IggyHeaderValue value) {
        return 10L + keyBytes + value.bytes.length;
    }

    /** The key's UTF-8 bytes, checked. */
    private static int keyBytes(String key) {
        Objects.requireNonNull(key, "key");
        int length = key.getBytes(StandardCharsets.UTF_8).length;
        if (length < 1 || length > 255) {
            throw new IllegalArgumentException(
                    "An Iggy header key has 1 to 255 UTF-8 bytes, but '" + key + "' has " + length);
        }
        return length;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof IggyHeaders && headers.equals(((IggyHeaders) o).headers));
    }

    @Override
    public int hashCode() {
        return headers.hashCode();
    }

    @Override
    public String toString() {
        return headers.toString();
    }

    /** Collects headers; a key put twice keeps the last value. */
    @PublicEvolving
    public static final class Builder {
        private final Map<String, IggyHeaderValue> headers = new LinkedHashMap<>();
        private long encodedLength;

        private Builder() {}

        /**
         * Adds a header; {@link IllegalArgumentException} for a key not of 1 to 255 UTF-8 bytes.
         */
        public Builder put(String key, IggyHeaderValue value) {
            int keyBytes = keyBytes(key);
            IggyHeaderValue old = headers.put(key, Objects.requireNonNull(value, "value"));
            if (old != null) {
                encodedLength -= encodedLength(keyBytes, old);
            }
            encodedLength += encodedLength(keyBytes, value);
            return this;
        }

        /** A header with a string value ({@link IggyHeaderValue#ofString}). */
        public Builder put(String key, String value) {
            return put(key, IggyHeaderValue.ofString(value));
        }

        public IggyHeaders build() {
            return wrap(Collections.unmodifiableMap(new LinkedHashMap<>(headers)), encodedLength);
        }
    }
}

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

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderValue;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The user headers of an Iggy message: string keys of 1 to 255 UTF-8 bytes, each with a typed
 * {@link IggyHeaderValue}. What a source's {@code IggyMessage} carries and what a sink's headers
 * function returns. Immutable.
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

    private static final IggyHeaders EMPTY = new IggyHeaders(Collections.emptyMap());

    /** In the SDK's form, so that messages pass to and from it without a copy. Unmodifiable. */
    private final Map<HeaderKey, HeaderValue> sdkHeaders;

    private IggyHeaders(Map<HeaderKey, HeaderValue> sdkHeaders) {
        this.sdkHeaders = sdkHeaders;
    }

    public static IggyHeaders empty() {
        return EMPTY;
    }

    /** One header with a string value. */
    public static IggyHeaders of(String key, String value) {
        return builder().put(key, value).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The value of the header {@code key}, if the message has it. */
    public Optional<IggyHeaderValue> get(String key) {
        if (sdkHeaders.isEmpty()) {
            return Optional.empty();
        }
        HeaderValue value = sdkHeaders.get(sdkKey(key));
        return value == null ? Optional.empty() : Optional.of(SdkHeaders.valueFromSdk(value));
    }

    public boolean isEmpty() {
        return sdkHeaders.isEmpty();
    }

    public int size() {
        return sdkHeaders.size();
    }

    /** All headers, keys as UTF-8 strings: a new map that the caller may change. */
    public Map<String, IggyHeaderValue> asMap() {
        Map<String, IggyHeaderValue> map = new LinkedHashMap<>();
        sdkHeaders.forEach(
                (k, v) ->
                        map.put(
                                new String(k.value(), StandardCharsets.UTF_8),
                                SdkHeaders.valueFromSdk(v)));
        return map;
    }

    /** A builder starting from these headers, to add to or replace some. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.headers.putAll(sdkHeaders);
        return builder;
    }

    /** Package-private: the SDK's form, for {@link SdkHeaders}. */
    Map<HeaderKey, HeaderValue> sdkHeaders() {
        return sdkHeaders;
    }

    /** Package-private: wraps the SDK's form without a copy, for {@link SdkHeaders}. */
    static IggyHeaders wrap(Map<HeaderKey, HeaderValue> sdkHeaders) {
        return sdkHeaders.isEmpty()
                ? EMPTY
                : new IggyHeaders(Collections.unmodifiableMap(sdkHeaders));
    }

    private static HeaderKey sdkKey(String key) {
        Objects.requireNonNull(key, "key");
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < 1 || bytes.length > 255) {
            throw new IllegalArgumentException(
                    "An Iggy header key has 1 to 255 UTF-8 bytes, but '"
                            + key
                            + "' has "
                            + bytes.length);
        }
        return new HeaderKey(org.apache.iggy.message.HeaderKind.String, bytes);
    }

    @Override
    public boolean equals(Object o) {
        return this == o
                || (o instanceof IggyHeaders && sdkHeaders.equals(((IggyHeaders) o).sdkHeaders));
    }

    @Override
    public int hashCode() {
        return sdkHeaders.hashCode();
    }

    @Override
    public String toString() {
        return asMap().toString();
    }

    /** Collects headers; a key put twice keeps the last value. */
    @PublicEvolving
    public static final class Builder {
        private final Map<HeaderKey, HeaderValue> headers = new LinkedHashMap<>();

        private Builder() {}

        /**
         * @throws IllegalArgumentException if the key is empty or longer than 255 UTF-8 bytes
         */
        public Builder put(String key, IggyHeaderValue value) {
            headers.put(sdkKey(key), SdkHeaders.valueToSdk(Objects.requireNonNull(value, "value")));
            return this;
        }

        /** A header with a string value ({@link IggyHeaderValue#ofString}). */
        public Builder put(String key, String value) {
            return put(key, IggyHeaderValue.ofString(value));
        }

        public IggyHeaders build() {
            return wrap(new LinkedHashMap<>(headers));
        }
    }
}

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

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderKind;
import org.apache.iggy.message.HeaderValue;

import javax.annotation.Nullable;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * User headers as one byte array, so that they cross the keyed-map sink's {@code keyBy} as bytes
 * (no Kryo): per header the key's kind code (1 byte), length (4 bytes) and bytes, then the value's
 * kind code, length and bytes. No headers is {@code null}.
 */
@Internal
public final class EncodedHeaders {

    private EncodedHeaders() {}

    @Nullable
    public static byte[] encode(Map<HeaderKey, HeaderValue> headers) {
        if (headers.isEmpty()) {
            return null;
        }
        int size = 0;
        for (Map.Entry<HeaderKey, HeaderValue> h : headers.entrySet()) {
            size += 10 + h.getKey().value().length + h.getValue().value().length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (Map.Entry<HeaderKey, HeaderValue> h : headers.entrySet()) {
            put(out, h.getKey().kind(), h.getKey().value());
            put(out, h.getValue().kind(), h.getValue().value());
        }
        return out.array();
    }

    public static Map<HeaderKey, HeaderValue> decode(@Nullable byte[] encoded) {
        if (encoded == null) {
            return Collections.emptyMap();
        }
        ByteBuffer in = ByteBuffer.wrap(encoded);
        Map<HeaderKey, HeaderValue> headers = new LinkedHashMap<>();
        while (in.hasRemaining()) {
            HeaderKind keyKind = HeaderKind.fromCode(in.get());
            byte[] key = bytes(in);
            HeaderKind valueKind = HeaderKind.fromCode(in.get());
            headers.put(new HeaderKey(keyKind, key), new HeaderValue(valueKind, bytes(in)));
        }
        return headers;
    }

    private static void put(ByteBuffer out, HeaderKind kind, byte[] bytes) {
        out.put((byte) kind.asCode());
        out.putInt(bytes.length);
        out.put(bytes);
    }

    private static byte[] bytes(ByteBuffer in) {
        byte[] b = new byte[in.getInt()];
        in.get(b);
        return b;
    }
}

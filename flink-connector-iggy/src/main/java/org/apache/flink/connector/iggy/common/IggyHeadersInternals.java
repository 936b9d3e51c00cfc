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

import org.apache.flink.annotation.Internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The connector's access to headers without copies (it never changes them), and their binary form
 * in its serializers and write-ahead files: the count, then per header kind code, length and bytes
 * of the key (a string) and of the value, as Iggy's wire format has them.
 */
@Internal
public final class IggyHeadersInternals {

    private static final int STRING = IggyHeaderValue.Kind.STRING.code();

    private IggyHeadersInternals() {}

    /** The headers by key, not copied: unmodifiable. */
    public static Map<String, IggyHeaderValue> view(IggyHeaders headers) {
        return headers.headers;
    }

    /** Headers wrapped without a copy: {@code headers} must be unmodifiable. */
    public static IggyHeaders headers(Map<String, IggyHeaderValue> headers, long encodedLength) {
        return IggyHeaders.wrap(headers, encodedLength);
    }

    /** The value's bytes, not copied: never change them. */
    public static byte[] encoded(IggyHeaderValue value) {
        return value.bytes;
    }

    /** A value wrapping {@code bytes} without a copy: never change them afterwards. */
    public static IggyHeaderValue value(IggyHeaderValue.Kind kind, byte[] bytes) {
        return new IggyHeaderValue(kind, bytes);
    }

    public static void write(IggyHeaders headers, DataOutput out) throws IOException {
        out.writeInt(headers.size());
        for (Map.Entry<String, IggyHeaderValue> h : headers.headers.entrySet()) {
            out.writeByte(STRING);
            writeBytes(h.getKey().getBytes(UTF_8), out);
            out.writeByte(h.getValue().kind().code());
            writeBytes(h.getValue().bytes, out);
        }
    }

    public static IggyHeaders read(DataInput in) throws IOException {
        int count = in.readInt();
        if (count == 0) {
            return IggyHeaders.empty();
        }
        Map<String, IggyHeaderValue> headers = new LinkedHashMap<>(2 * count);
        long length = 0;
        for (int i = 0; i < count; i++) {
            in.readByte(); // the key's kind: keys are strings
            byte[] key = readBytes(in);
            IggyHeaderValue.Kind kind = IggyHeaderValue.Kind.ofCode(in.readByte());
            byte[] value = readBytes(in);
            headers.put(new String(key, UTF_8), new IggyHeaderValue(kind, value));
            length += 10L + key.length + value.length;
        }
        return IggyHeaders.wrap(Collections.unmodifiableMap(headers), length);
    }

    /** Writes bytes as their length (4 bytes) and themselves. */
    public static void writeBytes(byte[] bytes, DataOutput out) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    /** Reads what {@link #writeBytes} wrote. */
    public static byte[] readBytes(DataInput in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            throw new IOException("Corrupt bytes: negative length " + length);
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }
}

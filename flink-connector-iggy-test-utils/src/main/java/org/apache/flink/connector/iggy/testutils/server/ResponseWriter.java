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
package org.apache.flink.connector.iggy.testutils.server;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Builds a little-endian response payload in a growable array. */
final class ResponseWriter {
    private byte[] buffer;
    private int size;

    ResponseWriter() {
        this(64);
    }

    ResponseWriter(int initialCapacity) {
        buffer = new byte[Math.max(16, initialCapacity)];
    }

    ResponseWriter u8(int value) {
        ensure(1);
        buffer[size++] = (byte) value;
        return this;
    }

    ResponseWriter bool(boolean value) {
        return u8(value ? 1 : 0);
    }

    ResponseWriter u16(int value) {
        ensure(2);
        buffer[size++] = (byte) value;
        buffer[size++] = (byte) (value >>> 8);
        return this;
    }

    ResponseWriter u32(long value) {
        ensure(4);
        LittleEndian.putInt(buffer, size, (int) value);
        size += 4;
        return this;
    }

    ResponseWriter u64(long value) {
        ensure(8);
        LittleEndian.putLong(buffer, size, value);
        size += 8;
        return this;
    }

    ResponseWriter f32(float value) {
        return u32(Float.floatToIntBits(value));
    }

    ResponseWriter bytes(byte[] value) {
        return bytes(value, 0, value.length);
    }

    ResponseWriter bytes(byte[] value, int offset, int length) {
        ensure(length);
        System.arraycopy(value, offset, buffer, size, length);
        size += length;
        return this;
    }

    /** A name with a one-byte length prefix. */
    ResponseWriter str8(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        u8(bytes.length);
        return bytes(bytes);
    }

    /** A string with a u32 length prefix. */
    ResponseWriter str32(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        u32(bytes.length);
        return bytes(bytes);
    }

    int size() {
        return size;
    }

    byte[] array() {
        return buffer;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buffer, size);
    }

    private void ensure(int extra) {
        if (size + extra > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + extra));
        }
    }
}

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

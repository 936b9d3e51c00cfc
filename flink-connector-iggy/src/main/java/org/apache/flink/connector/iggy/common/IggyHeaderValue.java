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

import org.apache.commons.codec.binary.Hex;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The value of one user header of an Iggy message: a {@link Kind} and the bytes that encode it
 * (little-endian numbers, UTF-8 strings). Made with the {@code of...} factories, read with the
 * {@code as...} method of its kind or as {@link #bytes()}. Immutable.
 */
@PublicEvolving
public final class IggyHeaderValue {

    /** The type of a header value, as Iggy's wire format names it. */
    @PublicEvolving
    public enum Kind {
        RAW,
        STRING,
        BOOL,
        INT8,
        INT16,
        INT32,
        INT64,
        INT128,
        UINT8,
        UINT16,
        UINT32,
        UINT64,
        UINT128,
        FLOAT32,
        FLOAT64;

        /** The kind's number in Iggy's wire format. */
        public int code() {
            return ordinal() + 1;
        }

        /** The kind of a wire-format number; {@link IllegalArgumentException} if none has it. */
        public static Kind ofCode(int code) {
            Kind[] kinds = values();
            if (code < 1 || code > kinds.length) {
                throw new IllegalArgumentException("No Iggy header kind has the code " + code);
            }
            return kinds[code - 1];
        }
    }

    private final Kind kind;
    final byte[] bytes; // never changed; IggyHeadersInternals reads it without a copy

    /** Wraps {@code bytes} without a copy (see {@link IggyHeadersInternals}). */
    IggyHeaderValue(Kind kind, byte[] bytes) {
        this.kind = kind;
        this.bytes = bytes;
    }

    /** A value of {@code kind} from its encoded bytes (copied), e.g. for 128-bit integers. */
    public static IggyHeaderValue of(Kind kind, byte[] bytes) {
        return new IggyHeaderValue(
                Objects.requireNonNull(kind, "kind"),
                Objects.requireNonNull(bytes, "bytes").clone());
    }

    /** Uninterpreted bytes (copied), kind {@link Kind#RAW}. */
    public static IggyHeaderValue ofRaw(byte[] bytes) {
        return of(Kind.RAW, bytes);
    }

    /** A non-blank string of at most 255 UTF-8 bytes, else {@link IllegalArgumentException}. */
    public static IggyHeaderValue ofString(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("An Iggy header's string value cannot be blank");
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 255) {
            throw new IllegalArgumentException(
                    "An Iggy header's string value has 1 to 255 UTF-8 bytes, not " + bytes.length);
        }
        return new IggyHeaderValue(Kind.STRING, bytes);
    }

    public static IggyHeaderValue ofBool(boolean value) {
        return new IggyHeaderValue(Kind.BOOL, new byte[] {(byte) (value ? 1 : 0)});
    }

    public static IggyHeaderValue ofInt8(byte value) {
        return new IggyHeaderValue(Kind.INT8, new byte[] {value});
    }

    public static IggyHeaderValue ofInt16(short value) {
        return new IggyHeaderValue(Kind.INT16, le(2).putShort(value).array());
    }

    public static IggyHeaderValue ofInt32(int value) {
        return new IggyHeaderValue(Kind.INT32, le(4).putInt(value).array());
    }

    public static IggyHeaderValue ofInt64(long value) {
        return new IggyHeaderValue(Kind.INT64, le(8).putLong(value).array());
    }

    /** An unsigned 8-bit integer, given as {@code 0..255}. */
    public static IggyHeaderValue ofUint8(short value) {
        return new IggyHeaderValue(Kind.UINT8, new byte[] {(byte) inRange(value, 0xFF)});
    }

    /** An unsigned 16-bit integer, given as {@code 0..65535}. */
    public static IggyHeaderValue ofUint16(int value) {
        return new IggyHeaderValue(
                Kind.UINT16, le(2).putShort((short) inRange(value, 0xFFFF)).array());
    }

    /** An unsigned 32-bit integer, given as {@code 0..4294967295}. */
    public static IggyHeaderValue ofUint32(long value) {
        return new IggyHeaderValue(
                Kind.UINT32, le(4).putInt((int) inRange(value, 0xFFFF_FFFFL)).array());
    }

    public static IggyHeaderValue ofFloat32(float value) {
        return new IggyHeaderValue(Kind.FLOAT32, le(4).putFloat(value).array());
    }

    public static IggyHeaderValue ofFloat64(double value) {
        return new IggyHeaderValue(Kind.FLOAT64, le(8).putDouble(value).array());
    }

    public Kind kind() {
        return kind;
    }

    /** The encoded bytes, whatever the kind (a copy). */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The string; {@link IllegalStateException} for another kind, as every {@code as...}. */
    public String asString() {
        return new String(as(Kind.STRING, 0).array(), StandardCharsets.UTF_8);
    }

    public boolean asBool() {
        return as(Kind.BOOL, 1).get(0) == 1;
    }

    public byte asInt8() {
        return as(Kind.INT8, 1).get(0);
    }

    public short asInt16() {
        return as(Kind.INT16, 2).getShort(0);
    }

    public int asInt32() {
        return as(Kind.INT32, 4).getInt(0);
    }

    public long asInt64() {
        return as(Kind.INT64, 8).getLong(0);
    }

    public short asUint8() {
        return (short) (as(Kind.UINT8, 1).get(0) & 0xFF);
    }

    public int asUint16() {
        return as(Kind.UINT16, 2).getShort(0) & 0xFFFF;
    }

    public long asUint32() {
        return as(Kind.UINT32, 4).getInt(0) & 0xFFFF_FFFFL;
    }

    public float asFloat32() {
        return as(Kind.FLOAT32, 4).getFloat(0);
    }

    public double asFloat64() {
        return as(Kind.FLOAT64, 8).getDouble(0);
    }

    /** The bytes, little-endian, for decoding; fails on another kind or too few bytes. */
    private ByteBuffer as(Kind expected, int minBytes) {
        if (kind != expected) {
            throw new IllegalStateException(
                    "The header value is of kind "
                            + kind
                            + ", not "
                            + expected
                            + ": read it with"
                            + " the as... method of its kind, or as bytes()");
        }
        if (bytes.length < minBytes) {
            throw new IllegalStateException(
                    "The " + kind + " header value has " + bytes.length + " bytes");
        }
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static long inRange(long value, long max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(
                    "The value " + value + " is not between 0 and " + max);
        }
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IggyHeaderValue that
                && kind == that.kind
                && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return 31 * kind.hashCode() + Arrays.hashCode(bytes);
    }

    /** The kind and the decoded value (strings, numbers, booleans) or the bytes in hex. */
    @Override
    public String toString() {
        Object decoded =
                switch (kind) {
                    case STRING -> asString();
                    case BOOL -> asBool();
                    case INT8 -> asInt8();
                    case INT16 -> asInt16();
                    case INT32 -> asInt32();
                    case INT64 -> asInt64();
                    case UINT8 -> asUint8();
                    case UINT16 -> asUint16();
                    case UINT32 -> asUint32();
                    case FLOAT32 -> asFloat32();
                    case FLOAT64 -> asFloat64();
                    default -> "0x" + Hex.encodeHexString(bytes);
                };
        return kind + " " + decoded;
    }
}

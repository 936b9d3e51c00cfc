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

import java.util.Arrays;
import java.util.Objects;

/**
 * The value of one user header of an Iggy message. Iggy types its header values: each has a {@link
 * Kind} and the bytes that encode it (little-endian numbers, UTF-8 strings). Make one with the
 * {@code of...} factories and read one with the {@code as...} method of its kind; {@link #bytes()}
 * gives the encoded bytes of any kind. Immutable.
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
        FLOAT64
    }

    private final Kind kind;
    private final byte[] bytes;

    private IggyHeaderValue(Kind kind, byte[] bytes) {
        this.kind = kind;
        this.bytes = bytes;
    }

    /**
     * A value of {@code kind} from its encoded bytes, for the kinds without a factory of their own
     * (128-bit and unsigned 64-bit integers). The bytes are copied.
     */
    public static IggyHeaderValue of(Kind kind, byte[] bytes) {
        return new IggyHeaderValue(
                Objects.requireNonNull(kind, "kind"),
                Objects.requireNonNull(bytes, "bytes").clone());
    }

    /** Uninterpreted bytes (copied), kind {@link Kind#RAW}. */
    public static IggyHeaderValue ofRaw(byte[] bytes) {
        return of(Kind.RAW, bytes);
    }

    /** A UTF-8 string, kind {@link Kind#STRING}. */
    public static IggyHeaderValue ofString(String value) {
        return fromSdk(org.apache.iggy.message.HeaderValue.fromString(value));
    }

    public static IggyHeaderValue ofBool(boolean value) {
        return fromSdk(org.apache.iggy.message.HeaderValue.fromBool(value));
    }

    public static IggyHeaderValue ofInt8(byte value) {
        return fromSdk(org.apache.iggy.message.HeaderValue.fromInt8(value));
    }

    public static IggyHeaderValue ofInt16(short value) {
        return fromSdk(org.apache.iggy.message.HeaderValue.fromInt16(value));
    }

    public static IggyHeaderValue ofInt32(int value) {
        return fromSdk(org.apache.iggy.message.HeaderValue.fromInt32(value));
    }

    public static IggyHeaderValue ofInt64(long value) {
        return fromSdk(org.apache.iggy.message.HeaderValue.fromInt64(value));
    }

    /** An unsigned 8-bit integer, given as {@code 0..255}. */
    public static IggyHeaderValue ofUint8(short value) {
        return fromSdk(org.apache.iggy.message.HeaderValue.fromUint8(value));
    }

    /** An unsigned 16-bit integer, given as {@code 0..65535}. */
    public static IggyHeaderValue ofUint16(int value) {
        return fromSdk(org.apache.iggy.message.HeaderValue.fromUint16(value));
    }

    /** An unsigned 32-bit integer, given as {@code 0..4294967295}. */
    public static IggyHeaderValue ofUint32(long value) {
        return fromSdk(org.apache.iggy.message.HeaderValue.fromUint32(value));
    }

    public static IggyHeaderValue ofFloat32(float value) {
        return fromSdk(org.apache.iggy.message.HeaderValue.fromFloat32(value));
    }

    public static IggyHeaderValue ofFloat64(double value) {
        return fromSdk(org.apache.iggy.message.HeaderValue.fromFloat64(value));
    }

    public Kind kind() {
        return kind;
    }

    /** The encoded bytes, whatever the kind (a copy). */
    public byte[] bytes() {
        return bytes.clone();
    }

    /**
     * @throws IllegalStateException if the value is not of kind {@link Kind#STRING}
     */
    public String asString() {
        return sdk(Kind.STRING).asString();
    }

    public boolean asBool() {
        return sdk(Kind.BOOL).asBool();
    }

    public byte asInt8() {
        return sdk(Kind.INT8).asInt8();
    }

    public short asInt16() {
        return sdk(Kind.INT16).asInt16();
    }

    public int asInt32() {
        return sdk(Kind.INT32).asInt32();
    }

    public long asInt64() {
        return sdk(Kind.INT64).asInt64();
    }

    public short asUint8() {
        return sdk(Kind.UINT8).asUint8();
    }

    public int asUint16() {
        return sdk(Kind.UINT16).asUint16();
    }

    public long asUint32() {
        return sdk(Kind.UINT32).asUint32();
    }

    public float asFloat32() {
        return sdk(Kind.FLOAT32).asFloat32();
    }

    public double asFloat64() {
        return sdk(Kind.FLOAT64).asFloat64();
    }

    /** The SDK's value of the same kind and bytes, for decoding; fails on another kind. */
    private org.apache.iggy.message.HeaderValue sdk(Kind expected) {
        if (kind != expected) {
            throw new IllegalStateException(
                    "The header value is of kind "
                            + kind
                            + ", not "
                            + expected
                            + ": read it with"
                            + " the as... method of its kind, or as bytes()");
        }
        return SdkHeaders.valueToSdk(this);
    }

    private static IggyHeaderValue fromSdk(org.apache.iggy.message.HeaderValue value) {
        return SdkHeaders.valueFromSdk(value);
    }

    /** Package-private: the bytes without a copy, for the SDK conversion. */
    byte[] encoded() {
        return bytes;
    }

    /** Package-private: wraps bytes without a copy, for the SDK conversion. */
    static IggyHeaderValue wrap(Kind kind, byte[] bytes) {
        return new IggyHeaderValue(kind, bytes);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof IggyHeaderValue)) {
            return false;
        }
        IggyHeaderValue that = (IggyHeaderValue) o;
        return kind == that.kind && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return 31 * kind.hashCode() + Arrays.hashCode(bytes);
    }

    /** The kind and the decoded value (strings, numbers, booleans) or the bytes in hex. */
    @Override
    public String toString() {
        switch (kind) {
            case STRING:
                return "STRING " + asString();
            case RAW:
            case INT128:
            case UINT64:
            case UINT128:
                return kind + " 0x" + Hex.encodeHexString(bytes);
            default:
                return kind + " " + SdkHeaders.valueToSdk(this);
        }
    }
}

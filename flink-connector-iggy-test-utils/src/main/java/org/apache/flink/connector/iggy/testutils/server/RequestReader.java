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

/**
 * Reads the little-endian fields of one request payload.
 *
 * <p>Running off the end of the payload means the client sent a malformed request, which the server
 * answers with error 3 (InvalidCommand).
 */
final class RequestReader {
    private final byte[] buffer;
    private final int limit;
    private int position;

    RequestReader(byte[] buffer, int offset, int length) {
        this.buffer = buffer;
        this.position = offset;
        this.limit = offset + length;
    }

    byte[] buffer() {
        return buffer;
    }

    int position() {
        return position;
    }

    int remaining() {
        return limit - position;
    }

    int u8() {
        require(1);
        return buffer[position++] & 0xFF;
    }

    long u32() {
        require(4);
        long value = LittleEndian.getInt(buffer, position) & 0xFFFFFFFFL;
        position += 4;
        return value;
    }

    /** A u32 that must fit an int (counts, lengths); larger values are malformed here. */
    int u32AsInt() {
        long value = u32();
        if (value > Integer.MAX_VALUE) {
            throw CommandException.of(ErrorCodes.INVALID_COMMAND, "u32 value too large: " + value);
        }
        return (int) value;
    }

    long u64() {
        require(8);
        long value = LittleEndian.getLong(buffer, position);
        position += 8;
        return value;
    }

    byte[] bytes(int count) {
        require(count);
        byte[] result = new byte[count];
        System.arraycopy(buffer, position, result, 0, count);
        position += count;
        return result;
    }

    String string(int length) {
        require(length);
        String value = new String(buffer, position, length, StandardCharsets.UTF_8);
        position += length;
        return value;
    }

    /** A name prefixed by a one-byte length; the server refuses an empty one (error 4). */
    String str8() {
        int length = u8();
        if (length == 0) {
            throw CommandException.of(ErrorCodes.INVALID_FORMAT, "empty name");
        }
        return string(length);
    }

    /** {@code [kind u8][len u8][value]}: kind 1 numeric (len 4), kind 2 a name (len 1..255). */
    EntityId identifier() {
        int kind = u8();
        int length = u8();
        switch (kind) {
            case 1:
                if (length != 4) {
                    throw CommandException.of(
                            ErrorCodes.INVALID_FORMAT, "numeric identifier of length " + length);
                }
                return EntityId.ofNumeric(u32());
            case 2:
                if (length == 0) {
                    throw CommandException.of(ErrorCodes.INVALID_FORMAT, "empty identifier");
                }
                return EntityId.ofName(string(length));
            default:
                throw CommandException.of(ErrorCodes.INVALID_FORMAT, "identifier kind " + kind);
        }
    }

    /** {@code [kind u8][Identifier]}: kind 1 a single consumer, kind 2 a consumer group. */
    ConsumerRef consumer() {
        int kind = u8();
        if (kind != 1 && kind != 2) {
            throw CommandException.of(ErrorCodes.INVALID_COMMAND, "consumer kind " + kind);
        }
        return new ConsumerRef(kind == 2, identifier());
    }

    /** {@code [flag u8][u32]}: flag 1 means a partition id is given; -1 means none. */
    long optionalPartitionId() {
        int flag = u8();
        long value = u32();
        return flag == 1 ? value : -1;
    }

    private void require(int count) {
        if (count < 0 || limit - position < count) {
            throw CommandException.of(ErrorCodes.INVALID_COMMAND, "request payload too short");
        }
    }
}

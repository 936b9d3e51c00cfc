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

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A user's permissions as Iggy encodes them: ten global flags, then optional per-stream flags with
 * optional per-topic flags. The encoded form is kept too, so GET_USER returns what was sent.
 */
final class PermissionSet {
    // Global flags, in wire order.
    static final int MANAGE_SERVERS = 0;
    static final int READ_SERVERS = 1;
    static final int MANAGE_USERS = 2;
    static final int READ_USERS = 3;
    static final int MANAGE_STREAMS = 4;
    static final int READ_STREAMS = 5;
    static final int MANAGE_TOPICS = 6;
    static final int READ_TOPICS = 7;
    static final int POLL_MESSAGES = 8;
    static final int SEND_MESSAGES = 9;

    final boolean[] global;
    final Map<Long, StreamFlags> streams;
    private final byte[] encoded;

    record StreamFlags(
            boolean manageStream,
            boolean readStream,
            boolean manageTopics,
            boolean readTopics,
            boolean pollMessages,
            boolean sendMessages,
            Map<Long, TopicFlags> topics) {}

    record TopicFlags(
            boolean manageTopic, boolean readTopic, boolean pollMessages, boolean sendMessages) {}

    private PermissionSet(boolean[] global, Map<Long, StreamFlags> streams, byte[] encoded) {
        this.global = global;
        this.streams = streams;
        this.encoded = encoded;
    }

    /** Every global flag set: the root user's permissions. */
    static PermissionSet all() {
        ResponseWriter writer = new ResponseWriter();
        for (int i = 0; i < 10; i++) {
            writer.bool(true);
        }
        writer.u8(0);
        byte[] encoded = writer.toByteArray();
        return parse(new RequestReader(encoded, 0, encoded.length), encoded.length);
    }

    /** Parses a block of {@code length} bytes: {@code [10 bools]([1][id]...)*[0]}. */
    static PermissionSet parse(RequestReader reader, int length) {
        int start = reader.position();
        boolean[] global = new boolean[10];
        for (int i = 0; i < global.length; i++) {
            global[i] = reader.u8() != 0;
        }
        Map<Long, StreamFlags> streams = new LinkedHashMap<>();
        while (reader.remaining() > 0 && reader.position() - start < length && reader.u8() != 0) {
            long streamId = reader.u32();
            boolean[] flags = new boolean[6];
            for (int i = 0; i < flags.length; i++) {
                flags[i] = reader.u8() != 0;
            }
            Map<Long, TopicFlags> topics = new LinkedHashMap<>();
            while (reader.u8() != 0) {
                long topicId = reader.u32();
                topics.put(
                        topicId,
                        new TopicFlags(
                                reader.u8() != 0,
                                reader.u8() != 0,
                                reader.u8() != 0,
                                reader.u8() != 0));
            }
            streams.put(
                    streamId,
                    new StreamFlags(
                            flags[0], flags[1], flags[2], flags[3], flags[4], flags[5], topics));
        }
        int consumed = reader.position() - start;
        if (consumed != length) {
            throw CommandException.of(ErrorCodes.INVALID_COMMAND, "bad permissions length");
        }
        byte[] encoded = new byte[length];
        System.arraycopy(reader.buffer(), start, encoded, 0, length);
        return new PermissionSet(global, streams, encoded);
    }

    /** Writes {@code [perm_len u32][permissions]}. */
    void writeTo(ResponseWriter writer) {
        writer.u32(encoded.length);
        writer.bytes(encoded);
    }

    boolean global(int flag) {
        return global[flag];
    }

    StreamFlags stream(int streamId) {
        return streams.get((long) streamId);
    }

    TopicFlags topic(int streamId, int topicId) {
        StreamFlags stream = stream(streamId);
        return stream == null ? null : stream.topics().get((long) topicId);
    }
}

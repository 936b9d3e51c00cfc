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
package org.apache.flink.connector.iggy.testutils;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Raw Iggy request frames over a plain socket, for tests of what the SDK never sends. Layouts:
 * docs/development/iggy-protocol.md §1.1 and §1.2.
 */
public final class RawFrames {
    public static final int PING = 1;
    public static final int LOGIN_USER = 38;

    private RawFrames() {}

    /** {@code [length = 4 + payload][code][payload]}. */
    public static byte[] frame(int code, byte[] payload) {
        return ByteBuffer.allocate(8 + payload.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(4 + payload.length)
                .putInt(code)
                .put(payload)
                .array();
    }

    /** A frame header alone, declaring {@code length} (as a u32) for the code and payload. */
    public static byte[] header(long length, int code) {
        return ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt((int) length)
                .putInt(code)
                .array();
    }

    public static byte[] le32(int value) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
    }

    public static void write(Socket socket, byte[] bytes) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
    }

    /** Logs the connection in and returns the status of the answer (0 on success). */
    public static int login(Socket socket, String username, String password) throws IOException {
        byte[] user = username.getBytes();
        byte[] secret = password.getBytes();
        ByteBuffer payload =
                ByteBuffer.allocate(2 + user.length + secret.length + 8)
                        .order(ByteOrder.LITTLE_ENDIAN);
        payload.put((byte) user.length).put(user).put((byte) secret.length).put(secret);
        payload.putInt(0).putInt(0); // no version, no context
        write(socket, frame(LOGIN_USER, payload.array()));
        return readStatus(socket);
    }

    /**
     * An identifier by name: {@code [kind 2][length u8][name]} (docs/development/iggy-protocol.md
     * §3).
     */
    public static byte[] name(String name) {
        byte[] bytes = name.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(2 + bytes.length)
                .put((byte) 2)
                .put((byte) bytes.length)
                .put(bytes)
                .array();
    }

    /** One response: its status (0 on success) and its payload, read little-endian. */
    public record Response(int status, ByteBuffer payload) {}

    /** Sends one request and reads its response. */
    public static Response request(Socket socket, int code, byte[] payload) throws IOException {
        write(socket, frame(code, payload));
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[8];
        in.readFully(header);
        ByteBuffer buffer = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int status = buffer.getInt();
        byte[] body = new byte[buffer.getInt()];
        in.readFully(body);
        return new Response(status, ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN));
    }

    /** Reads one response and returns its status; the payload is skipped. */
    public static int readStatus(Socket socket) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[8];
        in.readFully(header);
        ByteBuffer buffer = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int status = buffer.getInt();
        int length = buffer.getInt();
        in.readFully(new byte[length]);
        return status;
    }
}

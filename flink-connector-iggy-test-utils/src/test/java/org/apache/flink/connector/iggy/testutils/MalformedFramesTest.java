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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;

import static org.apache.flink.connector.iggy.testutils.RawFrames.PING;
import static org.apache.flink.connector.iggy.testutils.RawFrames.frame;
import static org.apache.flink.connector.iggy.testutils.RawFrames.le32;
import static org.apache.flink.connector.iggy.testutils.RawFrames.readStatus;
import static org.apache.flink.connector.iggy.testutils.RawFrames.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Frames the SDK never sends (docs/development/iggy-protocol.md §1.1). The SDK cannot produce them,
 * so this test writes raw bytes; the server must answer with error 3 and keep the connection
 * usable.
 */
class MalformedFramesTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @Test
    void unknownCommandIsInvalidCommandAndTheConnectionStaysUsable32() throws IOException {
        try (Socket socket = connect()) {
            write(socket, frame(9999, new byte[] {1, 2, 3}));
            assertThat(readStatus(socket)).isEqualTo(3);

            write(socket, frame(PING, new byte[0]));
            assertThat(readStatus(socket)).isZero();
        }
    }

    @Test
    void lengthShorterThanACommandCodeIsInvalidCommand() throws IOException {
        try (Socket socket = connect()) {
            write(socket, le32(2));
            assertThat(readStatus(socket)).isEqualTo(3);

            write(socket, frame(PING, new byte[0]));
            assertThat(readStatus(socket)).isZero();
        }
    }

    @Test
    void truncatedPayloadIsInvalidCommand() throws IOException {
        try (Socket socket = connect()) {
            login(socket);
            // GET_STREAM (200) with an identifier that announces 4 bytes but carries 1.
            write(socket, frame(200, new byte[] {1, 4, 7}));
            assertThat(readStatus(socket)).isIn(3, 4);

            write(socket, frame(PING, new byte[0]));
            assertThat(readStatus(socket)).isZero();
        }
    }

    @Test
    void controlFrameAboveTenMebibytesIsInvalidCommand() throws IOException {
        // The real server answers without reading the payload and then loses sync; the embedded
        // one skips it, so only the embedded one can be asked again on the same connection.
        org.junit.jupiter.api.Assumptions.assumeTrue(IGGY.embeddedServer().isPresent());
        try (Socket socket = connect()) {
            login(socket);
            write(socket, frame(201, new byte[10 * 1024 * 1024 + 1])); // GET_STREAMS
            assertThat(readStatus(socket)).isEqualTo(3);

            write(socket, frame(PING, new byte[0]));
            assertThat(readStatus(socket)).isZero();
        }
    }

    @Test
    void abruptDisconnectInsideAFrameDoesNotHurtTheServer() throws IOException {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write(le32(1000));
            out.write(le32(PING));
            out.write(new byte[10]);
            out.flush();
        }
        try (Socket socket = connect()) {
            write(socket, frame(PING, new byte[0]));
            assertThat(readStatus(socket)).isZero();
        }
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket(IGGY.host(), IGGY.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static void login(Socket socket) throws IOException {
        assertThat(RawFrames.login(socket, IGGY.username(), IGGY.password())).isZero();
    }
}

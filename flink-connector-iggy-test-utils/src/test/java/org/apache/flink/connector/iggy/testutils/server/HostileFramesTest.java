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

import org.apache.flink.connector.iggy.testutils.RawFrames;

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.identifier.StreamId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.apache.flink.connector.iggy.testutils.RawFrames.PING;
import static org.apache.flink.connector.iggy.testutils.RawFrames.frame;
import static org.apache.flink.connector.iggy.testutils.RawFrames.header;
import static org.apache.flink.connector.iggy.testutils.RawFrames.le32;
import static org.apache.flink.connector.iggy.testutils.RawFrames.readStatus;
import static org.apache.flink.connector.iggy.testutils.RawFrames.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Frames no SDK sends, written as raw bytes: the server must answer what it can, allocate no more
 * than what has arrived, and keep serving well-behaved clients. Embedded server only (it is the
 * server's own robustness under test, and a real server would lose framing on some of these).
 */
class HostileFramesTest {
    private static final long MIB = 1024 * 1024;
    private static final long GIB = 1024 * MIB;

    /**
     * Generous: the frames below declare gigabytes, so a server that trusts them blows far past.
     */
    private static final long HEAP_GROWTH_BOUND = 128 * MIB;

    private static final int SEND_MESSAGES = 101;

    /**
     * Every command code the server knows, except user administration (which could lock us out).
     */
    private static final int[] KNOWN_CODES = {
        1, 10, 11, 12, 20, 21, 22, 31, 32, 38, 39, 41, 42, 43, 44, 100, 101, 102, 120, 121, 122,
        200, 201, 202, 203, 204, 205, 300, 301, 302, 303, 304, 305, 402, 403, 503, 600, 601, 602,
        603, 604, 605
    };

    private EmbeddedIggyServer server;

    @BeforeEach
    void startServer() {
        server = EmbeddedIggyServer.start(EmbeddedIggyServer.Config.defaults());
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void unauthenticatedSendHeaderDeclaringAGibibyteIsRefusedBeforeItsPayloadArrives()
            throws IOException {
        long heapBefore = usedHeapAfterGc();
        try (Socket socket = connect()) {
            write(socket, header(GIB, SEND_MESSAGES)); // 8 bytes, nothing after

            assertThat(readStatus(socket)).isEqualTo(ErrorCodes.UNAUTHENTICATED);
            assertThat(usedHeapAfterGc() - heapBefore).isLessThan(HEAP_GROWTH_BOUND);
        }
    }

    @Test
    void unauthenticatedSendIsAnsweredAndTheConnectionStaysUsable() throws IOException {
        try (Socket socket = connect()) {
            write(socket, frame(SEND_MESSAGES, new byte[1000]));
            assertThat(readStatus(socket)).isEqualTo(ErrorCodes.UNAUTHENTICATED);

            write(socket, frame(PING, new byte[0]));
            assertThat(readStatus(socket)).isZero();
        }
    }

    @Test
    void authenticatedSendDeclaringMoreThanArrivesAllocatesOnlyWhatArrived() throws IOException {
        long heapBefore = usedHeapAfterGc();
        try (Socket socket = connect()) {
            login(socket);
            // Below the default maximum, so the server waits for the rest, which never comes.
            write(socket, header(200 * MIB, SEND_MESSAGES));
            write(socket, new byte[64 * 1024]);
            awaitServerRead(socket);

            assertThat(usedHeapAfterGc() - heapBefore).isLessThan(HEAP_GROWTH_BOUND);
        }
    }

    @Test
    void sendAboveTheConfiguredMaximumIsInvalidCommandAndSkipped() throws IOException {
        server.close();
        server =
                EmbeddedIggyServer.start(
                        EmbeddedIggyServer.Config.builder().maxRequestPayload(1024).build());
        try (Socket socket = connect()) {
            login(socket);
            write(socket, frame(SEND_MESSAGES, new byte[1025]));
            assertThat(readStatus(socket)).isEqualTo(ErrorCodes.INVALID_COMMAND);

            write(socket, frame(PING, new byte[0]));
            assertThat(readStatus(socket)).isZero();
        }
    }

    @Test
    void randomFramesLeaveTheServerServingWithBoundedHeap() throws Exception {
        long heapBefore = usedHeapAfterGc();
        Random random = new Random(20261201L);
        // Connections left inside a frame stay open until the heap is measured, so whatever the
        // server allocated for them is still held.
        List<Socket> waiting = new ArrayList<>();
        try {
            for (int round = 0; round < 200; round++) {
                Socket socket = connect();
                if (random.nextBoolean()) {
                    login(socket);
                }
                boolean complete = true;
                for (int frame = 0; frame < 5 && complete; frame++) {
                    complete = sendRandomFrame(socket, random);
                }
                if (complete) {
                    socket.close();
                } else {
                    waiting.add(socket);
                }
            }
            assertThat(usedHeapAfterGc() - heapBefore).isLessThan(HEAP_GROWTH_BOUND);
        } finally {
            for (Socket socket : waiting) {
                socket.close();
            }
        }

        try (IggyTcpClient client =
                IggyTcpClient.builder()
                        .host(server.host())
                        .port(server.port())
                        .credentials("iggy", "iggy")
                        .buildAndLogin()) {
            String stream = "after-fuzz-" + System.nanoTime();
            client.streams().createStream(stream);
            assertThat(client.streams().getStream(StreamId.of(stream))).isPresent();
        }
    }

    /**
     * Writes one random frame; returns false when it left the frame incomplete (declared more than
     * it wrote), after which the server waits for bytes that never come.
     */
    private static boolean sendRandomFrame(Socket socket, Random random) throws IOException {
        int code = randomCode(random);
        byte[] payload = new byte[random.nextInt(64)];
        random.nextBytes(payload);
        switch (random.nextInt(4)) {
            case 0: // a header alone declaring a huge payload (up to the u32 maximum)
                write(socket, header(MIB + (random.nextLong() & 0xFFFFFFFFL), code));
                return false;
            case 1: // truncated: declares more than follows
                write(socket, header(4 + payload.length + 1 + random.nextInt(1000), code));
                write(socket, payload);
                return false;
            case 2: // a length too short to hold a code
                write(socket, le32(random.nextInt(4)));
                assertThat(readStatus(socket)).isEqualTo(ErrorCodes.INVALID_COMMAND);
                return true;
            default: // complete, with random content
                write(socket, frame(code, payload));
                assertThat(readStatus(socket)).isGreaterThanOrEqualTo(0);
                return true;
        }
    }

    private static int randomCode(Random random) {
        return random.nextInt(4) == 0
                ? random.nextInt()
                : KNOWN_CODES[random.nextInt(KNOWN_CODES.length)];
    }

    /** Waits until the server has consumed what we sent: a ping would wait behind the frame. */
    private static void awaitServerRead(Socket socket) throws IOException {
        socket.setSoTimeout(500);
        try {
            int status = socket.getInputStream().read();
            assertThat(status).as("the server must not answer an incomplete frame").isEqualTo(-1);
        } catch (SocketTimeoutException expected) {
            // still waiting for the rest of the frame, holding what arrived
        } finally {
            socket.setSoTimeout(10_000);
        }
    }

    private static long usedHeapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(server.host(), server.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static void login(Socket socket) throws IOException {
        assertThat(RawFrames.login(socket, "iggy", "iggy")).isZero();
    }
}

package org.apache.flink.connector.iggy.testutils.server;

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.identifier.StreamId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

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

    private static final int PING = 1;
    private static final int LOGIN_USER = 38;
    private static final int SEND_MESSAGES = 101;

    /**
     * Every command code the server knows, except user administration (which could lock us out).
     */
    private static final int[] KNOWN_CODES = {
        1, 10, 20, 21, 22, 31, 32, 38, 39, 41, 42, 43, 44, 100, 101, 120, 121, 122, 200, 201, 202,
        203, 204, 205, 300, 301, 302, 303, 304, 305, 402, 403, 600, 601, 602, 603, 604, 605
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
        byte[] name = "iggy".getBytes();
        ByteBuffer payload =
                ByteBuffer.allocate(2 + 2 * name.length + 8).order(ByteOrder.LITTLE_ENDIAN);
        payload.put((byte) name.length).put(name).put((byte) name.length).put(name);
        payload.putInt(0).putInt(0);
        write(socket, frame(LOGIN_USER, payload.array()));
        assertThat(readStatus(socket)).isZero();
    }

    private static byte[] header(long length, int code) {
        return ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt((int) length)
                .putInt(code)
                .array();
    }

    private static byte[] frame(int code, byte[] payload) {
        return ByteBuffer.allocate(8 + payload.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(4 + payload.length)
                .putInt(code)
                .put(payload)
                .array();
    }

    private static byte[] le32(int value) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
    }

    private static void write(Socket socket, byte[] bytes) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
    }

    /** Reads one response and returns its status; the payload is skipped. */
    private static int readStatus(Socket socket) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[8];
        try {
            in.readFully(header);
        } catch (SocketException e) {
            throw new AssertionError("the server closed the connection instead of answering", e);
        }
        ByteBuffer buffer = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int status = buffer.getInt();
        int length = buffer.getInt();
        in.readFully(new byte[length]);
        return status;
    }
}

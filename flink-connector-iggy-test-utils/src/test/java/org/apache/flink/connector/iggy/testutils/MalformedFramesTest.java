package org.apache.flink.connector.iggy.testutils;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Frames the SDK never sends (docs/iggy-protocol.md §1.1). The SDK cannot produce them, so this
 * test writes raw bytes; the server must answer with error 3 and keep the connection usable.
 */
class MalformedFramesTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static final int PING = 1;

    @Test
    void unknownCommandIsInvalidCommandAndTheConnectionStaysUsable() throws IOException {
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
            write(socket, le(2));
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
            out.write(le(1000));
            out.write(le(PING));
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
        byte[] user = IGGY.username().getBytes();
        byte[] password = IGGY.password().getBytes();
        ByteBuffer payload =
                ByteBuffer.allocate(2 + user.length + password.length + 8)
                        .order(ByteOrder.LITTLE_ENDIAN);
        payload.put((byte) user.length).put(user).put((byte) password.length).put(password);
        payload.putInt(0).putInt(0);
        write(socket, frame(38, payload.array()));
        assertThat(readStatus(socket)).isZero();
    }

    private static byte[] frame(int code, byte[] payload) {
        return ByteBuffer.allocate(8 + payload.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(4 + payload.length)
                .putInt(code)
                .put(payload)
                .array();
    }

    private static byte[] le(int value) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
    }

    private static void write(Socket socket, byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    /** Reads one response and returns its status; the payload is skipped. */
    private static int readStatus(Socket socket) throws IOException {
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

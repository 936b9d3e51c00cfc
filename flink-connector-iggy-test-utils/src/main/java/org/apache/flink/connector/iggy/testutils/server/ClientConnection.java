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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;

/**
 * Serves one TCP connection: reads request frames one at a time and answers each before reading the
 * next, as the SDK expects.
 *
 * <p>Request frame: {@code [length u32 = 4 + payload][code u32][payload]}. Response frame: {@code
 * [status u32][length u32][payload]}; an error is {@code [code][0]} with no payload.
 */
final class ClientConnection implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ClientConnection.class);

    /** Every command except SendMessages is refused above this payload size. */
    static final long MAX_CONTROL_PAYLOAD = 10L * 1024 * 1024;

    private static final int BUFFER_SIZE = 64 * 1024;

    /** The payload buffer grows by at most this much beyond what has arrived. */
    private static final int READ_CHUNK = 1024 * 1024;

    private final Socket socket;
    private final ServerState state;
    private final CommandDispatcher dispatcher;
    private final Runnable onClose;
    private byte[] payload = new byte[BUFFER_SIZE];
    private final byte[] header = new byte[8];

    ClientConnection(
            Socket socket, ServerState state, CommandDispatcher dispatcher, Runnable onClose) {
        this.socket = socket;
        this.state = state;
        this.dispatcher = dispatcher;
        this.onClose = onClose;
    }

    void close() {
        try {
            socket.close();
        } catch (IOException e) {
            LOG.debug("Closing {} failed", socket, e);
        }
    }

    @Override
    public void run() {
        Session session = state.openSession(addressOf(socket));
        try {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream(), BUFFER_SIZE);
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), BUFFER_SIZE);
            while (serveOneFrame(session, in, out)) {
                // next frame
            }
        } catch (IOException e) {
            LOG.debug("Connection {} ended: {}", session.address(), e.toString());
        } finally {
            close();
            state.closeSession(session);
            onClose.run();
        }
    }

    /** Returns false at a clean end of stream. */
    private boolean serveOneFrame(Session session, InputStream in, OutputStream out)
            throws IOException {
        if (!readFully(in, header, 4, true)) {
            return false;
        }
        long length = LittleEndian.getInt(header, 0) & 0xFFFFFFFFL;
        if (length < 4) {
            // Too short to hold a command code; answer and keep reading.
            writeError(out, ErrorCodes.INVALID_COMMAND);
            return true;
        }
        readFully(in, header, 4, false);
        int code = LittleEndian.getInt(header, 0);
        long payloadLength = length - 4;
        if (code == CommandCodes.SEND_MESSAGES && session.user() == null) {
            // The real server checks the login before it reads a send's payload; it then leaves
            // the payload unread, we discard it to stay in sync (never buffering it).
            writeError(out, ErrorCodes.UNAUTHENTICATED);
            skipFully(in, payloadLength);
            return true;
        }
        if (payloadLength > maxPayload(code)) {
            // Answered at once, as the real server does; then discarded as it arrives.
            writeError(out, ErrorCodes.INVALID_COMMAND);
            skipFully(in, payloadLength);
            return true;
        }
        int size = (int) payloadLength;
        readPayload(in, size);

        Reply reply;
        try {
            reply = dispatcher.dispatch(session, code, new RequestReader(payload, 0, size));
        } catch (CommandException e) {
            LOG.debug("Command {} from {} failed: {}", code, session.address(), e);
            writeError(out, e.code());
            return true;
        } catch (RuntimeException e) {
            LOG.warn("Command {} from {} failed unexpectedly", code, session.address(), e);
            writeError(out, ErrorCodes.ERROR);
            return true;
        } finally {
            if (payload.length > 4 * BUFFER_SIZE) {
                payload = new byte[BUFFER_SIZE]; // do not keep a large send's buffer forever
            }
        }
        LittleEndian.putInt(header, 0, 0);
        LittleEndian.putInt(header, 4, reply.length());
        out.write(header, 0, 8);
        reply.writeTo(out);
        out.flush();
        return true;
    }

    private long maxPayload(int code) {
        long configured = state.maxRequestPayload();
        return code == CommandCodes.SEND_MESSAGES
                ? configured
                : Math.min(configured, MAX_CONTROL_PAYLOAD);
    }

    /**
     * Reads {@code size} bytes into {@link #payload}, growing it only as bytes arrive, so a length
     * that promises more than the client sends costs no more memory than what was sent.
     */
    private void readPayload(InputStream in, int size) throws IOException {
        int read = 0;
        while (read < size) {
            if (read == payload.length) {
                long grown = Math.max(2L * payload.length, (long) read + READ_CHUNK);
                payload = Arrays.copyOf(payload, (int) Math.min(size, grown));
            }
            int n = in.read(payload, read, Math.min(payload.length, size) - read);
            if (n < 0) {
                throw new EOFException("connection closed inside a frame");
            }
            read += n;
        }
    }

    private void writeError(OutputStream out, int code) throws IOException {
        LittleEndian.putInt(header, 0, code);
        LittleEndian.putInt(header, 4, 0);
        out.write(header, 0, 8);
        out.flush();
    }

    /** Reads exactly {@code length} bytes; false only if the stream ended before the first one. */
    private static boolean readFully(InputStream in, byte[] buffer, int length, boolean endAllowed)
            throws IOException {
        int read = 0;
        while (read < length) {
            int n = in.read(buffer, read, length - read);
            if (n < 0) {
                if (read == 0 && endAllowed) {
                    return false;
                }
                throw new EOFException("connection closed inside a frame");
            }
            read += n;
        }
        return true;
    }

    private static void skipFully(InputStream in, long count) throws IOException {
        long remaining = count;
        while (remaining > 0) {
            long skipped = in.skip(remaining);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new EOFException("connection closed inside a frame");
                }
                skipped = 1;
            }
            remaining -= skipped;
        }
    }

    private static String addressOf(Socket socket) {
        return socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
    }
}

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
package org.apache.flink.connector.iggy.sink.internal.writeahead;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.memory.DataInputDeserializer;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads the messages of one write-ahead file, each with its final id, in blocks of {@link
 * #BLOCK_BYTES}: one read call per block, and each message decoded from the block without a lock or
 * a call per field. A message that does not fit in what is left of the block makes the block move
 * to the front of the buffer and fill up again; a message larger than the buffer makes it grow for
 * that message.
 *
 * <p>Confined to the committer's task thread.
 */
@Internal
final class WriteAheadFileInput implements WriteAheadFile.Reader {

    /** What the reader asks the file for at a time, and the size of its buffer. */
    static final int BLOCK_BYTES = 256 * 1024;

    /** Below this many unread bytes the buffer is filled before the next message is decoded. */
    private static final int REFILL_BELOW = 16 * 1024;

    private final Path path;
    private final InputStream in;
    private final byte[] tag;
    private final DataInputDeserializer view = new DataInputDeserializer();
    private byte[] buffer = new byte[BLOCK_BYTES];

    /** The first unread byte of {@link #buffer}. */
    private int start;

    /** One past the last byte read into {@link #buffer}. */
    private int end;

    private boolean endOfFile;

    /** The sequence number of the next message. */
    private int sequence;

    WriteAheadFileInput(Path path, InputStream in, byte[] tag) {
        this.path = path;
        this.in = in;
        this.tag = tag;
    }

    /** The file's 8-byte header: its magic number and format version. */
    long readHeader() throws IOException {
        while (end - start < WriteAheadFile.HEADER_BYTES) {
            if (!fill()) {
                throw new EOFException(
                        "The exactly-once Iggy sink's write-ahead file " + path + " has no header");
            }
        }
        view.setBuffer(buffer, start, end - start);
        long header = view.readLong();
        start = view.getPosition();
        return header;
    }

    @Override
    public OutgoingMessage next() throws IOException {
        if (end - start < REFILL_BELOW && !endOfFile) {
            fill();
        }
        while (true) {
            view.setBuffer(buffer, start, end - start);
            try {
                OutgoingMessage message = WriteAheadMessageCodec.read(view, tag, sequence);
                start = view.getPosition();
                sequence++;
                return message;
            } catch (EOFException e) {
                // the message goes on beyond what the buffer holds
                if (!fill()) {
                    throw new EOFException(
                            "The exactly-once Iggy sink's write-ahead file "
                                    + path
                                    + " ends within message "
                                    + sequence);
                }
            }
        }
    }

    /**
     * Moves the unread bytes to the front, growing the buffer if they fill it, and reads more.
     *
     * @return whether anything was read
     */
    private boolean fill() throws IOException {
        int unread = end - start;
        byte[] target = buffer;
        if (unread == buffer.length) {
            target = new byte[buffer.length * 2];
        } else if (buffer.length > BLOCK_BYTES && unread < BLOCK_BYTES / 2) {
            target = new byte[BLOCK_BYTES]; // back to a block after a large message
        }
        System.arraycopy(buffer, start, target, 0, unread);
        buffer = target;
        start = 0;
        end = unread;
        int read = 0;
        while (end < buffer.length) {
            int n = in.read(buffer, end, buffer.length - end);
            if (n < 0) {
                endOfFile = true;
                break;
            }
            end += n;
            read += n;
        }
        return read > 0;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}

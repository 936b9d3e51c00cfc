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
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;

/**
 * Messages kept in a file of the write-ahead directory, which {@link WriteAheadDirectory} wrote,
 * synced and closed before the checkpoint that refers to it. The checkpoint stores only this
 * handle: the file's path, its message count and its length.
 *
 * <p>A file is a 4-byte magic number and a 4-byte format version, then the messages as {@link
 * WriteAheadMessageCodec} writes them.
 *
 * @param length the file's length in bytes, header included
 */
@Internal
public record WriteAheadFile(Path path, int count, long length) {

    static final int MAGIC = 0x49575746; // "IWWF": Iggy write-ahead file
    static final int FORMAT_VERSION = 1;
    static final int HEADER_BYTES = 8;

    /**
     * Opens the messages for reading, in order, each with its final id.
     *
     * @param checkpointId for error messages: the checkpoint the messages belong to
     * @throws IOException if the file can no longer be read, naming it and the fix
     */
    public Reader open(byte[] tag, long checkpointId) throws IOException {
        FileSystem fs = path.getFileSystem();
        FileStatus status;
        try {
            status = fs.getFileStatus(path);
        } catch (FileNotFoundException e) {
            throw missing(checkpointId, "is missing");
        }
        if (status.getLen() < length) {
            throw missing(
                    checkpointId,
                    "has " + status.getLen() + " bytes instead of the " + length + " written");
        }
        WriteAheadFileInput in = new WriteAheadFileInput(path, fs.open(path), tag);
        try {
            long header = in.readHeader();
            int magic = (int) (header >>> 32);
            int version = (int) header;
            if (magic != MAGIC || version != FORMAT_VERSION) {
                throw new IOException(
                        "The exactly-once Iggy sink's write-ahead file "
                                + path
                                + " is not one it can read (magic "
                                + Integer.toHexString(magic)
                                + ", format version "
                                + version
                                + ")");
            }
        } catch (IOException e) {
            in.close();
            throw e;
        }
        return in;
    }

    private IOException missing(long checkpointId, String what) {
        return new IOException(
                "The exactly-once Iggy sink's write-ahead file "
                        + path
                        + " of checkpoint "
                        + checkpointId
                        + " "
                        + what
                        + ": the "
                        + count
                        + " messages it held are not in the partition and cannot be sent."
                        + " The write-ahead directory must be durable and reachable from every"
                        + " TaskManager (a distributed file system or object store, like the"
                        + " checkpoint directory), and nothing else may delete its files: set"
                        + " 'sink.exactly-once.write-ahead-dir' (setExactlyOnceWriteAheadDir) or"
                        + " the checkpoint directory to such a place. To go on without these"
                        + " messages, restart the job without this checkpoint.");
    }

    /** Deletes the file once its messages are committed. */
    public void discard() throws IOException {
        path.getFileSystem().delete(path, false);
    }

    /** Whether the file was deleted, by this process or another. */
    public boolean isDiscarded() throws IOException {
        return !path.getFileSystem().exists(path);
    }

    /** Reads messages one by one; {@link #next} at most {@link #count()} times. */
    public interface Reader extends Closeable {
        OutgoingMessage next() throws IOException;
    }

    @Override
    public String toString() {
        return count + " messages in " + path;
    }
}

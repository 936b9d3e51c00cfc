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
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.memory.DataOutputSerializer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/**
 * A write-ahead file written through a stream of its Flink file system, whatever that is (a local
 * disk, a distributed file system, an object store), on the task thread: messages are encoded into
 * blocks in memory, each block goes to the stream in one call, and the seal flushes, syncs and
 * closes. Confined to the writer's task thread.
 */
@Internal
final class StreamFileOutput {

    private static final Logger LOG = LoggerFactory.getLogger(StreamFileOutput.class);

    /**
     * What a block collects before it is written: small enough for one block per open file, of
     * every partition a writer sends to.
     */
    static final int BLOCK_BYTES = 64 * 1024;

    /** Room in a block beyond its size for the message that fills it, so it seldom grows. */
    private static final int BLOCK_SLACK_BYTES = 16 * 1024;

    private final Path path;
    private final FSDataOutputStream stream;

    /** Creates the file; fails if it exists. */
    StreamFileOutput(Path path) throws IOException {
        this.path = path;
        this.stream = path.getFileSystem().create(path, FileSystem.WriteMode.NO_OVERWRITE);
    }

    /** A new, empty block. */
    static DataOutputSerializer newBlock() {
        return new DataOutputSerializer(BLOCK_BYTES + BLOCK_SLACK_BYTES);
    }

    /**
     * Writes a block of encoded messages, the first of which starts with the file's header.
     *
     * @return an empty block for the next messages: {@code block} itself, or a new one if a large
     *     message made it grow far beyond its size
     */
    DataOutputSerializer write(DataOutputSerializer block) throws IOException {
        stream.write(block.getSharedBuffer(), 0, block.length());
        if (block.getSharedBuffer().length > 2 * BLOCK_BYTES) {
            return newBlock();
        }
        block.clear();
        return block;
    }

    /**
     * Writes the last block, makes the file durable and closes it.
     *
     * @return the file's length in bytes: what the blocks held, header included
     */
    long seal(DataOutputSerializer last) throws IOException {
        stream.write(last.getSharedBuffer(), 0, last.length());
        stream.flush();
        stream.sync();
        long length = stream.getPos();
        stream.close();
        return length;
    }

    /** Closes the unfinished file and deletes it; best effort, never throws. */
    void abandon() {
        try {
            stream.close();
            path.getFileSystem().delete(path, false);
        } catch (IOException e) {
            LOG.warn("Could not delete the unfinished write-ahead file {}", path, e);
        }
    }
}

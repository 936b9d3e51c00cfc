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
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.memory.DataOutputSerializer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;

/**
 * One write-ahead file, of one checkpoint and partition, created on the first message and written
 * through a stream of its Flink file system, whatever that is (a local disk, a distributed file
 * system, an object store). Messages are encoded into a block in memory, which goes to the stream
 * in one call once it holds {@link #BLOCK_BYTES}: no lock and no call per field. The seal flushes,
 * syncs and closes. Confined to the writer's task thread.
 */
@Internal
public final class PartitionLog {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionLog.class);

    /**
     * What a block collects before it is written: small enough for one block per open file, of
     * every partition a writer sends to.
     */
    static final int BLOCK_BYTES = 64 * 1024;

    /** Room in a block beyond its size for the message that fills it, so it seldom grows. */
    private static final int BLOCK_SLACK_BYTES = 16 * 1024;

    private final Path path;
    @Nullable private FSDataOutputStream stream;

    /** Null before the first message and once sealed. */
    @Nullable private DataOutputSerializer block;

    private int count;

    PartitionLog(Path path) {
        this.path = path;
    }

    /** Adds the next message; its id follows from the file's tag and its position. */
    public void append(OutgoingMessage message) throws IOException {
        if (block == null) {
            open();
        }
        WriteAheadMessageCodec.write(block, message);
        count++;
        if (block.length() >= BLOCK_BYTES) {
            stream.write(block.getSharedBuffer(), 0, block.length());
            if (block.getSharedBuffer().length > 2 * BLOCK_BYTES) {
                block = newBlock(); // a large message made it grow far beyond its size
            } else {
                block.clear();
            }
        }
    }

    /** Creates the file, which must not exist, and starts its first block with the header. */
    private void open() throws IOException {
        stream = path.getFileSystem().create(path, FileSystem.WriteMode.NO_OVERWRITE);
        block = newBlock();
        block.writeInt(WriteAheadFile.MAGIC);
        block.writeInt(WriteAheadFile.FORMAT_VERSION);
    }

    private static DataOutputSerializer newBlock() {
        return new DataOutputSerializer(BLOCK_BYTES + BLOCK_SLACK_BYTES);
    }

    /** Ends the file for its checkpoint: flushed, synced and closed for the committer. */
    public WriteAheadFile seal() throws IOException {
        if (block == null) {
            open();
        }
        stream.write(block.getSharedBuffer(), 0, block.length());
        stream.flush();
        stream.sync();
        long length = stream.getPos();
        stream.close();
        // only now: a log whose seal failed is still unfinished, and its file is deleted
        block = null;
        return new WriteAheadFile(path, count, length);
    }

    boolean isSealed() {
        return block == null && stream != null;
    }

    /** Closes the unfinished file and deletes it; best effort, never throws. */
    void abandon() {
        if (block == null) {
            return;
        }
        block = null;
        try {
            stream.close();
            path.getFileSystem().delete(path, false);
        } catch (IOException e) {
            LOG.warn("Could not delete the unfinished write-ahead file {}", path, e);
        }
    }
}

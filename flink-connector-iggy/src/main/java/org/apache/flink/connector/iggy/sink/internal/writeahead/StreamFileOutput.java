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
 * A write-ahead file written through a stream of its Flink file system, on the task thread: each
 * block in one call; the seal flushes, syncs and closes. Confined to the writer's task thread.
 */
@Internal
final class StreamFileOutput implements WriteAheadFileOutput {

    private static final Logger LOG = LoggerFactory.getLogger(StreamFileOutput.class);

    private final Path path;
    private final FSDataOutputStream stream;

    /** Creates the file; fails if it exists. */
    StreamFileOutput(Path path) throws IOException {
        this.path = path;
        this.stream = path.getFileSystem().create(path, FileSystem.WriteMode.NO_OVERWRITE);
    }

    @Override
    public DataOutputSerializer write(DataOutputSerializer block) throws IOException {
        stream.write(block.getSharedBuffer(), 0, block.length());
        if (WriteAheadFileOutput.oversized(block)) {
            return WriteAheadFileOutput.newBlock();
        }
        block.clear();
        return block;
    }

    @Override
    public long seal(DataOutputSerializer last) throws IOException {
        stream.write(last.getSharedBuffer(), 0, last.length());
        stream.flush();
        stream.sync();
        long length = stream.getPos();
        stream.close();
        return length;
    }

    @Override
    public void abandon() {
        try {
            stream.close();
            path.getFileSystem().delete(path, false);
        } catch (IOException e) {
            LOG.warn("Could not delete the unfinished write-ahead file {}", path, e);
        }
    }
}

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
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;

/**
 * Where the encoded blocks of one write-ahead file go: a stream of any Flink file system ({@link
 * StreamFileOutput}), or a local file written with direct I/O by a writer-owned thread ({@link
 * DirectFileWriter}). Called by the writer's task thread only.
 */
@Internal
interface WriteAheadFileOutput {

    /**
     * What a block collects before it is written: small enough for one block per open file, of
     * every partition a writer sends to.
     */
    int BLOCK_BYTES = 64 * 1024;

    /** Room in a block beyond its size for the message that fills it, so it seldom grows. */
    int BLOCK_SLACK_BYTES = 16 * 1024;

    /** A new, empty block. */
    static DataOutputSerializer newBlock() {
        return new DataOutputSerializer(BLOCK_BYTES + BLOCK_SLACK_BYTES);
    }

    /** Whether a large message made {@code block} grow so far that it is better dropped. */
    static boolean oversized(DataOutputSerializer block) {
        return block.getSharedBuffer().length > 2 * BLOCK_BYTES;
    }

    /**
     * Takes a block of encoded messages, the first of which starts with the file's header.
     *
     * @return an empty block for the next messages: {@code block} itself or another one; the caller
     *     must not touch {@code block} afterwards unless it is returned
     */
    DataOutputSerializer write(DataOutputSerializer block) throws IOException;

    /**
     * Takes the last block, makes the file durable and closes it.
     *
     * @return the file's length in bytes: what the blocks held, header included
     */
    long seal(DataOutputSerializer last) throws IOException;

    /** Closes the unfinished file and deletes it; best effort, never throws. */
    void abandon();
}

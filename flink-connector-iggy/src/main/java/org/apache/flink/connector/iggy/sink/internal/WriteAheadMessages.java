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
package org.apache.flink.connector.iggy.sink.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;

import java.io.Closeable;
import java.io.IOException;

/**
 * Where the messages of one {@link IggyCommittable} are kept until it is committed: in the
 * committable itself ({@link InlineMessages}, as older savepoints carry them) or in a file of the
 * write-ahead directory ({@link SpillFile}, of which the checkpoint stores only the handle).
 * Immutable.
 */
@Internal
public interface WriteAheadMessages {

    /** How many messages there are. */
    int count();

    /**
     * Opens the messages for reading, in order, each with its final id.
     *
     * @param checkpointId for error messages: the checkpoint the messages belong to
     * @throws IOException if they can no longer be read, naming where they were and the fix
     */
    Reader open(byte[] tag, long checkpointId) throws IOException;

    /** Frees what holds the messages once they are committed: deletes a spill file. */
    void discard() throws IOException;

    /** Whether {@link #discard} has freed the messages, by this process or another. */
    boolean isDiscarded() throws IOException;

    /** Reads messages one by one; {@link #next} at most {@link #count()} times. */
    interface Reader extends Closeable {
        OutgoingMessage next() throws IOException;
    }
}

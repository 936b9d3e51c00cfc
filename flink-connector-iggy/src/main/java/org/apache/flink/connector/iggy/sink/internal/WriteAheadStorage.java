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

import java.io.IOException;
import java.io.Serializable;

/**
 * Where an exactly-once writer keeps each checkpoint's messages until its committer sends them:
 * files in a durable directory ({@link SpillFileWriteAhead}), or without one files on the
 * TaskManager's local disk ({@link LocalDiskWriteAhead}). A writer holds no messages in memory
 * either way. Part of the sink's configuration, so immutable and serializable.
 */
@Internal
public interface WriteAheadStorage extends Serializable {

    /** The log of one writer; nothing slow or fallible happens here (the task is starting). */
    WriterLog open(WriterIdentity writer);

    /** For messages: where the messages go. */
    String describe();

    /** One writer's messages. Task thread only. */
    interface WriterLog {

        /**
         * Starts a log of messages of one checkpoint for one partition.
         *
         * @param index the log's number among those of this writer and checkpoint, from 0
         */
        PartitionLog start(long checkpointId, byte[] tag, int index) throws IOException;

        /** Deletes what was started and never handed to a checkpoint; best effort. */
        void close();
    }

    /** The messages of one partition and checkpoint, as the writer adds them. Task thread only. */
    interface PartitionLog {

        /** Adds the next message; its id follows from the log's tag and its position. */
        void append(OutgoingMessage message) throws IOException;

        /**
         * Ends the log for its checkpoint: afterwards the messages are where the committer reads.
         */
        SpillFile seal() throws IOException;
    }

    /**
     * Who writes: the job, the sink operator, the writer's random id (drawn on each start), which
     * together name a writer's files uniquely, and the subtask and the checkpoint it started from
     * (0 if none), which tell which files of earlier writers are left over.
     */
    record WriterIdentity(
            String jobId,
            String operatorId,
            long writerId,
            int subtask,
            int parallelism,
            long restoredCheckpointId) {}
}

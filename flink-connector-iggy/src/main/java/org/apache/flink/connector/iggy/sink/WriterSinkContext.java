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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.TaskInfo;

import javax.annotation.Nullable;

/**
 * The {@link IggySinkContext} of one writer. Owned by the task thread: the writer sets the record's
 * timestamp and the partition count before each call of its serialization schema.
 */
@Internal
final class WriterSinkContext implements IggySinkContext {

    private final int subtaskId;
    private final int parallelism;
    private int partitionCount = -1;
    @Nullable private Long timestamp;

    WriterSinkContext(TaskInfo task) {
        this.subtaskId = task.getIndexOfThisSubtask();
        this.parallelism = task.getNumberOfParallelSubtasks();
    }

    /**
     * The next record: its Flink timestamp, and the topic's partitions as the writer knows them.
     */
    void nextRecord(@Nullable Long timestamp, int partitionCount) {
        this.timestamp = timestamp;
        this.partitionCount = partitionCount;
    }

    @Override
    public int subtaskId() {
        return subtaskId;
    }

    @Override
    public int parallelism() {
        return parallelism;
    }

    @Override
    public int partitionCount() {
        if (partitionCount < 0) {
            throw new IllegalStateException(
                    "The Iggy sink's partition count is known from the first record on: the writer"
                            + " connects then, not while its task starts. Read it in serialize or"
                            + " partition, not in open.");
        }
        return partitionCount;
    }

    @Override
    @Nullable
    public Long timestamp() {
        return timestamp;
    }

    @Override
    public String toString() {
        return "IggySinkContext{subtask " + subtaskId + " of " + parallelism + "}";
    }
}

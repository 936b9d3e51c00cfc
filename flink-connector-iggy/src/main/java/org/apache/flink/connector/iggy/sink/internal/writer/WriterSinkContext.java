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
package org.apache.flink.connector.iggy.sink.internal.writer;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.sink.IggySinkContext;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;

import javax.annotation.Nullable;

import java.util.List;

/**
 * The {@link IggySinkContext} of one writer. Owned by the task thread: the writer sets the record's
 * timestamp before each call of its serialization schema; partition counts come from the writer's
 * {@link TopicPartitionCounts}, from the first record on.
 */
@Internal
final class WriterSinkContext implements IggySinkContext {

    private final int subtaskId;
    private final int parallelism;
    private final IggyId stream;
    private final List<IggySinkTarget> ownTopic;
    private final TopicPartitionCounts partitionCounts;
    private boolean writing;
    @Nullable private Long timestamp;

    WriterSinkContext(
            TaskInfo task, IggyWriterConfig config, TopicPartitionCounts partitionCounts) {
        this.subtaskId = task.getIndexOfThisSubtask();
        this.parallelism = task.getNumberOfParallelSubtasks();
        this.stream = config.stream();
        this.ownTopic = config.defaultTopic().topics();
        this.partitionCounts = partitionCounts;
    }

    /** The next record, with its Flink timestamp. */
    void nextRecord(@Nullable Long timestamp) {
        this.timestamp = timestamp;
        this.writing = true;
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
    public IggyId stream() {
        return stream;
    }

    @Override
    public int partitionCount() {
        if (ownTopic.isEmpty()) {
            throw new IllegalStateException(
                    "The Iggy sink has no topic of its own (setTopic), so partitionCount() has"
                            + " nothing to count: ask partitionCount(topic) for the record's"
                            + " topic.");
        }
        return partitionCount(ownTopic.get(0));
    }

    @Override
    public int partitionCount(IggySinkTarget topic) {
        if (!writing) {
            throw new IllegalStateException(
                    "The Iggy sink's partition counts are known from the first record on: the"
                            + " writer connects then, not while its task starts. Read them in"
                            + " serialize or partition, not in open.");
        }
        try {
            return partitionCounts.of(topic);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IggyConnectorException(
                    "Interrupted while describing Iggy " + topic + " for its partition count", e);
        }
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

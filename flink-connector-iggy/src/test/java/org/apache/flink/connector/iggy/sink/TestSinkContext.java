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

import org.apache.flink.connector.iggy.common.IggyId;

import javax.annotation.Nullable;

import java.util.HashMap;
import java.util.Map;

/** An {@link IggySinkContext} with fixed values, for tests that call a schema or partitioner. */
public final class TestSinkContext implements IggySinkContext {

    private final int subtaskId;
    private final int parallelism;
    private final int partitionCount;
    @Nullable private final Long timestamp;
    private final Map<IggySinkTarget, Integer> topicPartitions = new HashMap<>();

    public TestSinkContext(
            int subtaskId, int parallelism, int partitionCount, @Nullable Long timestamp) {
        this.subtaskId = subtaskId;
        this.parallelism = parallelism;
        this.partitionCount = partitionCount;
        this.timestamp = timestamp;
    }

    /** Subtask 0 of 1, writing to {@code partitionCount} partitions, a record without timestamp. */
    public static TestSinkContext partitions(int partitionCount) {
        return new TestSinkContext(0, 1, partitionCount, null);
    }

    /** Gives {@code topic} its own partition count; other topics have the sink topic's. */
    public TestSinkContext withTopic(IggySinkTarget topic, int partitions) {
        topicPartitions.put(topic, partitions);
        return this;
    }

    /** The stream "s". */
    @Override
    public IggyId stream() {
        return IggyId.of("s");
    }

    @Override
    public int partitionCount(IggySinkTarget topic) {
        return topicPartitions.getOrDefault(topic, partitionCount);
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
        return partitionCount;
    }

    @Override
    @Nullable
    public Long timestamp() {
        return timestamp;
    }
}

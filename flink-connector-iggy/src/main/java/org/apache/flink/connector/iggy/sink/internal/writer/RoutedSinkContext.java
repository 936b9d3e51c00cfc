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
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.sink.IggySinkContext;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;

import javax.annotation.Nullable;

/**
 * The writer's context for a record routed to {@code target}: its {@link #partitionCount()} is the
 * partition count of that topic, so a partitioner chooses among the partitions of the record's own
 * topic. Made per routed record on the task thread; everything else is the writer's context.
 */
@Internal
public record RoutedSinkContext(IggySinkContext writer, IggySinkTarget target)
        implements IggySinkContext {

    /**
     * What a partitioner gets for a record routed to {@code target}: the writer's own context when
     * the record goes to the sink's topic ({@code null}).
     */
    public static IggySinkContext of(IggySinkContext writer, @Nullable IggySinkTarget target) {
        return target != null ? new RoutedSinkContext(writer, target) : writer;
    }

    @Override
    public int partitionCount() {
        return writer.partitionCount(target);
    }

    @Override
    public int partitionCount(IggySinkTarget topic) {
        return writer.partitionCount(topic);
    }

    @Override
    @Nullable
    public Long timestamp() {
        return writer.timestamp();
    }

    @Override
    public IggyId stream() {
        return writer.stream();
    }

    @Override
    public int subtaskId() {
        return writer.subtaskId();
    }

    @Override
    public int parallelism() {
        return writer.parallelism();
    }

    @Override
    public String toString() {
        return writer + " for " + target;
    }
}

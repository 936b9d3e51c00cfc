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

import org.apache.flink.annotation.PublicEvolving;

import javax.annotation.Nullable;

/**
 * What a sink writer knows when it serializes a record or chooses its partition: handed to {@link
 * IggyRecordSerializationSchema} and {@link IggyPartitioner}, in {@code open} and per record. New
 * methods may be added here; implementations of those interfaces keep compiling.
 *
 * <p>The writer owns the context and changes it between records: use it during the call that
 * received it, do not keep it for another thread.
 */
@PublicEvolving
public interface IggySinkContext extends IggyTopicSelector.Context {

    /**
     * The number of partitions of the record's topic: in an {@link IggyPartitioner}, of the topic
     * the sink's topic selector chose for the record; in an {@link IggyRecordSerializationSchema},
     * of the sink's own topic (use {@link #partitionCount(IggySinkTarget)} for another). The writer
     * connects on its first record, not while its task starts: calling this from {@code open}
     * throws {@link IllegalStateException}.
     */
    int partitionCount();

    /**
     * The number of partitions of {@code topic}. The writer describes a topic when it first needs
     * it, and again every five minutes in the background, so partitions added while the job runs
     * are counted within five minutes; a topic that does not exist fails the job naming it. Not
     * from {@code open} (see {@link #partitionCount()}).
     */
    int partitionCount(IggySinkTarget topic);

    /**
     * The Flink timestamp of the record being written, in epoch milliseconds, or {@code null} if it
     * has none (and always in {@code open}).
     */
    @Nullable
    Long timestamp();
}

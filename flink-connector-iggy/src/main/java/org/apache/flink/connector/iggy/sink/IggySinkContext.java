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
 * What a sink writer knows when it serializes a record or chooses its partition. The writer owns it
 * and changes it between records: use it only during the call that received it.
 */
@PublicEvolving
public interface IggySinkContext extends IggyTopicSelector.Context {

    /**
     * The partition count of the record's topic (in an {@link IggyRecordSerializationSchema}, of
     * the sink's own). Not from {@code open}, before the writer connects: {@link
     * IllegalStateException}.
     */
    int partitionCount();

    /**
     * The partition count of {@code topic}, described again every five minutes; a missing topic
     * fails the job. Not from {@code open}.
     */
    int partitionCount(IggySinkTarget topic);

    /** The record's Flink timestamp in epoch milliseconds, or {@code null} if it has none. */
    @Nullable
    Long timestamp();
}

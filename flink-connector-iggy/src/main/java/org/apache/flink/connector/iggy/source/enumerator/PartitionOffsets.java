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
package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.annotation.Internal;

import java.util.Collection;
import java.util.Optional;
import java.util.OptionalLong;

/** What the split planner needs to know about the offsets of a topic's partitions. */
@Internal
interface PartitionOffsets {

    Collection<Long> partitionIds();

    /** The exclusive end (next offset) of the partition when it was described; 0 when empty. */
    long highWatermark(long partitionId);

    /** The offset stored under the consumer name (the last processed one), if any. */
    Optional<Long> storedOffset(long partitionId);

    /** The first offset whose server timestamp is at or after {@code timestampMillis}, if any. */
    OptionalLong firstOffsetAtOrAfter(long partitionId, long timestampMillis);
}

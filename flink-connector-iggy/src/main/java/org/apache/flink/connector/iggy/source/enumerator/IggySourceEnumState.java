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
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The enumerator's checkpoint: partitions already handed to a reader (their progress lives in
 * reader state), splits still waiting for their reader, and whether the first listing of the
 * topics' partitions has happened.
 */
@Internal
public record IggySourceEnumState(
        Set<IggyTopicPartition> assignedPartitions,
        List<IggyPartitionSplit> pendingSplits,
        boolean initialDiscoveryFinished) {

    public IggySourceEnumState {
        assignedPartitions = Collections.unmodifiableSet(new TreeSet<>(assignedPartitions));
        pendingSplits = List.copyOf(pendingSplits);
    }
}

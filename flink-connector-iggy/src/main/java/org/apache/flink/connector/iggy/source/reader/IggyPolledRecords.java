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
package org.apache.flink.connector.iggy.source.reader;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.iggy.common.client.MessageBatch;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.source.IggyMessageAccess;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The answers of one fetch, one batch per poll, iterated in place: nothing is copied. Handed to the
 * task thread, which alone iterates it.
 */
@Internal
final class IggyPolledRecords implements RecordsWithSplitIds<IggyMessage> {

    private final List<IggyPartitionSplit> splits = new ArrayList<>();
    private final List<MessageBatch> batches = new ArrayList<>();
    private Set<String> finishedSplits = Collections.emptySet();

    private int batch = -1;
    @Nullable private IggyPartitionSplit split;
    @Nullable private MessageBatch current;
    private int index;

    void add(IggyPartitionSplit split, MessageBatch messages) {
        splits.add(split);
        batches.add(messages);
    }

    void addFinishedSplit(String splitId) {
        if (finishedSplits.isEmpty()) {
            finishedSplits = new HashSet<>();
        }
        finishedSplits.add(splitId);
    }

    boolean isEmpty() {
        return splits.isEmpty() && finishedSplits.isEmpty();
    }

    @Nullable
    @Override
    public String nextSplit() {
        batch++;
        if (batch >= batches.size()) {
            current = null;
            return null;
        }
        current = batches.get(batch);
        split = splits.get(batch);
        index = 0;
        return split.splitId();
    }

    @Nullable
    @Override
    public IggyMessage nextRecordFromSplit() {
        return index < current.size()
                ? IggyMessageAccess.of(
                        split.stream(), split.topic(), split.partitionId(), current, index++)
                : null;
    }

    @Override
    public Set<String> finishedSplits() {
        return finishedSplits;
    }
}

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

import org.apache.iggy.message.Message;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The answers of one fetch handed to the task thread as they came: one message list per answered
 * poll, iterated in place, with no per-record copy or wrapper.
 */
@Internal
final class IggyPolledRecords implements RecordsWithSplitIds<Message> {

    private final List<String> splitIds = new ArrayList<>();
    private final List<List<Message>> batches = new ArrayList<>();
    private Set<String> finishedSplits = Collections.emptySet();

    private int batch = -1;
    @Nullable private List<Message> current;
    private int index;

    void add(String splitId, List<Message> messages) {
        splitIds.add(splitId);
        batches.add(messages);
    }

    void addFinishedSplit(String splitId) {
        if (finishedSplits.isEmpty()) {
            finishedSplits = new HashSet<>();
        }
        finishedSplits.add(splitId);
    }

    boolean isEmpty() {
        return splitIds.isEmpty() && finishedSplits.isEmpty();
    }

    /** Messages handed over so far, for tests. */
    int recordCount() {
        int count = 0;
        for (List<Message> messages : batches) {
            count += messages.size();
        }
        return count;
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
        index = 0;
        return splitIds.get(batch);
    }

    @Nullable
    @Override
    public Message nextRecordFromSplit() {
        List<Message> messages = current;
        if (messages == null) {
            throw new IllegalStateException("nextSplit() was not called or returned null");
        }
        return index < messages.size() ? messages.get(index++) : null;
    }

    @Override
    public Set<String> finishedSplits() {
        return finishedSplits;
    }
}

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
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the messages in memory and then in the committables, which Flink writes into every
 * checkpoint while they are pending: the write-ahead storage of a sink with neither a write-ahead
 * directory nor a checkpoint directory. Holds at most {@link #memoryBound} bytes per writer and
 * checkpoint, and the checkpoint storage must take them too.
 */
@Internal
final class InStateWriteAhead implements WriteAheadStorage {

    private static final long serialVersionUID = 1L;

    private final long maxBytes;

    InStateWriteAhead(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    public long memoryBound() {
        return maxBytes;
    }

    @Override
    public WriterLog open(WriterIdentity writer) {
        return new WriterLog() {
            @Override
            public PartitionLog start(long checkpointId, byte[] tag, int index) {
                return InStateWriteAhead.start(tag);
            }

            @Override
            public void close() {}
        };
    }

    private static PartitionLog start(byte[] tag) {
        List<OutgoingMessage> messages = new ArrayList<>();
        return new PartitionLog() {
            @Override
            public void append(OutgoingMessage m) {
                messages.add(m.withWireId(IggyCommittable.messageId(tag, messages.size())));
            }

            @Override
            public WriteAheadMessages seal() {
                return new InlineMessages(messages);
            }
        };
    }

    @Override
    public String describe() {
        return "Flink's checkpoints (no write-ahead directory)";
    }

    @Override
    public String toString() {
        return "InStateWriteAhead{maxBytes=" + maxBytes + '}';
    }
}

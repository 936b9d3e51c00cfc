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
package org.apache.flink.connector.iggy.sink.internal.send;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;

import java.util.ArrayList;
import java.util.List;

/**
 * The messages of one partition collected for the next send request, and where a request ends: when
 * it holds {@link IggyWriterConfig#maxBatchBytes} bytes (as {@link OutgoingMessage#wireSize} counts
 * them), or {@link IggyWriterConfig#batchSize} messages if a cap is set, the message that reached
 * the bound included. Bytes are the primary bound, as the source sizes its polls: a request of
 * small messages carries many, one of large messages few. The at-least-once delivery and the
 * exactly-once committer both cut their requests here, so both send alike; nothing else measures a
 * message or decides where a request ends. Every field is owned by its owner's thread (the task's,
 * or the committer's).
 */
@Internal
public final class OpenBatch {

    private final int maxMessages;
    private final long maxBytes;
    private List<OutgoingMessage> messages = new ArrayList<>();
    private long bytes;

    public OpenBatch(IggyWriterConfig config) {
        this.maxMessages = config.batchSize();
        this.maxBytes = config.maxBatchBytes();
    }

    public void add(OutgoingMessage message) {
        messages.add(message);
        bytes += message.wireSize();
    }

    /** Whether the batch reached a bound: it must be sent before another message is added. */
    public boolean isFull() {
        return messages.size() >= maxMessages || bytes >= maxBytes;
    }

    public boolean isEmpty() {
        return messages.isEmpty();
    }

    public int size() {
        return messages.size();
    }

    /** The wire bytes of the messages collected. */
    public long bytes() {
        return bytes;
    }

    /** Hands the messages over and starts an empty batch (the SDK may still read the old list). */
    public List<OutgoingMessage> take() {
        List<OutgoingMessage> taken = messages;
        messages = new ArrayList<>();
        bytes = 0;
        return taken;
    }
}

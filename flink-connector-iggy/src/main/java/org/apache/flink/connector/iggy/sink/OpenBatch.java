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

import org.apache.iggy.message.Message;

import java.util.ArrayList;
import java.util.List;

/**
 * The messages of one partition collected for the next send request, and where a request ends: when
 * it holds {@link IggyWriterConfig#batchSize} messages or {@link IggyWriterConfig#maxBatchBytes}
 * bytes (as {@link IggyWireMessages#wireSize} counts them), the message that reached the bound
 * included. The at-least-once writer and the exactly-once committer both cut their requests here,
 * so both send alike. Confined to its owner's thread.
 */
@Internal
final class OpenBatch {

    private final int maxMessages;
    private final long maxBytes;
    private List<Message> messages = new ArrayList<>();
    private long bytes;

    OpenBatch(IggyWriterConfig config) {
        this.maxMessages = config.batchSize();
        this.maxBytes = config.maxBatchBytes();
    }

    void add(Message message) {
        messages.add(message);
        bytes += IggyWireMessages.wireSize(message);
    }

    /** Whether the batch reached a bound: it must be sent before another message is added. */
    boolean isFull() {
        return messages.size() >= maxMessages || bytes >= maxBytes;
    }

    boolean isEmpty() {
        return messages.isEmpty();
    }

    int size() {
        return messages.size();
    }

    /** The wire bytes of the messages collected. */
    long bytes() {
        return bytes;
    }

    /** Hands the messages over and starts an empty batch (the SDK may still read the old list). */
    List<Message> take() {
        List<Message> taken = messages;
        messages = new ArrayList<>();
        bytes = 0;
        return taken;
    }
}

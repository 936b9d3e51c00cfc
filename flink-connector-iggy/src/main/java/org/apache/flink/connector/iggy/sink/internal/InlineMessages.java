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
package org.apache.flink.connector.iggy.sink.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;

import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * Messages kept in the committable itself, and so in Flink's checkpoint: what committables of older
 * connector versions carry (serializer version 1, and version 2's inline form, which sinks without
 * a write-ahead directory wrote). Writers no longer make them; they are restored, committed and,
 * while pending, written into checkpoints again.
 */
@Internal
final class InlineMessages implements WriteAheadMessages {

    private final List<OutgoingMessage> messages;

    /**
     * @param messages each with its final id
     */
    InlineMessages(List<OutgoingMessage> messages) {
        this.messages = Collections.unmodifiableList(messages);
    }

    @Override
    public int count() {
        return messages.size();
    }

    /** The messages, each with its final id. */
    List<OutgoingMessage> messages() {
        return messages;
    }

    @Override
    public Reader open(byte[] tag, long checkpointId) {
        Iterator<OutgoingMessage> it = messages.iterator();
        return new Reader() {
            @Override
            public OutgoingMessage next() {
                return it.next();
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public void discard() {}

    /** Nothing holds them but the committable. */
    @Override
    public boolean isDiscarded() {
        return true;
    }

    @Override
    public String toString() {
        return messages.size() + " messages";
    }
}

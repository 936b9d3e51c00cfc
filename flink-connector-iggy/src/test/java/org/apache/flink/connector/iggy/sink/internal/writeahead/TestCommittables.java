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
package org.apache.flink.connector.iggy.sink.internal.writeahead;

import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Committables whose messages a test chose, written to a write-ahead file as a writer would. */
public final class TestCommittables {

    private static final AtomicLong OPERATORS = new AtomicLong();

    private TestCommittables() {}

    /** {@link #written} of messages with these UTF-8 payloads, no headers and no ids. */
    public static IggyCommittable ofTexts(
            Path dir,
            IggyId stream,
            IggyId topic,
            long partition,
            long checkpointId,
            byte[] tag,
            long readFrom,
            List<String> texts) {
        List<OutgoingMessage> messages = new ArrayList<>();
        for (String text : texts) {
            messages.add(
                    new OutgoingMessage(
                            text.getBytes(StandardCharsets.UTF_8), IggyHeaders.empty(), null, 0));
        }
        return written(dir, stream, topic, partition, checkpointId, tag, readFrom, messages);
    }

    /**
     * A committable of {@code messages} in a file under {@code dir}; each message's id follows from
     * {@code tag} and its position (the file stores none).
     */
    public static IggyCommittable written(
            Path dir,
            IggyId stream,
            IggyId topic,
            long partition,
            long checkpointId,
            byte[] tag,
            long readFrom,
            List<OutgoingMessage> messages) {
        // an operator of its own: a writer removes the files other writers of its operator left
        WriterIdentity writer =
                new WriterIdentity("job", "op-" + OPERATORS.incrementAndGet(), 1, 0, 1, 0);
        try {
            PartitionLog log =
                    new WriteAheadDirectory(dir.toUri().toString())
                            .open(writer)
                            .start(checkpointId, (int) partition);
            for (OutgoingMessage message : messages) {
                log.append(message);
            }
            return new IggyCommittable(
                    stream, topic, partition, checkpointId, tag, readFrom, log.seal());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

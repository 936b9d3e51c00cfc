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
package org.apache.flink.connector.iggy.sink.internal.exactlyonce;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.config.WriteAheadPlacement;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.PartitionLog;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriteAheadDirectory;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriterIdentity;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The messages an exactly-once writer took since the last checkpoint, until the next checkpoint
 * takes them as {@link IggyCommittable}s, one per (stream, topic, partition) the writer routed
 * messages to. Nothing is sent from here: the committer sends a checkpoint's messages once the
 * checkpoint completed. Meanwhile the messages are in write-ahead files (see {@link
 * WriteAheadPlacement}).
 *
 * <p>Each message gets its final id when added (see {@link IggyCommittable#messageId}): the
 * writer's random id, which no other writer shares, and the checkpoint number counted here: one
 * more than the restored checkpoint, then one more per {@link #drain}. It equals Flink's checkpoint
 * id unless a checkpoint was declined, and is unique per writer either way.
 *
 * <p>Messages go to the storage's files as they come, so the writer holds none of them in memory,
 * whatever the volume. Confined to the task thread (the gauge of {@link #bufferedBytes} only
 * reads).
 */
@Internal
final class WriteAheadBuffer {

    private final IggyWriterConfig config;
    private final long writerId;
    private final WriteAheadDirectory.WriterLog log;
    private final Map<IggyTopicPartition, PartitionLog> logs = new TreeMap<>();
    private final EndOffsets endOffsets;
    private long checkpointId;
    private byte[] tag;

    /** The partition of the last message added, and its log: consecutive messages share them. */
    @Nullable private IggyTopicPartition lastTarget;

    @Nullable private PartitionLog lastLog;

    /** Written by the task thread only; volatile for the metric reporter's gauge. */
    private volatile long bytes;

    /**
     * @param writer names the writer; its id is drawn at random when the writer starts: every
     *     writer instance (each subtask, each attempt, each operator, each job) gets its own
     * @param endOffsets where each committable's partition is read back from
     */
    WriteAheadBuffer(
            IggyWriterConfig config,
            WriteAheadDirectory storage,
            WriterIdentity writer,
            EndOffsets endOffsets) {
        this.config = config;
        this.endOffsets = endOffsets;
        this.writerId = writer.writerId();
        this.log = storage.open(writer);
        this.checkpointId = writer.restoredCheckpointId() + 1;
        this.tag = IggyCommittable.tag(writerId, checkpointId);
    }

    /**
     * Holds a message for the next checkpoint.
     *
     * @return the message's bytes (64-byte header, payload and user headers)
     */
    long add(IggyTopicPartition target, OutgoingMessage message) throws IOException {
        // a message with an id of its own is refused: this sink chooses every id itself
        if (message.wireId() != null) {
            throw new IggyConnectorException(
                    "A record for "
                            + target
                            + " at "
                            + config.connection().address()
                            + " has a message id of its own, but an exactly-once Iggy sink"
                            + " chooses every message id itself. Remove the message id (the"
                            + " message id function, idempotent writes or the 'message-id'"
                            + " metadata column), or use AT_LEAST_ONCE.");
        }
        long size = message.wireSize();
        if (!target.equals(lastTarget)) {
            // the map's order compares names: looked up only when the partition changes
            lastLog = logs.get(target);
            if (lastLog == null) {
                lastLog = log.start(checkpointId, logs.size());
                logs.put(target, lastLog);
                endOffsets.partitionStarted(target);
            }
            lastTarget = target;
        }
        lastLog.append(message);
        bytes += size;
        return size;
    }

    /** Seals the files and hands them over as committables; starts the next checkpoint's. */
    List<IggyCommittable> drain() throws IOException {
        List<IggyCommittable> committables = new ArrayList<>(logs.size());
        for (Map.Entry<IggyTopicPartition, PartitionLog> e : logs.entrySet()) {
            IggyTopicPartition target = e.getKey();
            committables.add(
                    new IggyCommittable(
                            target.stream(),
                            target.topic(),
                            target.partition(),
                            checkpointId,
                            tag,
                            endOffsets.readFrom(target),
                            e.getValue().seal()));
        }
        logs.clear();
        lastTarget = null;
        lastLog = null;
        endOffsets.checkpointTaken();
        bytes = 0;
        checkpointId++;
        tag = IggyCommittable.tag(writerId, checkpointId);
        return committables;
    }

    /** Drops what no checkpoint took: the writer closes. */
    void close() {
        logs.clear();
        lastTarget = null;
        lastLog = null;
        log.close();
    }

    /** Bytes of messages since the last checkpoint, in the write-ahead files. */
    long bufferedBytes() {
        return bytes;
    }
}

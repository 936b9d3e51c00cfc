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

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;

import java.io.IOException;
import java.util.Arrays;

/**
 * The messages one writer of an exactly-once sink took for one partition between two checkpoints:
 * the unit its committer sends once the checkpoint completed. Immutable. The messages themselves
 * are in a write-ahead file, of which this holds only the handle.
 *
 * <p>Every message has a 16-byte id: its sequence number in the committable (4 bytes) followed by
 * the committable's 12-byte tag, which the writer derives from its own random id and the checkpoint
 * (see {@link #tag}). A committer that may have sent part of a committable before reads the
 * partition from {@link #readFrom}, an end of the partition before the committable was made, and
 * recognises the messages already there by their tag.
 *
 * @param checkpointId the checkpoint the writer counted when it made this committable
 * @param readFrom where a read-back starts: an end offset of the partition answered before this
 *     committable was made, so at most the offset of its first message
 * @param file the write-ahead file that holds its messages
 */
@Internal
public record IggyCommittable(
        IggyId stream,
        IggyId topic,
        long partition,
        long checkpointId,
        byte[] tag,
        long readFrom,
        WriteAheadFile file) {

    static final int TAG_BYTES = 12;
    static final int ID_BYTES = 16;

    public IggyCommittable {
        if (tag.length != TAG_BYTES) {
            throw new IllegalArgumentException("A tag has " + TAG_BYTES + " bytes");
        }
        tag = tag.clone();
    }

    /**
     * The tag of a committable: the checkpoint (low 32 bits) and the writer's id (64 bits),
     * little-endian. The writer draws its id at random when it starts, so the tag is unique per
     * writer instance and checkpoint: two operators, two jobs, or a restored job next to a fresh
     * one never share one.
     */
    public static byte[] tag(long writerId, long checkpointId) {
        byte[] tag = new byte[TAG_BYTES];
        putLittleEndian(tag, 0, checkpointId, 4);
        putLittleEndian(tag, 4, writerId, 8);
        return tag;
    }

    /** The wire id (little-endian u128) of the message with {@code sequence} under {@code tag}. */
    static byte[] messageId(byte[] tag, int sequence) {
        byte[] id = new byte[ID_BYTES];
        putLittleEndian(id, 0, sequence, 4);
        System.arraycopy(tag, 0, id, 4, TAG_BYTES);
        return id;
    }

    /** The sequence number of a message with wire id {@code id} in this committable, or -1. */
    public int sequenceOf(byte[] id) {
        if (id.length != ID_BYTES || !Arrays.equals(id, 4, ID_BYTES, tag, 0, TAG_BYTES)) {
            return -1;
        }
        int sequence =
                (id[0] & 0xFF) | (id[1] & 0xFF) << 8 | (id[2] & 0xFF) << 16 | (id[3] & 0xFF) << 24;
        return sequence >= 0 && sequence < file.count() ? sequence : -1;
    }

    private static void putLittleEndian(byte[] target, int at, long value, int bytes) {
        for (int i = 0; i < bytes; i++) {
            target[at + i] = (byte) (value >>> (8 * i));
        }
    }

    @Override
    public byte[] tag() {
        return tag.clone();
    }

    /** The partition it goes to. */
    public IggyTopicPartition target() {
        return new IggyTopicPartition(stream, topic, partition);
    }

    /** How many messages it has. */
    public int messageCount() {
        return file.count();
    }

    /**
     * Opens its messages for reading, in order, each with its final id.
     *
     * @throws IOException if they can no longer be read (a write-ahead file is gone), naming the
     *     file, the checkpoint and the fix
     */
    public WriteAheadFile.Reader openMessages() throws IOException {
        return file.open(tag, checkpointId);
    }

    /** For messages: which messages of which checkpoint go where. */
    @Override
    public String toString() {
        return file.count()
                + " messages of checkpoint "
                + checkpointId
                + " for partition "
                + partition
                + " of topic "
                + topic
                + " of stream "
                + stream;
    }
}

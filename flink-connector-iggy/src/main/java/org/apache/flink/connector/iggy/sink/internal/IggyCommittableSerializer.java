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
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyIdBinaryForm;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes {@link IggyCommittable}s into checkpoints.
 *
 * <p>Version 2: stream, topic, partition, checkpoint, tag, read-from offset, then where the
 * messages are: {@link #INLINE} followed by the message count and the messages as {@link
 * WriteAheadMessageCodec} writes them, or {@link #SPILL_FILE} followed by the file's path, message
 * count and length. Version 1, which every committable of an older connector has, is version 2's
 * inline form without the kind byte; it is still read.
 *
 * <p>Message ids are not stored: they follow from the tag and the message's position.
 */
@Internal
public final class IggyCommittableSerializer implements SimpleVersionedSerializer<IggyCommittable> {

    static final int VERSION = 2;

    /** Version 1: messages inline, no kind byte. */
    static final int VERSION_INLINE_ONLY = 1;

    static final byte INLINE = 0;
    static final byte SPILL_FILE = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    /**
     * Serializes into a buffer of exactly the right size, handed over without a copy: with the
     * messages inline, a checkpoint holds every message since the last one, and growing and copying
     * a buffer of that size was much of the time a checkpoint took on the task thread.
     */
    @Override
    public byte[] serialize(IggyCommittable committable) throws IOException {
        int size = serializedSize(committable);
        DataOutputSerializer out = new DataOutputSerializer(size);
        IggyIdBinaryForm.write(committable.stream(), out);
        IggyIdBinaryForm.write(committable.topic(), out);
        out.writeLong(committable.partition());
        out.writeLong(committable.checkpointId());
        out.write(committable.tag());
        out.writeLong(committable.readFrom());
        WriteAheadMessages stored = committable.storedMessages();
        if (stored instanceof SpillFile) {
            SpillFile file = (SpillFile) stored;
            out.writeByte(SPILL_FILE);
            out.writeUTF(file.path().toString());
            out.writeInt(file.count());
            out.writeLong(file.length());
        } else {
            List<OutgoingMessage> messages = ((InlineMessages) stored).messages();
            out.writeByte(INLINE);
            out.writeInt(messages.size());
            for (OutgoingMessage m : messages) {
                WriteAheadMessageCodec.write(out, m);
            }
        }
        return out.length() == size ? out.getSharedBuffer() : out.getCopyOfBuffer();
    }

    /** The bytes {@link #serialize} writes for {@code committable}. */
    static int serializedSize(IggyCommittable committable) {
        long size =
                idSize(committable.stream())
                        + idSize(committable.topic())
                        + 8 // partition
                        + 8 // checkpoint
                        + IggyCommittable.TAG_BYTES
                        + 8 // read-from offset
                        + 1 // kind
                        + 4; // message count
        WriteAheadMessages stored = committable.storedMessages();
        if (stored instanceof SpillFile) {
            size += utfSize(((SpillFile) stored).path().toString()) + 8; // path, length
        } else {
            for (OutgoingMessage m : ((InlineMessages) stored).messages()) {
                size += WriteAheadMessageCodec.size(m);
            }
        }
        return Math.toIntExact(size);
    }

    /** The bytes {@link IggyIdBinaryForm} writes: the flag, then the number or the name. */
    private static int idSize(IggyId id) {
        return id.isNumeric() ? 1 + 8 : 1 + utfSize(id.name());
    }

    /** The bytes {@code writeUTF} writes: a length and modified UTF-8. */
    private static int utfSize(String text) {
        int bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            bytes += c >= 0x0001 && c <= 0x007F ? 1 : c <= 0x07FF ? 2 : 3;
        }
        return 2 + bytes;
    }

    @Override
    public IggyCommittable deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION && version != VERSION_INLINE_ONLY) {
            throw new IOException(
                    "Unknown version "
                            + version
                            + " of an Iggy sink committable; this connector reads versions 1"
                            + " and "
                            + VERSION
                            + ". Restore with the connector version that wrote the checkpoint.");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        IggyId stream = IggyIdBinaryForm.read(in);
        IggyId topic = IggyIdBinaryForm.read(in);
        long partition = in.readLong();
        long checkpointId = in.readLong();
        byte[] tag = new byte[IggyCommittable.TAG_BYTES];
        in.readFully(tag);
        long readFrom = in.readLong();
        byte kind = version == VERSION_INLINE_ONLY ? INLINE : in.readByte();
        WriteAheadMessages messages;
        if (kind == SPILL_FILE) {
            messages = new SpillFile(new Path(in.readUTF()), in.readInt(), in.readLong());
        } else if (kind == INLINE) {
            int count = in.readInt();
            List<OutgoingMessage> inline = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                inline.add(WriteAheadMessageCodec.read(in, tag, i));
            }
            messages = new InlineMessages(inline);
        } else {
            throw new IOException("Unknown kind " + kind + " of an Iggy sink committable");
        }
        return new IggyCommittable(stream, topic, partition, checkpointId, tag, readFrom, messages);
    }
}

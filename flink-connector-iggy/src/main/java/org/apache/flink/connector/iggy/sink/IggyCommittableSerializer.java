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
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderKind;
import org.apache.iggy.message.HeaderValue;
import org.apache.iggy.message.Message;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes {@link IggyCommittable}s into checkpoints. Version 1: stream, topic, partition,
 * checkpoint, tag, read-from offset, then per message its origin timestamp (8 bytes), payload
 * (length and bytes) and user headers (count, then kind, length and bytes of each key and value).
 * Message ids are not stored: they follow from the tag and the message's position.
 */
@Internal
public final class IggyCommittableSerializer implements SimpleVersionedSerializer<IggyCommittable> {

    static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    /**
     * Serializes into a buffer of exactly the right size, handed over without a copy: a checkpoint
     * holds every message since the last one, and growing and copying a buffer of that size was
     * much of the time a checkpoint took on the task thread.
     */
    @Override
    public byte[] serialize(IggyCommittable committable) throws IOException {
        List<Message> messages = committable.messages();
        int size = serializedSize(committable);
        DataOutputSerializer out = new DataOutputSerializer(size);
        writeId(out, committable.stream());
        writeId(out, committable.topic());
        out.writeLong(committable.partition());
        out.writeLong(committable.checkpointId());
        out.write(committable.tag());
        out.writeLong(committable.readFrom());
        out.writeInt(messages.size());
        for (Message m : messages) {
            out.writeLong(m.header().originTimestamp().longValue());
            writeBytes(out, m.payload());
            Map<HeaderKey, HeaderValue> headers = m.userHeaders();
            out.writeInt(headers == null ? 0 : headers.size());
            if (headers != null) {
                for (Map.Entry<HeaderKey, HeaderValue> h : headers.entrySet()) {
                    out.writeByte(h.getKey().kind().asCode());
                    writeBytes(out, h.getKey().value());
                    out.writeByte(h.getValue().kind().asCode());
                    writeBytes(out, h.getValue().value());
                }
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
                        + 4; // message count
        for (Message m : committable.messages()) {
            size += 8 + 4 + m.payload().length + 4; // origin timestamp, payload, header count
            Map<HeaderKey, HeaderValue> headers = m.userHeaders();
            if (headers != null) {
                for (Map.Entry<HeaderKey, HeaderValue> h : headers.entrySet()) {
                    size += 1 + 4 + h.getKey().value().length + 1 + 4 + h.getValue().value().length;
                }
            }
        }
        return Math.toIntExact(size);
    }

    /** The flag, then the number or the name as {@code writeUTF} writes it (modified UTF-8). */
    private static int idSize(IggyId id) {
        if (id.isNumeric()) {
            return 1 + 8;
        }
        String name = id.name();
        int bytes = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            bytes += c >= 0x0001 && c <= 0x007F ? 1 : c <= 0x07FF ? 2 : 3;
        }
        return 1 + 2 + bytes;
    }

    @Override
    public IggyCommittable deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "Unknown version "
                            + version
                            + " of an Iggy sink committable; this connector reads version "
                            + VERSION
                            + ". Restore with the connector version that wrote the checkpoint.");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        IggyId stream = readId(in);
        IggyId topic = readId(in);
        long partition = in.readLong();
        long checkpointId = in.readLong();
        byte[] tag = new byte[IggyCommittable.TAG_BYTES];
        in.readFully(tag);
        long readFrom = in.readLong();
        int count = in.readInt();
        List<Message> messages = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long originTimestamp = in.readLong();
            byte[] payload = readBytes(in);
            int headerCount = in.readInt();
            Map<HeaderKey, HeaderValue> headers =
                    headerCount == 0 ? Collections.emptyMap() : new LinkedHashMap<>();
            for (int h = 0; h < headerCount; h++) {
                HeaderKey key = new HeaderKey(HeaderKind.fromCode(in.readByte()), readBytes(in));
                headers.put(
                        key, new HeaderValue(HeaderKind.fromCode(in.readByte()), readBytes(in)));
            }
            messages.add(
                    IggyWireMessages.message(
                            payload, headers, IggyCommittable.messageId(tag, i), originTimestamp));
        }
        return new IggyCommittable(stream, topic, partition, checkpointId, tag, readFrom, messages);
    }

    private static void writeId(DataOutputSerializer out, IggyId id) throws IOException {
        out.writeBoolean(id.isNumeric());
        if (id.isNumeric()) {
            out.writeLong(id.numericId());
        } else {
            out.writeUTF(id.name());
        }
    }

    private static IggyId readId(DataInputDeserializer in) throws IOException {
        return in.readBoolean() ? IggyId.of(in.readLong()) : IggyId.of(in.readUTF());
    }

    private static void writeBytes(DataOutputSerializer out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(DataInputDeserializer in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return bytes;
    }
}

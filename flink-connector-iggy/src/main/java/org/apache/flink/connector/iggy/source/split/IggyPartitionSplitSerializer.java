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
package org.apache.flink.connector.iggy.source.split;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Versioned serializer of {@link IggyPartitionSplit}.
 *
 * <p>Version 1: stream id, topic id (each a flag byte, 1 = numeric then a long, 0 = name then a UTF
 * string), partition id, starting offset, stopping offset (longs).
 */
@Internal
public final class IggyPartitionSplitSerializer
        implements SimpleVersionedSerializer<IggyPartitionSplit> {

    public static final IggyPartitionSplitSerializer INSTANCE = new IggyPartitionSplitSerializer();

    private static final int CURRENT_VERSION = 1;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(IggyPartitionSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public IggyPartitionSplit deserialize(int version, byte[] serialized) throws IOException {
        return readSplit(version, new DataInputDeserializer(serialized));
    }

    private static void write(IggyPartitionSplit split, DataOutputView out) throws IOException {
        writeId(split.stream(), out);
        writeId(split.topic(), out);
        out.writeLong(split.partitionId());
        out.writeLong(split.startingOffset());
        out.writeLong(split.stoppingOffset());
    }

    private static IggyPartitionSplit read(DataInputView in) throws IOException {
        IggyId stream = readId(in);
        IggyId topic = readId(in);
        long partition = in.readLong();
        long starting = in.readLong();
        long stopping = in.readLong();
        return new IggyPartitionSplit(stream, topic, partition, starting, stopping);
    }

    /** Writes a stream or topic id: a flag byte, then a long or a UTF string. */
    public static void writeId(IggyId id, DataOutputView out) throws IOException {
        out.writeBoolean(id.isNumeric());
        if (id.isNumeric()) {
            out.writeLong(id.numericId());
        } else {
            out.writeUTF(id.name());
        }
    }

    /** Reads what {@link #writeId} wrote. */
    public static IggyId readId(DataInputView in) throws IOException {
        return in.readBoolean() ? IggyId.of(in.readLong()) : IggyId.of(in.readUTF());
    }

    /** Serializes splits for the enumerator state with this serializer's current layout. */
    public void writeSplit(IggyPartitionSplit split, DataOutputView out) throws IOException {
        write(split, out);
    }

    /** Reads a split written by {@link #writeSplit} in the given version. */
    public IggyPartitionSplit readSplit(int version, DataInputView in) throws IOException {
        if (version != 1) {
            throw new IOException(
                    "Unknown Iggy split serializer version "
                            + version
                            + " (this connector reads versions up to "
                            + CURRENT_VERSION
                            + "): the state was written by a newer connector.");
        }
        return read(in);
    }
}

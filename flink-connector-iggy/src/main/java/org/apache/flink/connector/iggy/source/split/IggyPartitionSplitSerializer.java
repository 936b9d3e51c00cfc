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
import org.apache.flink.connector.iggy.common.IggyIdBinaryForm;
import org.apache.flink.connector.iggy.common.StateVersions;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Versioned serializer of {@link IggyPartitionSplit}.
 *
 * <p>Version 1: stream id, topic id (each in {@link IggyIdBinaryForm}), partition id, starting
 * offset, stopping offset (longs).
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
        writeSplit(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public IggyPartitionSplit deserialize(int version, byte[] serialized) throws IOException {
        return readSplit(version, new DataInputDeserializer(serialized));
    }

    /** The current layout, which the enumerator state embeds. */
    public void writeSplit(IggyPartitionSplit split, DataOutputView out) throws IOException {
        IggyIdBinaryForm.write(split.stream(), out);
        IggyIdBinaryForm.write(split.topic(), out);
        out.writeLong(split.partitionId());
        out.writeLong(split.startingOffset());
        out.writeLong(split.stoppingOffset());
    }

    public IggyPartitionSplit readSplit(int version, DataInputView in) throws IOException {
        StateVersions.check(version, CURRENT_VERSION, "an Iggy split");
        IggyId stream = IggyIdBinaryForm.read(in);
        IggyId topic = IggyIdBinaryForm.read(in);
        return new IggyPartitionSplit(stream, topic, in.readLong(), in.readLong(), in.readLong());
    }
}

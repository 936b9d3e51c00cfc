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
package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyIdBinaryForm;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.StateVersions;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplitSerializer;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Versioned serializer of {@link IggySourceEnumState}.
 *
 * <p>Version 2: initial-discovery flag (boolean); assigned partition count (int), then each as
 * stream id, topic id (each in {@link IggyIdBinaryForm}) and partition id (long); pending split
 * count (int), the split layout version (int), then each split in that layout. No other version was
 * released.
 */
@Internal
public final class IggySourceEnumStateSerializer
        implements SimpleVersionedSerializer<IggySourceEnumState> {

    private static final int CURRENT_VERSION = 2;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(IggySourceEnumState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(128);
        out.writeBoolean(state.initialDiscoveryFinished());
        out.writeInt(state.assignedPartitions().size());
        for (IggyTopicPartition partition : state.assignedPartitions()) {
            IggyIdBinaryForm.write(partition.stream(), out);
            IggyIdBinaryForm.write(partition.topic(), out);
            out.writeLong(partition.partition());
        }
        out.writeInt(state.pendingSplits().size());
        out.writeInt(IggyPartitionSplitSerializer.INSTANCE.getVersion());
        for (IggyPartitionSplit split : state.pendingSplits()) {
            IggyPartitionSplitSerializer.INSTANCE.writeSplit(split, out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public IggySourceEnumState deserialize(int version, byte[] serialized) throws IOException {
        StateVersions.check(version, CURRENT_VERSION, "an Iggy enumerator state");
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        boolean initialDiscoveryFinished = in.readBoolean();
        int assignedCount = in.readInt();
        Set<IggyTopicPartition> assigned = new HashSet<>();
        for (int i = 0; i < assignedCount; i++) {
            assigned.add(
                    new IggyTopicPartition(
                            IggyIdBinaryForm.read(in), IggyIdBinaryForm.read(in), in.readLong()));
        }
        int pendingCount = in.readInt();
        int splitVersion = in.readInt();
        List<IggyPartitionSplit> pending = new ArrayList<>(pendingCount);
        for (int i = 0; i < pendingCount; i++) {
            pending.add(IggyPartitionSplitSerializer.INSTANCE.readSplit(splitVersion, in));
        }
        return new IggySourceEnumState(assigned, pending, initialDiscoveryFinished);
    }
}

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
import org.apache.flink.connector.iggy.common.IggyIdBinaryForm;
import org.apache.flink.connector.iggy.common.StateVersions;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;

/**
 * Writes {@link IggyCommittable}s into checkpoints.
 *
 * <p>Version 1: stream, topic, partition, checkpoint, tag, read-from offset, then the write-ahead
 * file's path, message count and length. Message ids are not stored: they follow from the tag and
 * the message's position.
 */
@Internal
public final class IggyCommittableSerializer implements SimpleVersionedSerializer<IggyCommittable> {

    static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(IggyCommittable committable) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(128);
        IggyIdBinaryForm.write(committable.stream(), out);
        IggyIdBinaryForm.write(committable.topic(), out);
        out.writeLong(committable.partition());
        out.writeLong(committable.checkpointId());
        out.write(committable.tag());
        out.writeLong(committable.readFrom());
        WriteAheadFile file = committable.file();
        out.writeUTF(file.path().toString());
        out.writeInt(file.count());
        out.writeLong(file.length());
        return out.getCopyOfBuffer();
    }

    @Override
    public IggyCommittable deserialize(int version, byte[] serialized) throws IOException {
        StateVersions.check(version, VERSION, "an Iggy sink committable");
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        IggyId stream = IggyIdBinaryForm.read(in);
        IggyId topic = IggyIdBinaryForm.read(in);
        long partition = in.readLong();
        long checkpointId = in.readLong();
        byte[] tag = new byte[IggyCommittable.TAG_BYTES];
        in.readFully(tag);
        long readFrom = in.readLong();
        WriteAheadFile file =
                new WriteAheadFile(new Path(in.readUTF()), in.readInt(), in.readLong());
        return new IggyCommittable(stream, topic, partition, checkpointId, tag, readFrom, file);
    }
}

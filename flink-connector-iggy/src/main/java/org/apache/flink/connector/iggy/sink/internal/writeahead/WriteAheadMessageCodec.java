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
import org.apache.flink.connector.iggy.common.IggyHeadersInternals;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * How a write-ahead file stores one message: its origin timestamp (8 bytes), payload (length and
 * bytes) and user headers (count, then kind, length and bytes of each key and value). The id is not
 * stored: it follows from the committable's tag and the message's position (see {@link
 * IggyCommittable#messageId}).
 */
@Internal
final class WriteAheadMessageCodec {

    private WriteAheadMessageCodec() {}

    static void write(DataOutput out, OutgoingMessage message) throws IOException {
        out.writeLong(message.originTimestampMicros());
        IggyHeadersInternals.writeBytes(message.payload(), out);
        IggyHeadersInternals.write(message.headers(), out);
    }

    /** Reads the message at {@code sequence} of the committable tagged {@code tag}. */
    static OutgoingMessage read(DataInput in, byte[] tag, int sequence) throws IOException {
        long originTimestamp = in.readLong();
        byte[] payload = IggyHeadersInternals.readBytes(in);
        return new OutgoingMessage(
                payload,
                IggyHeadersInternals.read(in),
                IggyCommittable.messageId(tag, sequence),
                originTimestamp);
    }
}

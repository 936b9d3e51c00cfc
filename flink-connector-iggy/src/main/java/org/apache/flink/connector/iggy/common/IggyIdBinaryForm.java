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
package org.apache.flink.connector.iggy.common;

import org.apache.flink.annotation.Internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * The binary form of an {@link IggyId} in the connector's serializers: a flag for numeric, then the
 * number (8 bytes) or the name (modified UTF-8).
 */
@Internal
public final class IggyIdBinaryForm {

    private IggyIdBinaryForm() {}

    public static void write(IggyId id, DataOutput out) throws IOException {
        out.writeBoolean(id.isNumeric());
        if (id.isNumeric()) {
            out.writeLong(id.numericId());
        } else {
            out.writeUTF(id.name());
        }
    }

    public static IggyId read(DataInput in) throws IOException {
        return in.readBoolean() ? IggyId.of(in.readLong()) : IggyId.of(in.readUTF());
    }
}

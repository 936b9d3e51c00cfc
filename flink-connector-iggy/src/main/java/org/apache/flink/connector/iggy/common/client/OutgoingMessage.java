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
package org.apache.flink.connector.iggy.common.client;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyHeaders;

import javax.annotation.Nullable;

/**
 * A message the sink sends, converted to the SDK's only when sent. The arrays are not copied: never
 * change them.
 *
 * @param wireId the id as the wire carries it (16 bytes, little-endian u128), or {@code null} for
 *     one the server generates
 */
@Internal
public record OutgoingMessage(
        byte[] payload, IggyHeaders headers, @Nullable byte[] wireId, long originTimestampMicros) {

    /** The bytes of a message's header in a send request and in the partition. */
    public static final int HEADER_BYTES = 64;

    /** The bytes the message takes in a send request: header, payload and user headers. */
    public long wireSize() {
        return HEADER_BYTES + payload.length + headers.encodedLength();
    }
}

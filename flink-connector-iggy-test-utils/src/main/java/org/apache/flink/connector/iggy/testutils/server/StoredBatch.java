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
package org.apache.flink.connector.iggy.testutils.server;

/**
 * The messages of one send, kept in their wire encoding with the server fields (id, offset,
 * timestamp) filled in. A poll copies ranges of {@code data} straight to the socket.
 *
 * <p>Never modified after it has been appended to a {@link PartitionLog}.
 *
 * @param firstOffset offset of the first message
 * @param timestamp server timestamp (µs) shared by every message of the batch
 * @param data the encoded messages back to back
 * @param ends {@code ends[i]} is the end position of message {@code i} in {@code data}
 */
record StoredBatch(long firstOffset, long timestamp, byte[] data, int[] ends) {

    int count() {
        return ends.length;
    }

    int start(int index) {
        return index == 0 ? 0 : ends[index - 1];
    }
}

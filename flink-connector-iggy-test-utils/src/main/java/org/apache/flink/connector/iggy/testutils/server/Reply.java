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

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/** The payload of a successful response; the connection writes the 8-byte header in front. */
interface Reply {

    /** "Empty OK": status 0, length 0. Several commands use it to say "not found". */
    Reply EMPTY =
            new Reply() {
                @Override
                public int length() {
                    return 0;
                }

                @Override
                public void writeTo(OutputStream out) {}
            };

    int length();

    void writeTo(OutputStream out) throws IOException;

    static Reply of(ResponseWriter writer) {
        return new Reply() {
            @Override
            public int length() {
                return writer.size();
            }

            @Override
            public void writeTo(OutputStream out) throws IOException {
                out.write(writer.array(), 0, writer.size());
            }
        };
    }

    /**
     * A head followed by slices of stored message batches. Polls answer with this so that stored
     * messages go to the socket straight from the log, without an intermediate copy.
     */
    static Reply of(ResponseWriter head, List<ByteSlice> slices) {
        int total = head.size();
        for (ByteSlice slice : slices) {
            total += slice.length();
        }
        int length = total;
        return new Reply() {
            @Override
            public int length() {
                return length;
            }

            @Override
            public void writeTo(OutputStream out) throws IOException {
                out.write(head.array(), 0, head.size());
                for (ByteSlice slice : slices) {
                    out.write(slice.bytes(), slice.offset(), slice.length());
                }
            }
        };
    }

    /** A range of an immutable byte array. */
    record ByteSlice(byte[] bytes, int offset, int length) {}
}

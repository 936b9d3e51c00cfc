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
package org.apache.flink.connector.iggy.sink.reconcile;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import java.nio.charset.StandardCharsets;

/** Flink's serializer contract for the messages the reconcile step hands to the writer. */
class ReconciledMessageSerializerTest extends SerializerTestBase<ReconciledMessage> {

    @Override
    protected TypeSerializer<ReconciledMessage> createSerializer() {
        return ReconciledMessageSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<ReconciledMessage> getTypeClass() {
        return ReconciledMessage.class;
    }

    @Override
    protected ReconciledMessage[] getTestData() {
        byte[] id = new byte[16];
        id[15] = 7;
        return new ReconciledMessage[] {
            new ReconciledMessage(bytes("k1"), bytes("v1"), null, null, 0),
            new ReconciledMessage(new byte[0], new byte[0], id, null, -5),
            new ReconciledMessage(bytes("k2"), new byte[4096], null, new byte[] {1, 2}, 42),
            new ReconciledMessage(bytes("k3"), bytes("v"), id, new byte[0], Long.MIN_VALUE)
        };
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

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

/** Flink's serializer contract for the changes the reconcile step receives. */
class EncodedChangeSerializerTest extends SerializerTestBase<EncodedChange> {

    @Override
    protected TypeSerializer<EncodedChange> createSerializer() {
        return EncodedChangeSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<EncodedChange> getTypeClass() {
        return EncodedChange.class;
    }

    @Override
    protected EncodedChange[] getTestData() {
        return new EncodedChange[] {
            new EncodedChange(bytes("k1"), false, bytes("v1"), null, 0),
            new EncodedChange(new byte[] {0, (byte) 0xFF, 0x7F}, false, new byte[0], null, -1),
            new EncodedChange(bytes("k1"), true, null, null, 0),
            new EncodedChange(bytes("k2"), true, bytes("gone"), new byte[] {1, 2, 3}, 42),
            new EncodedChange(bytes(""), false, new byte[4096], new byte[0], Long.MAX_VALUE)
        };
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

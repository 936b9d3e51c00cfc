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

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.testutils.DeeplyEqualsChecker;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Flink's serializer contract for changes with a String key and a mutable byte[] value. */
class IggyMapChangeSerializerTest extends SerializerTestBase<IggyMapChange<String, byte[]>> {

    IggyMapChangeSerializerTest() {
        super(
                new DeeplyEqualsChecker()
                        .withCustomCheck(
                                (a, b) -> a instanceof IggyMapChange && b instanceof IggyMapChange,
                                (a, b, checker) -> {
                                    IggyMapChange<?, ?> x = (IggyMapChange<?, ?>) a;
                                    IggyMapChange<?, ?> y = (IggyMapChange<?, ?>) b;
                                    return x.kind() == y.kind()
                                            && x.key().equals(y.key())
                                            && checker.deepEquals(x.value(), y.value());
                                }));
    }

    @Override
    protected TypeSerializer<IggyMapChange<String, byte[]>> createSerializer() {
        return new IggyMapChangeSerializer<>(
                StringSerializer.INSTANCE, BytePrimitiveArraySerializer.INSTANCE);
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    protected Class<IggyMapChange<String, byte[]>> getTypeClass() {
        return (Class) IggyMapChange.class;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected IggyMapChange<String, byte[]>[] getTestData() {
        return new IggyMapChange[] {
            IggyMapChange.upsert("k1", bytes("v1")),
            IggyMapChange.upsert("", new byte[0]),
            IggyMapChange.delete("k1"),
            IggyMapChange.upsert("héllo", bytes("x".repeat(1000))),
            IggyMapChange.delete("")
        };
    }

    @Override
    protected boolean allowNullInstances(TypeSerializer<IggyMapChange<String, byte[]>> s) {
        return true; // a change always has a key: there is no neutral instance
    }

    @Test
    void copiesAMutableValueButSharesAnImmutableChange() {
        IggyMapChange<String, byte[]> change = IggyMapChange.upsert("k", bytes("v"));
        IggyMapChange<String, byte[]> copy = createSerializer().copy(change);
        assertThat(copy.value()).isEqualTo(change.value()).isNotSameAs(change.value());

        IggyMapChange<String, String> immutable = IggyMapChange.upsert("k", "v");
        IggyMapChangeSerializer<String, String> strings =
                new IggyMapChangeSerializer<>(StringSerializer.INSTANCE, StringSerializer.INSTANCE);
        assertThat(strings.isImmutableType()).isTrue();
        assertThat(strings.copy(immutable)).isSameAs(immutable);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

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

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.connector.iggy.common.NonCompositeTypeInfo;

/** Type information of one stateless hand-written serializer, faster than Flink's POJO one. */
@Internal
final class SerializerTypeInfo<T> extends NonCompositeTypeInfo<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private final TypeSerializer<T> serializer;

    SerializerTypeInfo(Class<T> type, TypeSerializer<T> serializer) {
        this.type = type;
        this.serializer = serializer;
    }

    @Override
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer;
    }

    @Override
    public String toString() {
        return type.getSimpleName();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SerializerTypeInfo && ((SerializerTypeInfo<?>) o).type == type;
    }

    @Override
    public int hashCode() {
        return type.hashCode();
    }

    @Override
    public boolean canEqual(Object o) {
        return o instanceof SerializerTypeInfo;
    }
}

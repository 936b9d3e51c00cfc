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
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;

import java.lang.reflect.Type;
import java.util.Map;
import java.util.Objects;

/**
 * Type information of {@link IggyMapChange}: Flink serializes a change with the key's and the
 * value's own serializers instead of falling back to Kryo, so keyed-map jobs also run with generic
 * types disabled ({@code pipeline.generic-types: false}).
 *
 * <p>Flink finds it by itself (through {@link IggyMapChange}'s {@code @TypeInfo} annotation)
 * wherever it knows the type parameters, e.g. {@code .returns(new TypeHint<IggyMapChange<String,
 * byte[]>>() {})}: users never name this class.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
@Internal
public final class IggyMapChangeTypeInfo<K, V> extends NonCompositeTypeInfo<IggyMapChange<K, V>> {

    private static final long serialVersionUID = 1L;

    private final TypeInformation<K> keyType;
    private final TypeInformation<V> valueType;

    private IggyMapChangeTypeInfo(TypeInformation<K> keyType, TypeInformation<V> valueType) {
        this.keyType = Objects.requireNonNull(keyType, "keyType");
        this.valueType = Objects.requireNonNull(valueType, "valueType");
    }

    public static <K, V> IggyMapChangeTypeInfo<K, V> of(
            TypeInformation<K> keyType, TypeInformation<V> valueType) {
        return new IggyMapChangeTypeInfo<>(keyType, valueType);
    }

    public TypeInformation<K> keyType() {
        return keyType;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Class<IggyMapChange<K, V>> getTypeClass() {
        return (Class) IggyMapChange.class;
    }

    @Override
    public Map<String, TypeInformation<?>> getGenericParameters() {
        return Map.of("K", keyType, "V", valueType);
    }

    @Override
    public TypeSerializer<IggyMapChange<K, V>> createSerializer(SerializerConfig config) {
        return new IggyMapChangeSerializer<>(
                keyType.createSerializer(config), valueType.createSerializer(config));
    }

    @Override
    public String toString() {
        return "IggyMapChange<" + keyType + ", " + valueType + ">";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IggyMapChangeTypeInfo<?, ?> that
                && that.canEqual(this)
                && keyType.equals(that.keyType)
                && valueType.equals(that.valueType);
    }

    @Override
    public int hashCode() {
        return 31 * keyType.hashCode() + valueType.hashCode();
    }

    @Override
    public boolean canEqual(Object o) {
        return o instanceof IggyMapChangeTypeInfo;
    }

    /**
     * Lets Flink's type extraction build {@link IggyMapChangeTypeInfo} from the type parameters it
     * found. A parameter it could not find (a lambda's erased generics) becomes a generic type, as
     * Flink makes of a whole change without this factory.
     */
    @Internal
    public static final class Factory<K, V> extends TypeInfoFactory<IggyMapChange<K, V>> {

        @Override
        @SuppressWarnings("unchecked")
        public TypeInformation<IggyMapChange<K, V>> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return of(
                    (TypeInformation<K>) orGeneric(genericParameters.get("K")),
                    (TypeInformation<V>) orGeneric(genericParameters.get("V")));
        }

        private static TypeInformation<?> orGeneric(TypeInformation<?> type) {
            return type != null ? type : new GenericTypeInfo<>(Object.class);
        }
    }
}

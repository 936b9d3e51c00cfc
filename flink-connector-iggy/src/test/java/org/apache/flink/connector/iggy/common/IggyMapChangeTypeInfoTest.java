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

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Flink finds the change's type information by itself, with its key and value types. */
class IggyMapChangeTypeInfoTest {

    @Test
    void typeExtractionUsesTheTypeParameters() {
        TypeInformation<IggyMapChange<String, byte[]>> type =
                TypeInformation.of(new TypeHint<IggyMapChange<String, byte[]>>() {});
        assertThat(type)
                .isEqualTo(
                        IggyMapChangeTypeInfo.of(Types.STRING, Types.PRIMITIVE_ARRAY(Types.BYTE)));
        assertThat(
                        type.createSerializer(
                                new org.apache.flink.api.common.ExecutionConfig()
                                        .getSerializerConfig()))
                .isInstanceOf(IggyMapChangeSerializer.class);
    }

    @Test
    void unknownTypeParametersBecomeGenericTypes() {
        TypeInformation<?> type = TypeInformation.of(IggyMapChange.class);
        assertThat(type).isInstanceOf(IggyMapChangeTypeInfo.class);
        assertThat(((IggyMapChangeTypeInfo<?, ?>) type).keyType())
                .isEqualTo(new GenericTypeInfo<>(Object.class));
    }

    @Test
    void theKeyedMapSourceTypesItsChangesByTheKeySelectorAndTheValueSchema() {
        IggyRecordDeserializationSchema<IggyMapChange<String, String>> schema =
                IggyRecordDeserializationSchema.keyedMap(
                        m -> new String(m.payload(), StandardCharsets.UTF_8),
                        new SimpleStringSchema());
        assertThat(schema.getProducedType())
                .isEqualTo(IggyMapChangeTypeInfo.of(Types.STRING, Types.STRING));
    }
}

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
package org.apache.flink.connector.iggy.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.RowKind;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.List;

/**
 * Builds a table row from the decoded key row (key header), the decoded value row (payload) and the
 * message's metadata: physical columns at their positions, then the requested metadata.
 */
@Internal
final class IggyRowAssembler implements Serializable {

    private static final long serialVersionUID = 1L;

    private final int physicalArity;
    private final int[] keyProjection;
    private final int[] valueProjection;
    private final RowData.FieldGetter[] keyGetters;
    private final RowData.FieldGetter[] valueGetters;
    private final IggyReadableMetadata[] metadata;

    IggyRowAssembler(
            int physicalArity,
            int[] keyProjection,
            List<LogicalType> keyTypes,
            int[] valueProjection,
            List<LogicalType> valueTypes,
            List<IggyReadableMetadata> metadata) {
        this.physicalArity = physicalArity;
        this.keyProjection = keyProjection;
        this.valueProjection = valueProjection;
        this.keyGetters = getters(keyTypes);
        this.valueGetters = getters(valueTypes);
        this.metadata = metadata.toArray(new IggyReadableMetadata[0]);
    }

    private static RowData.FieldGetter[] getters(List<LogicalType> types) {
        RowData.FieldGetter[] getters = new RowData.FieldGetter[types.size()];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = RowData.createFieldGetter(types.get(i), i);
        }
        return getters;
    }

    /**
     * @param key the key row, or {@code null} when the message has no key header (key columns then
     *     come from the value, if it holds them, or are NULL)
     * @param value the value row, or {@code null} for a deletion (only key columns are set)
     */
    RowData assemble(
            @Nullable RowData key, @Nullable RowData value, RowKind kind, IggyMessage message) {
        GenericRowData row = new GenericRowData(kind, physicalArity + metadata.length);
        if (value != null) {
            for (int i = 0; i < valueProjection.length; i++) {
                row.setField(valueProjection[i], valueGetters[i].getFieldOrNull(value));
            }
        }
        if (key != null) {
            for (int i = 0; i < keyProjection.length; i++) {
                row.setField(keyProjection[i], keyGetters[i].getFieldOrNull(key));
            }
        }
        for (int i = 0; i < metadata.length; i++) {
            row.setField(physicalArity + i, metadata[i].reader.read(message));
        }
        return row;
    }
}

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
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.RowKind;

import java.io.Serializable;
import java.util.List;

/** Copies some columns of a table row into a new row, e.g. the key or the value columns. */
@Internal
final class IggyRowProjection implements Serializable {

    private static final long serialVersionUID = 1L;

    private final RowData.FieldGetter[] getters;

    /**
     * @param positions positions of the copied columns in the source row
     * @param rowTypes types of all columns of the source row
     */
    IggyRowProjection(int[] positions, List<LogicalType> rowTypes) {
        getters = new RowData.FieldGetter[positions.length];
        for (int i = 0; i < positions.length; i++) {
            getters[i] = RowData.createFieldGetter(rowTypes.get(positions[i]), positions[i]);
        }
    }

    RowData project(RowData row, RowKind kind) {
        GenericRowData projected = new GenericRowData(kind, getters.length);
        for (int i = 0; i < getters.length; i++) {
            projected.setField(i, getters[i].getFieldOrNull(row));
        }
        return projected;
    }
}

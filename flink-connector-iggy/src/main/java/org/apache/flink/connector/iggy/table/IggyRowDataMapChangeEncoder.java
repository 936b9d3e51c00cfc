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
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.sink.IggyMapChangeEncoder;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderValue;

import javax.annotation.Nullable;

import java.util.Map;

/**
 * How the {@code upsert-iggy} sink reads a changelog row for the keyed-map sink: INSERT and
 * UPDATE_AFTER upsert, DELETE deletes, UPDATE_BEFORE is ignored; key and value bytes come from the
 * key and value formats; the 'headers' and 'origin-timestamp' metadata columns are written with
 * upserts and deletes.
 */
@Internal
final class IggyRowDataMapChangeEncoder implements IggyMapChangeEncoder<RowData> {

    private static final long serialVersionUID = 1L;

    private final SerializationSchema<RowData> keyFormat;
    private final IggyRowProjection keyColumns;
    private final SerializationSchema<RowData> valueFormat;
    private final IggyRowProjection valueColumns;
    private final IggyDeletionMessage deletion;

    /** Position of each {@link IggyWritableMetadata} in the consumed row, or -1. */
    private final int[] metadataPositions;

    IggyRowDataMapChangeEncoder(
            SerializationSchema<RowData> keyFormat,
            IggyRowProjection keyColumns,
            SerializationSchema<RowData> valueFormat,
            IggyRowProjection valueColumns,
            IggyDeletionMessage deletion,
            int[] metadataPositions) {
        this.keyFormat = keyFormat;
        this.keyColumns = keyColumns;
        this.valueFormat = valueFormat;
        this.valueColumns = valueColumns;
        this.deletion = deletion;
        this.metadataPositions = metadataPositions;
    }

    @Override
    public void open(SerializationSchema.InitializationContext context) throws Exception {
        keyFormat.open(context);
        valueFormat.open(context);
    }

    @Nullable
    @Override
    public IggyMapChange.Kind kind(RowData row) {
        switch (row.getRowKind()) {
            case INSERT:
            case UPDATE_AFTER:
                return IggyMapChange.Kind.UPSERT;
            case DELETE:
                return IggyMapChange.Kind.DELETE;
            default:
                return null;
        }
    }

    @Override
    public byte[] key(RowData row) {
        return keyFormat.serialize(keyColumns.project(row, RowKind.INSERT));
    }

    @Override
    public byte[] value(RowData row) {
        return valueFormat.serialize(valueColumns.project(row, RowKind.INSERT));
    }

    @Override
    public boolean hasDeletionValue() {
        return deletion.isEncoded();
    }

    @Override
    public byte[] deletionValue(RowData row) {
        return deletion.payload();
    }

    @Override
    public Map<HeaderKey, HeaderValue> headers(RowData row) {
        return IggyWritableMetadata.headers(row, metadataPositions);
    }

    /** The 'headers' column and the delete encoding's headers, which win on a conflict. */
    @Override
    public Map<HeaderKey, HeaderValue> deletionHeaders(RowData row) {
        Map<HeaderKey, HeaderValue> marker = deletion.headers();
        Map<HeaderKey, HeaderValue> headers = headers(row);
        if (headers.isEmpty()) {
            return marker;
        }
        headers.putAll(marker);
        return headers;
    }

    @Override
    public long originTimestampMicros(RowData row) {
        Long micros = IggyWritableMetadata.originTimestampMicros(row, metadataPositions);
        return micros != null ? micros : 0;
    }

    @Override
    public String deletionValueOption() {
        return DELETION_VALUE_OPTION;
    }

    static final String DELETION_VALUE_OPTION =
            "'"
                    + IggyConnectorOptions.DELETE_ENCODING.key()
                    + "' = 'header', 'empty-payload' or 'custom-payload'";
}

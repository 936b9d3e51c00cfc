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
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.sink.IggyTopicSelector;
import org.apache.flink.connector.iggy.sink.KeyedMapSinks;
import org.apache.flink.connector.iggy.sink.reconcile.ChangeEncoder;
import org.apache.flink.connector.iggy.sink.reconcile.KeyedMessage;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

import javax.annotation.Nullable;

/**
 * How the {@code upsert-iggy} sink turns a changelog row into the keyed-map sink's message: INSERT
 * and UPDATE_AFTER upsert, DELETE deletes, UPDATE_BEFORE is ignored; key and value bytes come from
 * the key and value formats; the 'headers' and 'origin-timestamp' metadata columns are written with
 * upserts and deletes, and the delete encoding's headers win on a conflict.
 *
 * <p>{@code metadataPositions}: where each {@link IggyWritableMetadata} is in the row, or -1.
 */
@Internal
record IggyRowDataMapChangeEncoder(
        SerializationSchema<RowData> keyFormat,
        IggyRowProjection keyColumns,
        SerializationSchema<RowData> valueFormat,
        IggyRowProjection valueColumns,
        IggyDeletionMessage deletion,
        IggyRowRouting routing,
        int[] metadataPositions)
        implements ChangeEncoder<RowData> {

    private static final long serialVersionUID = 1L;

    /** What makes deletes writable, as the error for an unwritable delete names it. */
    static final String DELETION_VALUE_OPTION =
            "'"
                    + IggyConnectorOptions.DELETE_ENCODING.key()
                    + "' = 'header', 'empty-payload' or 'custom-payload'";

    @Override
    public void open(
            SerializationSchema.InitializationContext context, IggyTopicSelector.Context routing)
            throws Exception {
        keyFormat.open(context);
        valueFormat.open(context);
    }

    @Nullable
    @Override
    public KeyedMessage encode(RowData row) {
        if (row.getRowKind() == RowKind.UPDATE_BEFORE) {
            return null;
        }
        KeyedMessage message = message(row);
        IggySinkTarget target = routing.targetOf(row);
        return target != null ? message.withTarget(target) : message;
    }

    private KeyedMessage message(RowData row) {
        RowKind kind = row.getRowKind();
        byte[] key = bytes(keyFormat, keyColumns, row, "key");
        IggyHeaders headers = IggyWritableMetadata.headers(row, metadataPositions);
        Long micros = IggyWritableMetadata.originTimestampMicros(row, metadataPositions);
        long timestamp = micros != null ? micros : 0;
        if (kind != RowKind.DELETE) {
            return KeyedMessage.upsert(
                    key, bytes(valueFormat, valueColumns, row, "value"), headers, timestamp);
        }
        if (!deletion.isEncoded()) {
            return KeyedMessage.delete(key, null, headers, timestamp);
        }
        return KeyedMessage.delete(key, deletion.payload(), deletion.addTo(headers), timestamp);
    }

    private static byte[] bytes(
            SerializationSchema<RowData> format,
            IggyRowProjection columns,
            RowData row,
            String what) {
        byte[] bytes = format.serialize(columns.project(row, RowKind.INSERT));
        if (bytes == null) {
            throw new IggyConnectorException(
                    "The upsert-iggy sink's "
                            + what
                            + " format "
                            + format.getClass().getName()
                            + " returned null for the row "
                            + KeyedMapSinks.describe(row)
                            + ": every row needs "
                            + what
                            + " bytes.");
        }
        return bytes;
    }
}

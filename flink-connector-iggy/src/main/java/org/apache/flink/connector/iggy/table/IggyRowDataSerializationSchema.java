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
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyHeadersInternals;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.IggyRecordSerializationSchema;
import org.apache.flink.connector.iggy.sink.IggySinkContext;
import org.apache.flink.connector.iggy.sink.IggySinkRecord;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.sink.internal.writer.RoutedSinkContext;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.math.BigInteger;

/**
 * The append ({@code iggy}) sink's encoding: the value format writes the payload, the key format
 * the key header (also the partitioning key), and metadata columns set headers, message id, origin
 * timestamp and partition.
 *
 * <p>{@code metadataPositions}: where each {@link IggyWritableMetadata} is in the row, or -1.
 */
@Internal
record IggyRowDataSerializationSchema(
        @Nullable SerializationSchema<RowData> keyFormat,
        @Nullable IggyRowProjection keyColumns,
        SerializationSchema<RowData> valueFormat,
        IggyRowProjection valueColumns,
        String keyHeader,
        IggyPartitioner<RowData> partitioner,
        IggyRowRouting routing,
        int[] metadataPositions)
        implements IggyRecordSerializationSchema<RowData> {

    private static final long serialVersionUID = 1L;

    @Override
    public void open(
            SerializationSchema.InitializationContext initContext, IggySinkContext sinkContext)
            throws Exception {
        if (keyFormat != null) {
            keyFormat.open(initContext);
        }
        valueFormat.open(initContext);
        partitioner.open(sinkContext);
    }

    @Override
    public IggySinkRecord serialize(RowData row, IggySinkContext context) {
        byte[] key =
                keyFormat != null
                        ? keyFormat.serialize(keyColumns.project(row, row.getRowKind()))
                        : null;
        byte[] payload = valueFormat.serialize(valueColumns.project(row, row.getRowKind()));
        IggyHeaders headers = IggyWritableMetadata.headers(row, metadataPositions);
        if (key != null) {
            headers =
                    headers.with(
                            keyHeader, IggyHeadersInternals.value(IggyHeaderValue.Kind.RAW, key));
        }
        IggySinkTarget target = routing.targetOf(row);
        int partitionPos = metadataPositions[IggyWritableMetadata.PARTITION.ordinal()];
        long partition =
                partitionPos >= 0 && !row.isNullAt(partitionPos)
                        ? row.getInt(partitionPos)
                        : partitioner.partition(
                                row, key, payload, RoutedSinkContext.of(context, target));
        IggySinkRecord record =
                new IggySinkRecord(
                        partition,
                        payload,
                        headers,
                        messageId(row),
                        originTimestampMicros(row, context.timestamp()));
        return target != null ? record.withTarget(target) : record;
    }

    @Nullable
    private BigInteger messageId(RowData row) {
        int pos = metadataPositions[IggyWritableMetadata.MESSAGE_ID.ordinal()];
        if (pos < 0 || row.isNullAt(pos)) {
            return null;
        }
        BigInteger id = new BigInteger(1, row.getBinary(pos));
        return id.signum() == 0 ? null : id;
    }

    private long originTimestampMicros(RowData row, @Nullable Long timestamp) {
        Long written = IggyWritableMetadata.originTimestampMicros(row, metadataPositions);
        // Otherwise as the DataStream sink: the record's Flink timestamp, or now.
        return written != null
                ? written
                : (timestamp != null ? timestamp : System.currentTimeMillis()) * 1000;
    }
}

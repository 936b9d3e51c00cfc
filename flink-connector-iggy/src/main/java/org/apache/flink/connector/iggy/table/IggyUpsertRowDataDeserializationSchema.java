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
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

import java.io.IOException;

/**
 * The {@code upsert-iggy} source's decoding: the source's keyed-map mode decides (key from the key
 * header, a message without it skipped and counted; deletion by the configured delete encoding),
 * then each change becomes an INSERT row (key and value columns) or a DELETE row (key columns
 * only).
 */
@Internal
final class IggyUpsertRowDataDeserializationSchema
        implements IggyRecordDeserializationSchema<RowData> {

    private static final long serialVersionUID = 1L;

    private final IggyRecordDeserializationSchema<IggyMapChange<byte[], RowData>> keyedMap;
    private final DeserializationSchema<RowData> keyFormat;
    private final IggyRowAssembler assembler;
    private final TypeInformation<RowData> producedType;

    private transient ChangeCollector rows;

    IggyUpsertRowDataDeserializationSchema(
            DeserializationSchema<RowData> keyFormat,
            DeserializationSchema<RowData> valueFormat,
            String keyHeader,
            IggyDeletionMessage deletion,
            IggyRowAssembler assembler,
            TypeInformation<RowData> producedType) {
        KeyHeader key = new KeyHeader(keyHeader);
        this.keyedMap =
                deletion.isEncoded()
                        ? IggyRecordDeserializationSchema.keyedMap(key, deletion, valueFormat)
                        : IggyRecordDeserializationSchema.keyedMap(key, valueFormat);
        this.keyFormat = keyFormat;
        this.assembler = assembler;
        this.producedType = producedType;
    }

    @Override
    public void open(Context context) throws Exception {
        keyFormat.open(context);
        keyedMap.open(context);
    }

    @Override
    public void deserialize(IggyMessage message, Collector<RowData> out) throws IOException {
        if (rows == null) {
            rows = new ChangeCollector();
        }
        rows.message = message;
        rows.out = out;
        keyedMap.deserialize(message, rows);
    }

    /** Turns each keyed-map change into a row; reused for every message. */
    private final class ChangeCollector implements Collector<IggyMapChange<byte[], RowData>> {
        private IggyMessage message;
        private Collector<RowData> out;

        @Override
        public void collect(IggyMapChange<byte[], RowData> change) {
            RowData key;
            try {
                key = keyFormat.deserialize(change.key());
            } catch (IOException e) {
                throw new IllegalStateException(
                        "Cannot decode the key header of the message at offset "
                                + message.offset()
                                + " of partition "
                                + message.partition(),
                        e);
            }
            out.collect(
                    change.isDelete()
                            ? assembler.assemble(key, null, RowKind.DELETE, message)
                            : assembler.assemble(key, change.value(), RowKind.INSERT, message));
        }

        @Override
        public void close() {}
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return producedType;
    }

    /** The key header's bytes; {@code null} (skip the message) when it is missing. */
    private static final class KeyHeader implements KeySelector<IggyMessage, byte[]> {
        private static final long serialVersionUID = 1L;
        private final String header;

        private KeyHeader(String header) {
            this.header = header;
        }

        @Override
        public byte[] getKey(IggyMessage message) {
            return message.header(header).map(IggyHeaderValue::bytes).orElse(null);
        }
    }
}

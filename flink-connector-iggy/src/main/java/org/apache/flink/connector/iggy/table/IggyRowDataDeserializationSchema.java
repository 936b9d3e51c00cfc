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
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.Optional;

/**
 * The append ({@code iggy}) source's decoding: the value format decodes the payload (0..n rows),
 * the key format the key header if there is one, and metadata comes from the message.
 */
@Internal
final class IggyRowDataDeserializationSchema implements IggyRecordDeserializationSchema<RowData> {

    private static final long serialVersionUID = 1L;

    @Nullable private final DeserializationSchema<RowData> keyFormat;
    private final DeserializationSchema<RowData> valueFormat;
    private final String keyHeader;
    private final IggyRowAssembler assembler;
    private final TypeInformation<RowData> producedType;

    private transient RowCollector rows;

    IggyRowDataDeserializationSchema(
            @Nullable DeserializationSchema<RowData> keyFormat,
            DeserializationSchema<RowData> valueFormat,
            String keyHeader,
            IggyRowAssembler assembler,
            TypeInformation<RowData> producedType) {
        this.keyFormat = keyFormat;
        this.valueFormat = valueFormat;
        this.keyHeader = keyHeader;
        this.assembler = assembler;
        this.producedType = producedType;
    }

    @Override
    public void open(Context context) throws Exception {
        if (keyFormat != null) {
            keyFormat.open(context);
        }
        valueFormat.open(context);
    }

    @Override
    public void deserialize(IggyMessage message, Collector<RowData> out) throws IOException {
        RowData key = null;
        if (keyFormat != null) {
            Optional<IggyHeaderValue> keyBytes = message.header(keyHeader);
            if (keyBytes.isPresent()) {
                key = keyFormat.deserialize(keyBytes.get().bytes());
            }
        }
        if (rows == null) {
            rows = new RowCollector();
        }
        rows.key = key;
        rows.message = message;
        rows.out = out;
        valueFormat.deserialize(message.payload(), rows);
    }

    /** Completes each value row with key and metadata; reused for every message. */
    private final class RowCollector implements Collector<RowData> {
        @Nullable private RowData key;
        private IggyMessage message;
        private Collector<RowData> out;

        @Override
        public void collect(RowData value) {
            out.collect(assembler.assemble(key, value, value.getRowKind(), message));
        }

        @Override
        public void close() {}
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return producedType;
    }
}

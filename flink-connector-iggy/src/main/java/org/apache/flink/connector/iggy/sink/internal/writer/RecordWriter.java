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
package org.apache.flink.connector.iggy.sink.internal.writer;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.iggy.sink.IggyRecordSerializationSchema;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.IggySinkRecord;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.IggyBatchSender;
import org.apache.flink.connector.iggy.sink.internal.send.WireFormat;

import java.io.IOException;
import java.util.function.Supplier;

/** The writer of {@link IggySink}: one message per record, as its serialization schema says. */
@Internal
public final class RecordWriter<T> extends IggySinkWriter<T> {

    private final IggyRecordSerializationSchema<T> schema;
    private final WriterSinkContext sinkContext;

    public RecordWriter(
            IggyWriterConfig config,
            IggyRecordSerializationSchema<T> schema,
            Supplier<IggyBatchSender> openSender,
            SinkDelivery.Factory delivery,
            WriterInitContext context)
            throws IOException {
        super(config, openSender, delivery, context);
        this.schema = schema;
        this.sinkContext = new WriterSinkContext(context.getTaskInfo(), config, partitionCounts());
        try {
            schema.open(context.asSerializationSchemaInitializationContext(), sinkContext);
        } catch (Exception e) {
            throw new IOException("Cannot open the Iggy serialization schema", e);
        }
    }

    @Override
    public void write(T element, Context context) throws IOException, InterruptedException {
        sinkContext.nextRecord(context.timestamp());
        IggySinkRecord record = schema.serialize(element, sinkContext);
        if (record != null) {
            add(
                    config.topicOf(record.target()).partition(record.partition()),
                    WireFormat.message(record));
        }
    }
}

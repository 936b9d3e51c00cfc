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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.iggy.common.IggyLineage;
import org.apache.flink.connector.iggy.common.shim.FlinkSink;
import org.apache.flink.connector.iggy.sink.internal.batching.AtLeastOnceDelivery;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.IggyClientBatchSender;
import org.apache.flink.connector.iggy.sink.internal.writer.RecordWriter;
import org.apache.flink.connector.iggy.sink.internal.writer.SinkDelivery;
import org.apache.flink.streaming.api.lineage.LineageVertex;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;

import java.io.IOException;

/**
 * A Flink sink that writes each record as one Iggy message, batched per partition and sent
 * asynchronously: {@link #builder()} for records, {@link #keyedMap()} for a keyed map. At least
 * once by default: a checkpoint waits for the server's acknowledgements. A writer connects on its
 * first record.
 *
 * @param <IN> the record type
 */
@PublicEvolving
public sealed class IggySink<IN> implements FlinkSink<IN>, LineageVertexProvider
        permits ExactlyOnceIggySink {

    private static final long serialVersionUID = 1L;

    private final IggyWriterConfig config;
    private final IggyRecordSerializationSchema<IN> recordSerializer;

    IggySink(IggyWriterConfig config, IggyRecordSerializationSchema<IN> recordSerializer) {
        this.config = config;
        this.recordSerializer = recordSerializer;
    }

    /** A sink for a stream of records. */
    public static <IN> IggySinkBuilder<IN> builder() {
        return new IggySinkBuilder<>();
    }

    /** A sink for a keyed map, which sends a key's value only when it changed. */
    public static <K, V> IggyKeyedMapSinkBuilder<K, V> keyedMap() {
        return new IggyKeyedMapSinkBuilder<>();
    }

    @Override
    public SinkWriter<IN> createWriter(WriterInitContext context) throws IOException {
        return new RecordWriter<>(
                config,
                recordSerializer,
                IggyClientBatchSender.opener(config, context),
                delivery(),
                context);
    }

    /** How its writers deliver: sent in batches, acknowledged at each checkpoint. */
    SinkDelivery.Factory delivery() {
        return AtLeastOnceDelivery::new;
    }

    /** The topic it writes, for Flink's lineage (see {@link IggyLineage}). */
    @Override
    public LineageVertex getLineageVertex() {
        return config.lineageVertex();
    }

    @VisibleForTesting
    public IggyWriterConfig writerConfig() {
        return config;
    }

    @VisibleForTesting
    public IggyRecordSerializationSchema<IN> recordSerializer() {
        return recordSerializer;
    }

    /** Where and how it writes; never shows credentials. */
    @Override
    public String toString() {
        return "IggySink{" + config + "}";
    }
}

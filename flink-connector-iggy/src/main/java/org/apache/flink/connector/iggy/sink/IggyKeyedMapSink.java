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
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.iggy.common.IggyLineage;
import org.apache.flink.connector.iggy.common.shim.FlinkSink;
import org.apache.flink.connector.iggy.sink.internal.batching.AtLeastOnceDelivery;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.IggyClientBatchSender;
import org.apache.flink.connector.iggy.sink.internal.writer.KeyedMessageWriter;
import org.apache.flink.connector.iggy.sink.internal.writer.SinkDelivery;
import org.apache.flink.connector.iggy.sink.reconcile.ChangeEncoder;
import org.apache.flink.connector.iggy.sink.reconcile.ChangeEncodingFunction;
import org.apache.flink.connector.iggy.sink.reconcile.IggyReconcileFunction;
import org.apache.flink.connector.iggy.sink.reconcile.KeyedMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.lineage.LineageVertex;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;

import javax.annotation.Nullable;

import java.io.IOException;
import java.time.Duration;

/**
 * A Flink sink that writes a keyed map to Iggy, sending a key's value only when it differs from the
 * last one sent ({@code IggySink.keyedMap()}; the SQL {@code upsert-iggy} sink for rows). Before
 * its writer it inserts {@link ChangeEncodingFunction}, {@code keyBy(key bytes)} and {@link
 * IggyReconcileFunction}, which keeps a fingerprint per key in keyed state.
 *
 * @param <IN> the change type
 */
@PublicEvolving
public sealed class IggyKeyedMapSink<IN>
        implements FlinkSink<IN>, SupportsPreWriteTopology<IN>, LineageVertexProvider
        permits ExactlyOnceKeyedMapSink {

    private static final long serialVersionUID = 1L;

    private final IggyWriterConfig config;
    private final ChangeEncoder<IN> encoder;
    private final String tombstoneError;
    private final boolean partitionByKey;
    private final long partition;
    @Nullable private final String keyHeader;
    @Nullable private final byte[] sinkId;
    @Nullable private final Duration stateTtl;
    @Nullable private final String reconcileUid;

    IggyKeyedMapSink(
            IggyWriterConfig config,
            ChangeEncoder<IN> encoder,
            String tombstoneError,
            boolean partitionByKey,
            long partition,
            @Nullable String keyHeader,
            @Nullable byte[] sinkId,
            @Nullable Duration stateTtl,
            @Nullable String reconcileUid) {
        this.config = config;
        this.encoder = encoder;
        this.tombstoneError = tombstoneError;
        this.partitionByKey = partitionByKey;
        this.partition = partition;
        this.keyHeader = keyHeader;
        this.sinkId = sinkId;
        this.stateTtl = stateTtl;
        this.reconcileUid = reconcileUid;
    }

    /** The same sink as {@code other}, for a subclass that adds to it. */
    IggyKeyedMapSink(IggyKeyedMapSink<IN> other) {
        this(
                other.config,
                other.encoder,
                other.tombstoneError,
                other.partitionByKey,
                other.partition,
                other.keyHeader,
                other.sinkId,
                other.stateTtl,
                other.reconcileUid);
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

    IggyWriterConfig writerConfig() {
        return config;
    }

    @Override
    public DataStream<IN> addPreWriteTopology(DataStream<IN> input) {
        SingleOutputStreamOperator<KeyedMessage> reconciled =
                input.flatMap(
                                new ChangeEncodingFunction<>(encoder, config.stream()),
                                KeyedMessage.typeInfo())
                        .name("Iggy Encode Changes")
                        .keyBy(KeyedMessage::stateKey, Types.STRING)
                        .process(
                                new IggyReconcileFunction(tombstoneError, sinkId, stateTtl),
                                KeyedMessage.typeInfo())
                        .name("Iggy Reconcile");
        if (reconcileUid != null) {
            reconciled.uid(reconcileUid);
        }
        // Flink's pre-write contract keeps the element type; the writer reads KeyedMessages.
        @SuppressWarnings("unchecked")
        DataStream<IN> writerInput = (DataStream<IN>) (DataStream<?>) reconciled;
        return writerInput;
    }

    @Override
    public SinkWriter<IN> createWriter(WriterInitContext context) throws IOException {
        return new KeyedMessageWriter<>(
                config,
                partitionByKey,
                partition,
                keyHeader,
                IggyClientBatchSender.opener(config, context),
                delivery(),
                context);
    }

    /** Where and how it writes; never shows credentials. */
    @Override
    public String toString() {
        return "IggyKeyedMapSink{%s, partition=%s, keyHeader=%s, idempotentWrites=%s, stateTtl=%s}"
                .formatted(
                        config,
                        partitionByKey ? "by key" : partition,
                        keyHeader,
                        sinkId != null,
                        stateTtl);
    }
}

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
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.iggy.sink.reconcile.ChangeEncodingFunction;
import org.apache.flink.connector.iggy.sink.reconcile.EncodedChange;
import org.apache.flink.connector.iggy.sink.reconcile.IggyReconcileFunction;
import org.apache.flink.connector.iggy.sink.reconcile.ReconciledMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

import javax.annotation.Nullable;

import java.io.IOException;
import java.time.Duration;

/**
 * A sink that maintains a keyed map in an Iggy topic: it sends a key's value only when it differs
 * from the last value sent for that key, and a configured payload when a sent key is deleted.
 *
 * <p>Before its writer the sink inserts an encoding step ({@link ChangeEncodingFunction}), {@code
 * keyBy(key bytes)} and an {@link IggyReconcileFunction}, which keeps a fingerprint of the last
 * value sent per key in Flink keyed state. To restore that state after the job graph changed, give
 * it a uid ({@code setReconcileUid}) and the sink a uid.
 *
 * <p>Built with {@link IggySink#keyedMap()} for {@link
 * org.apache.flink.connector.iggy.common.IggyMapChange} input, or with {@link #builder} for any
 * change type given an {@link IggyMapChangeEncoder} (the table sink does that for rows).
 *
 * @param <IN> the change type
 */
@PublicEvolving
public class IggyKeyedMapSink<IN> implements Sink<IN>, SupportsPreWriteTopology<IN> {

    private static final long serialVersionUID = 1L;

    private final IggyWriterConfig config;
    private final IggyMapChangeEncoder<IN> encoder;
    private final IggyPartitioner<ReconciledMessage> partitioner;
    @Nullable private final String keyHeader;
    @Nullable private final byte[] sinkId;
    @Nullable private final Duration stateTtl;
    @Nullable private final String reconcileUid;

    IggyKeyedMapSink(
            IggyWriterConfig config,
            IggyMapChangeEncoder<IN> encoder,
            IggyPartitioner<ReconciledMessage> partitioner,
            @Nullable String keyHeader,
            @Nullable byte[] sinkId,
            @Nullable Duration stateTtl,
            @Nullable String reconcileUid) {
        this.config = config;
        this.encoder = encoder;
        this.partitioner = partitioner;
        this.keyHeader = keyHeader;
        this.sinkId = sinkId;
        this.stateTtl = stateTtl;
        this.reconcileUid = reconcileUid;
    }

    /** A keyed-map sink for any change type that {@code encoder} can read. */
    public static <IN> IggyKeyedMapSinkBuilder<IN> builder(IggyMapChangeEncoder<IN> encoder) {
        return new IggyKeyedMapSinkBuilder<>(encoder);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public DataStream<IN> addPreWriteTopology(DataStream<IN> input) {
        SingleOutputStreamOperator<ReconciledMessage> reconciled =
                input.flatMap(new ChangeEncodingFunction<>(encoder), EncodedChange.typeInfo())
                        .name("Iggy Encode Changes")
                        .keyBy(change -> change.key, Types.STRING)
                        .process(
                                new IggyReconcileFunction(
                                        encoder.deletionValueOption(), sinkId, stateTtl),
                                ReconciledMessage.typeInfo())
                        .name("Iggy Reconcile");
        if (reconcileUid != null) {
            reconciled.uid(reconcileUid);
        }
        // The writer receives reconciled messages, not IN: see createWriter.
        return (DataStream) reconciled;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public SinkWriter<IN> createWriter(WriterInitContext context) throws IOException {
        IggyClientBatchSender sender = IggyClientBatchSender.open(config);
        try {
            return (SinkWriter)
                    new IggySinkWriter<>(
                            config,
                            new ReconciledMessageSchema(partitioner, keyHeader),
                            sender,
                            context);
        } catch (IOException | RuntimeException e) {
            sender.close();
            throw e;
        }
    }
}

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
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.Optional;

/**
 * Adds a table's sink with its uid ({@code 'sink.uid'}, or derived from the table's identifier):
 * Flink's table planner sets no uid on a sink it adds itself (unless it compiled the plan), so the
 * sink's state would be matched by ids derived from the plan and lost when the plan changes. From
 * the sink's uid Flink derives the committer's ({@code Sink Committer: <uid>}) and that of every
 * operator the sink adds before its writer ({@code <uid>: <operator uid>}, here {@value
 * #RECONCILE_UID}).
 */
@Internal
final class UidSinkProvider implements DataStreamSinkProvider {

    /** The uid the keyed-map sink's reconcile step gets under the sink's uid. */
    static final String RECONCILE_UID = "Iggy Reconcile";

    private final Sink<RowData> sink;
    @Nullable private final Integer parallelism;
    private final String uid;

    UidSinkProvider(Sink<RowData> sink, @Nullable Integer parallelism, String uid) {
        this.sink = sink;
        this.parallelism = parallelism;
        this.uid = uid;
    }

    @Override
    public DataStreamSink<?> consumeDataStream(
            ProviderContext providerContext, DataStream<RowData> input) {
        DataStreamSink<RowData> added = input.sinkTo(sink).uid(uid).name("Iggy Sink " + uid);
        added.setParallelism(parallelism != null ? parallelism : input.getParallelism());
        return added;
    }

    @VisibleForTesting
    Sink<RowData> sink() {
        return sink;
    }

    @Override
    public Optional<Integer> getParallelism() {
        return Optional.ofNullable(parallelism);
    }
}

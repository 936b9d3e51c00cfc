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

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.connector.iggy.sink.internal.committer.CommitterHandoff;
import org.apache.flink.connector.iggy.sink.internal.committer.IggyCommitter;
import org.apache.flink.connector.iggy.sink.internal.exactlyonce.ExactlyOnceJobCheck;
import org.apache.flink.connector.iggy.sink.internal.exactlyonce.WriteAheadDelivery;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writer.SinkDelivery;
import org.apache.flink.streaming.api.datastream.DataStream;

import static org.apache.flink.util.Preconditions.checkArgument;

/**
 * {@link IggyKeyedMapSink} with {@code EXACTLY_ONCE}, as {@link ExactlyOnceIggySink}. The reconcile
 * step's fingerprints and the writer's committables belong to the same checkpoint, so a restored
 * fingerprint's message is in the partition or in a committable committed on restore.
 */
@Internal
public final class ExactlyOnceKeyedMapSink<IN> extends IggyKeyedMapSink<IN>
        implements CommitterHandoff {

    private static final long serialVersionUID = 1L;

    private final IggyCommitter.BetweenSends betweenSends;

    ExactlyOnceKeyedMapSink(IggyKeyedMapSink<IN> sink) {
        this(sink, IggyCommitter.NOTHING);
    }

    private ExactlyOnceKeyedMapSink(
            IggyKeyedMapSink<IN> sink, IggyCommitter.BetweenSends betweenSends) {
        super(sink);
        this.betweenSends = betweenSends;
    }

    /** For tests: {@code sink}, whose committers run {@code hook} between two sends. */
    @VisibleForTesting
    public static <IN> ExactlyOnceKeyedMapSink<IN> withBetweenSends(
            IggyKeyedMapSink<IN> sink, IggyCommitter.BetweenSends hook) {
        checkArgument(
                sink instanceof ExactlyOnceKeyedMapSink, "Not an exactly-once Iggy sink: %s", sink);
        return new ExactlyOnceKeyedMapSink<>(sink, hook);
    }

    /** Refuses a job without a write-ahead directory or in BATCH mode. */
    @Override
    public DataStream<IN> addPreWriteTopology(DataStream<IN> input) {
        ExactlyOnceJobCheck.check(input, writerConfig());
        return super.addPreWriteTopology(input);
    }

    @Override
    SinkDelivery.Factory delivery() {
        return WriteAheadDelivery::new;
    }

    @Override
    public Committer<IggyCommittable> createCommitter(CommitterInitContext context) {
        return new IggyCommitter(writerConfig(), context, betweenSends);
    }
}

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
package org.apache.flink.connector.iggy.sink.internal.committer;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittableSerializer;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;

import javax.annotation.Nullable;

/**
 * The committing side of both exactly-once sinks: the committables' serializer, and a pre-commit
 * topology that is a pass-through starting a new chain, so that the committer, chained to it, runs
 * in a task of its own instead of on the writer's task thread. Committing a checkpoint's messages
 * then overlaps writing the next checkpoint's.
 *
 * <p>Flink names the writer after the sink's uid and the committer {@code "Sink Committer: <uid>"}.
 * The pass-through holds no state; it gets the uid {@code "<uid>: }{@value #NAME}{@code "} when the
 * sink has a uid (Flink refuses a uid inside a sink without one).
 */
@Internal
public interface CommitterHandoff
        extends SupportsCommitter<IggyCommittable>,
                SupportsPreCommitTopology<IggyCommittable, IggyCommittable> {

    String NAME = "Iggy Commit Handoff";

    @Override
    default SimpleVersionedSerializer<IggyCommittable> getCommittableSerializer() {
        return new IggyCommittableSerializer();
    }

    @Override
    default SimpleVersionedSerializer<IggyCommittable> getWriteResultSerializer() {
        return getCommittableSerializer();
    }

    @Override
    default DataStream<CommittableMessage<IggyCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<IggyCommittable>> committables) {
        SingleOutputStreamOperator<CommittableMessage<IggyCommittable>> handedOff =
                committables
                        .map(new PassThrough())
                        .returns(committables.getType())
                        .name(NAME)
                        .startNewChain();
        if (writerUid(committables) != null) {
            handedOff.uid(NAME);
        }
        return handedOff;
    }

    /** The writer's uid, which Flink sets to the sink's, or null. */
    @Nullable
    private static String writerUid(DataStream<?> writerOutput) {
        Transformation<?> t = writerOutput.getTransformation();
        while (t instanceof PartitionTransformation && !t.getInputs().isEmpty()) {
            t = t.getInputs().get(0);
        }
        return t.getUid();
    }

    /** Hands each committable message on unchanged. */
    final class PassThrough
            implements MapFunction<
                    CommittableMessage<IggyCommittable>, CommittableMessage<IggyCommittable>> {
        private static final long serialVersionUID = 1L;

        @Override
        public CommittableMessage<IggyCommittable> map(CommittableMessage<IggyCommittable> m) {
            return m;
        }
    }
}

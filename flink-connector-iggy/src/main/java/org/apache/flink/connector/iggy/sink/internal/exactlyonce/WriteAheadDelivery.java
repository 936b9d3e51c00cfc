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
package org.apache.flink.connector.iggy.sink.internal.exactlyonce;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.IggyBatchSender;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriteAheadDirectory;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriterIdentity;
import org.apache.flink.connector.iggy.sink.internal.writer.SinkDelivery;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.runtime.metrics.scope.ScopeFormat;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

/**
 * Delivery for {@link DeliveryGuarantee#EXACTLY_ONCE}: nothing is sent from here. Messages go to a
 * {@link WriteAheadBuffer} (write-ahead files), and {@link #prepareCommit} hands them to the
 * checkpoint as {@link IggyCommittable}s, which {@code IggyCommitter} sends once the checkpoint
 * completed; each with its partition's end offset as {@link EndOffsets} last learned it, off the
 * task thread. {@link #flush} has nothing to do: nothing remote happens at the barrier.
 *
 * <p>{@code numRecordsSend} and {@code numBytesSend} count a message when it is taken, as Flink's
 * Kafka sink counts the records of open transactions. The gauge {@code exactlyOnceBufferedBytes}
 * shows the bytes written to the write-ahead files since the last checkpoint.
 *
 * <p>A writer more than about a checkpoint ahead of its committer waits for it ({@link
 * CommitBacklog}): the counter {@code exactlyOnceCommitWaitMs} adds up those waits.
 *
 * <p>Threads: every field is owned by the task thread (the gauges only read).
 */
@Internal
public final class WriteAheadDelivery implements SinkDelivery {

    private final WriteAheadBuffer buffer;
    private final CommitBacklog backlog;
    private final Counter numRecordsSend;
    private final Counter numBytesSend;

    public WriteAheadDelivery(
            IggyWriterConfig config, Supplier<IggyBatchSender> sender, WriterInitContext context) {
        this.buffer =
                new WriteAheadBuffer(
                        config,
                        new WriteAheadDirectory(config.writeAhead().directory()),
                        writerIdentity(context),
                        new EndOffsets(sender, config.connection()));
        SinkWriterMetricGroup metrics = context.metricGroup();
        this.numRecordsSend = metrics.getNumRecordsSendCounter();
        this.numBytesSend = metrics.getNumBytesSendCounter();
        metrics.gauge("exactlyOnceBufferedBytes", buffer::bufferedBytes);
        this.backlog =
                new CommitBacklog(
                        context.getMailboxExecutor(),
                        metrics.counter("exactlyOnceCommitWaitMs"),
                        CommitBacklog.GIVE_UP,
                        System::nanoTime,
                        CommitBacklog::isDeleted);
    }

    /** The job, the operator (from the metric scope), a new random id and where it started. */
    private static WriterIdentity writerIdentity(WriterInitContext context) {
        String operatorId =
                context.metricGroup()
                        .getAllVariables()
                        .getOrDefault(ScopeFormat.SCOPE_OPERATOR_ID, "operator");
        return new WriterIdentity(
                context.getJobInfo().getJobId().toHexString(),
                operatorId,
                new SecureRandom().nextLong(),
                context.getTaskInfo().getIndexOfThisSubtask(),
                context.getTaskInfo().getNumberOfParallelSubtasks(),
                context.getRestoredCheckpointId().orElse(0));
    }

    @Override
    public void add(IggyTopicPartition target, OutgoingMessage message) throws IOException {
        backlog.beforeMessage(buffer.bufferedBytes());
        numBytesSend.inc(buffer.add(target, message));
        numRecordsSend.inc();
    }

    @Override
    public void flush(boolean endOfInput) {}

    @Override
    public Collection<IggyCommittable> prepareCommit() throws IOException {
        long bytes = buffer.bufferedBytes();
        List<IggyCommittable> committables = buffer.drain();
        backlog.taken(committables, bytes);
        return committables;
    }

    @Override
    public void close() {
        buffer.close();
    }
}

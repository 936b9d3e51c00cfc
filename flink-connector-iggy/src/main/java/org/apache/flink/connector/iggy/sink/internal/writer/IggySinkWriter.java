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
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.IggyBatchSender;
import org.apache.flink.connector.iggy.sink.internal.send.WireFormat;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.Collection;
import java.util.function.Supplier;

/**
 * The writer of both sinks: subclasses turn their input into messages and hand each to {@link
 * #add}, which checks it and passes it to the {@link SinkDelivery} the sink chose (at-least-once
 * sends, or the exactly-once write-ahead).
 *
 * <p>The writer connects on its first record, not when it is made: the task is running before any
 * connection is attempted, and a bad address or password fails the job like any other error. It
 * describes a topic when a record first goes to it, so a topic that does not exist fails the job
 * naming it.
 *
 * <p>Threads: every field is owned by the task thread.
 */
@Internal
public abstract class IggySinkWriter<T> implements CommittingSinkWriter<T, IggyCommittable> {

    final IggyWriterConfig config;
    private final Supplier<IggyBatchSender> openSender;
    @Nullable private IggyBatchSender sender;
    private final TopicPartitionCounts partitionCounts;

    /** The topic of the last message, known to exist: most writers write to one topic. */
    @Nullable private IggyTopicPartition lastTarget;

    private final SinkDelivery delivery;

    /**
     * @param openSender connects and logs in; called on the first record, so that the task is
     *     running before any connection is attempted
     * @param delivery how messages reach the server, chosen by the sink
     */
    IggySinkWriter(
            IggyWriterConfig config,
            Supplier<IggyBatchSender> openSender,
            SinkDelivery.Factory delivery,
            WriterInitContext context) {
        this.config = config;
        this.openSender = openSender;
        this.partitionCounts =
                new TopicPartitionCounts(
                        this::sender, context.getMailboxExecutor(), System::nanoTime);
        this.delivery = delivery.create(config, this::sender, context);
    }

    /**
     * The partition counts of the topics this writer writes: connects first if this is the first
     * use, and describes a topic when a record first goes to it.
     */
    final TopicPartitionCounts partitionCounts() {
        return partitionCounts;
    }

    private IggyBatchSender sender() {
        if (sender == null) {
            sender = openSender.get();
        }
        return sender;
    }

    /**
     * Hands a message to the delivery, failing first if the server would refuse it or its topic
     * does not exist.
     */
    final void add(IggyTopicPartition target, OutgoingMessage message)
            throws IOException, InterruptedException {
        WireFormat.checkSize(message, target, config);
        if (lastTarget == null
                || !lastTarget.topic().equals(target.topic())
                || !lastTarget.stream().equals(target.stream())) {
            // describes a topic on its first message: one that does not exist fails here, named
            partitionCounts.of(IggySinkTarget.of(target));
            lastTarget = target;
        }
        delivery.add(target, message);
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
        delivery.flush(endOfInput);
    }

    @Override
    public Collection<IggyCommittable> prepareCommit() throws IOException {
        return delivery.prepareCommit();
    }

    @Override
    public void close() throws Exception {
        delivery.close();
        if (sender != null) {
            sender.close();
        }
    }
}

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
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.IggyBatchSender;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;

import java.io.IOException;
import java.util.Collection;
import java.util.function.Supplier;

/**
 * How a writer's messages reach the server: {@code AtLeastOnceDelivery} sends them in batches as
 * they come and waits for the acknowledgements at each checkpoint; {@code WriteAheadDelivery} holds
 * each checkpoint's messages and hands them to the committer. The sink chooses one when it makes
 * its writer ({@link Factory}); the writer turns records into messages and hands each to it.
 *
 * <p>Every method is called on the task thread.
 */
@Internal
public interface SinkDelivery extends AutoCloseable {

    /** Makes a writer's delivery; nothing slow or fallible happens here (the task is starting). */
    @FunctionalInterface
    interface Factory {
        /**
         * @param sender the writer's sender, which connects on its first use
         */
        SinkDelivery create(
                IggyWriterConfig config,
                Supplier<IggyBatchSender> sender,
                WriterInitContext context);
    }

    /**
     * Takes a message for {@code target}, whose size the writer checked and whose topic exists; a
     * message with a {@link OutgoingMessage#wireId} has a client-chosen id (idempotent writes).
     */
    void add(IggyTopicPartition target, OutgoingMessage message)
            throws IOException, InterruptedException;

    /** Before a checkpoint barrier, or at the end of the input: see {@code SinkWriter#flush}. */
    void flush(boolean endOfInput) throws IOException, InterruptedException;

    /** What the committer sends for the checkpoint being taken; nothing if there is none. */
    Collection<IggyCommittable> prepareCommit() throws IOException;

    /** Stops sending and drops what no checkpoint took; the writer closes the sender after it. */
    @Override
    void close();
}

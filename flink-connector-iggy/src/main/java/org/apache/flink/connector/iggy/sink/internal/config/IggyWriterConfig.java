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
package org.apache.flink.connector.iggy.sink.internal.config;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyLineage;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.LineageVertex;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Where and how a writer sends: validated once by the sink builders, immutable.
 *
 * @param defaultTopic where a record goes that names no topic of its own
 * @param writeAhead with exactly-once: where the writer keeps each checkpoint's messages
 * @param fsyncBeforeDelete with exactly-once: whether the committer has each committed partition
 *     flushed to disk with fsync before it deletes the write-ahead files of its messages
 */
@Internal
public record IggyWriterConfig(
        IggyConnectionConfig connection,
        IggyId stream,
        DefaultTopic defaultTopic,
        DeliveryGuarantee deliveryGuarantee,
        int batchSize,
        long maxBatchBytes,
        Duration linger,
        int maxInFlightRequests,
        WriteAheadPlacement writeAhead,
        boolean fsyncBeforeDelete)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    /** No cap on the messages of a send request: its bytes decide where it ends. */
    public static final int DEFAULT_BATCH_SIZE = Integer.MAX_VALUE;

    /** Where a send request ends by default (as {@code OpenBatch} counts bytes): 1 MiB. */
    public static final long DEFAULT_MAX_BATCH_BYTES = 1024L * 1024;

    public static final Duration DEFAULT_LINGER = Duration.ofMillis(5);

    /**
     * Enough batches under way that the sending thread encodes the next ones while the server
     * answers, at a bound of {@link #DEFAULT_MAX_BATCH_BYTES} each: at most 10 MiB per writer.
     */
    public static final int DEFAULT_MAX_IN_FLIGHT_REQUESTS = 10;

    /** Committed messages are made durable before their write-ahead files are deleted. */
    public static final boolean DEFAULT_FSYNC_BEFORE_DELETE = true;

    /**
     * The sink's own topic for Flink's lineage (see {@link IggyLineage}); none when every record
     * names its topic, which only the running job knows.
     */
    public LineageVertex lineageVertex() {
        List<LineageDataset> datasets = new ArrayList<>();
        for (IggySinkTarget topic : defaultTopic.topics()) {
            datasets.addAll(
                    IggyLineage.sinkVertex(connection, topic.stream(), topic.topic()).datasets());
        }
        return () -> datasets;
    }

    /** The topic of a record that names {@code named} ({@code null}: none). */
    public IggySinkTarget topicOf(@Nullable IggySinkTarget named) {
        return defaultTopic.resolve(named, connection);
    }

    /**
     * "topic T of stream S at ADDRESS" (or "stream S (topics chosen per record) at ADDRESS"), for
     * messages.
     */
    public String target() {
        return defaultTopic.describe() + " at " + connection.address();
    }

    @Override
    public String toString() {
        return "IggyWriterConfig{"
                + target()
                + ", connection="
                + connection
                + ", deliveryGuarantee="
                + deliveryGuarantee
                + ", batchSize="
                + (batchSize == DEFAULT_BATCH_SIZE ? "by bytes" : String.valueOf(batchSize))
                + ", maxBatchBytes="
                + maxBatchBytes
                + ", linger="
                + linger
                + ", maxInFlightRequests="
                + maxInFlightRequests
                + (deliveryGuarantee == DeliveryGuarantee.EXACTLY_ONCE
                        ? ", writeAhead=" + writeAhead + ", fsyncBeforeDelete=" + fsyncBeforeDelete
                        : "")
                + '}';
    }
}

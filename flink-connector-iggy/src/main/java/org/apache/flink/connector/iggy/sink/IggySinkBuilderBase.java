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
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.sink.internal.config.DefaultTopic;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.config.WriteAheadPlacement;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.List;

/**
 * The options of both sink builders ({@link IggySinkBuilder}, {@link IggyKeyedMapSinkBuilder}):
 * connection, topic, delivery guarantee, batching, partition choice and key header.
 *
 * @param <SELF> the concrete builder, so that setters chain
 */
@PublicEvolving
public abstract class IggySinkBuilderBase<SELF extends IggySinkBuilderBase<SELF>> {

    @Nullable private IggyConnectionConfig connection;
    @Nullable private IggyId stream;
    @Nullable private IggyId topic;
    @Nullable private DeliveryGuarantee deliveryGuarantee = DeliveryGuarantee.AT_LEAST_ONCE;
    private int batchSize = IggyWriterConfig.DEFAULT_BATCH_SIZE;
    private long maxBatchBytes = IggyWriterConfig.DEFAULT_MAX_BATCH_BYTES;
    @Nullable private Duration linger = IggyWriterConfig.DEFAULT_LINGER;
    private int maxInFlightRequests = IggyWriterConfig.DEFAULT_MAX_IN_FLIGHT_REQUESTS;
    @Nullable private String exactlyOnceWriteAheadDir;
    private boolean exactlyOnceFsyncBeforeDelete = IggyWriterConfig.DEFAULT_FSYNC_BEFORE_DELETE;

    long partition;
    boolean partitionByKey;

    boolean partitionChosen;

    @Nullable String keyHeader;

    IggySinkBuilderBase() {}

    @SuppressWarnings("unchecked")
    final SELF self() {
        return (SELF) this;
    }

    /** Required: the server's address and credentials. */
    public SELF setConnection(IggyConnectionConfig connection) {
        this.connection = connection;
        return self();
    }

    /** {@link #setStream(IggyId)} by name. */
    public SELF setStream(String stream) {
        return setStream(IggyId.of(stream));
    }

    /** Required: the stream to write to. It must exist: the sink never creates it. */
    public SELF setStream(IggyId stream) {
        this.stream = stream;
        return self();
    }

    /** {@link #setTopic(IggyId)} by name. */
    public SELF setTopic(String topic) {
        return setTopic(IggyId.of(topic));
    }

    /**
     * The sink's topic, for every record not routed elsewhere; required unless the sink routes
     * every record. It must exist: the sink never creates it.
     */
    public SELF setTopic(IggyId topic) {
        this.topic = topic;
        return self();
    }

    /**
     * {@code AT_LEAST_ONCE} (default), {@code NONE} or {@code EXACTLY_ONCE}, which holds each
     * checkpoint's messages in write-ahead files ({@link #setExactlyOnceWriteAheadDir}) and sends
     * them when the checkpoint completes: output appears one checkpoint later.
     */
    public SELF setDeliveryGuarantee(DeliveryGuarantee deliveryGuarantee) {
        this.deliveryGuarantee = deliveryGuarantee;
        return self();
    }

    /**
     * Most messages in one send request (of one partition); default no cap: {@link
     * #setMaxBatchBytes} ends a request. All messages of a request get the same server timestamp.
     */
    public SELF setBatchSize(int batchSize) {
        this.batchSize = batchSize;
        return self();
    }

    /**
     * Most bytes in one send request (per message its 64-byte header, payload and user headers);
     * default 1 MiB.
     */
    public SELF setMaxBatchBytes(long maxBatchBytes) {
        this.maxBatchBytes = maxBatchBytes;
        return self();
    }

    /** How long a record may wait in a partly filled batch; default 5 ms, 0 sends at once. */
    public SELF setLinger(Duration linger) {
        this.linger = linger;
        return self();
    }

    /**
     * Most batches per writer unanswered or waiting to be sent; default 10. With {@link
     * #setMaxBatchBytes} it bounds a writer's memory.
     */
    public SELF setMaxInFlightRequests(int maxInFlightRequests) {
        this.maxInFlightRequests = maxInFlightRequests;
        return self();
    }

    /**
     * With {@code EXACTLY_ONCE}: the directory of the write-ahead files, which hold each
     * checkpoint's messages until committed: a URI of any Flink file system ({@code
     * s3://bucket/iggy-wal}) or an absolute path, durable and reachable from every TaskManager like
     * the checkpoint directory. Default ({@code null}): {@code iggy-sink-write-ahead} in the job's
     * checkpoint directory; a job without one is refused when it is built.
     */
    public SELF setExactlyOnceWriteAheadDir(@Nullable String directory) {
        this.exactlyOnceWriteAheadDir = directory;
        return self();
    }

    /**
     * With {@code EXACTLY_ONCE}: whether the committer has the server fsync each committed
     * partition before it deletes their write-ahead files; default true. Iggy acknowledges a send
     * before fsync, so without it a server crash can lose committed output; it costs one request
     * per partition and commit. Turn it off only if the server enforces fsync itself ({@code
     * system.partition.enforce_fsync}) or that loss is acceptable.
     */
    public SELF setExactlyOnceFsyncBeforeDelete(boolean fsync) {
        this.exactlyOnceFsyncBeforeDelete = fsync;
        return self();
    }

    /** Send every message to this partition (an id from 0); the default is partition 0. */
    public SELF setPartition(long partition) {
        this.partition = partition;
        this.partitionByKey = false;
        this.partitionChosen = true;
        partitionerChosen();
        return self();
    }

    /**
     * Send each record to the partition Iggy's messages-key partitioning chooses for its key bytes
     * ({@link IggyPartitioner#partitionForKey}), so equal keys share a partition.
     */
    public SELF setPartitionByKey() {
        this.partitionByKey = true;
        this.partitionChosen = true;
        partitionerChosen();
        return self();
    }

    /** Also write the key bytes into this user header (raw), since Iggy messages have no key. */
    public SELF setKeyHeader(String keyHeader) {
        this.keyHeader = keyHeader;
        return self();
    }

    /** Called when setPartition or setPartitionByKey replaces an earlier partitioner choice. */
    void partitionerChosen() {}

    /**
     * Adds a problem if the sink is exactly-once and {@code idOption} is set: an exactly-once sink
     * chooses every message id itself.
     */
    final boolean exactlyOnce(List<String> problems, boolean idOptionSet, String idOption) {
        boolean exactlyOnce = deliveryGuarantee == DeliveryGuarantee.EXACTLY_ONCE;
        if (exactlyOnce && idOptionSet) {
            problems.add(
                    "an exactly-once sink chooses every message id itself: drop "
                            + idOption
                            + " or use AT_LEAST_ONCE");
        }
        return exactlyOnce;
    }

    /**
     * Validates the shared options, adding one line per problem to {@code problems}.
     *
     * @param routes whether records may name their topic: then the sink's own topic is optional
     * @return the writer configuration, or {@code null} if a shared option is invalid
     */
    @Nullable
    final IggyWriterConfig writerConfig(List<String> problems, boolean routes) {
        int before = problems.size();
        if (connection == null) {
            problems.add("the connection is not set (setConnection, with the server's address)");
        }
        if (stream == null) {
            problems.add("the stream is not set (setStream)");
        }
        if (topic == null && !routes) {
            problems.add("the topic is not set (setTopic, or setTopicSelector)");
        }
        if (deliveryGuarantee == null) {
            problems.add("the delivery guarantee is null: use AT_LEAST_ONCE, EXACTLY_ONCE or NONE");
        }
        if (batchSize < 1) {
            problems.add("the batch size must be at least 1, but is " + batchSize);
        }
        if (maxBatchBytes < 1) {
            problems.add("the max batch bytes must be at least 1, but is " + maxBatchBytes);
        }
        if (linger == null || linger.isNegative()) {
            problems.add("the linger must be zero or positive, but is " + linger);
        }
        if (maxInFlightRequests < 1) {
            problems.add(
                    "the max in-flight requests must be at least 1, but is " + maxInFlightRequests);
        }
        if (exactlyOnceWriteAheadDir != null) {
            String why = WriteAheadPlacement.checkDirectory(exactlyOnceWriteAheadDir);
            if (why != null) {
                problems.add(
                        "the exactly-once write-ahead directory '"
                                + exactlyOnceWriteAheadDir
                                + "' "
                                + why);
            }
        }
        if (partition < 0 || partition > 0xFFFF_FFFFL) {
            problems.add(
                    "the partition must be an unsigned 32-bit Iggy partition id, but is "
                            + partition);
        }
        if (keyHeader != null) {
            try {
                IggyHeaders.of(keyHeader, "key");
            } catch (RuntimeException e) {
                problems.add("the key header '" + keyHeader + "' is invalid: " + e.getMessage());
            }
        }
        if (problems.size() > before) {
            return null;
        }
        return new IggyWriterConfig(
                connection,
                stream,
                topic != null
                        ? new DefaultTopic.Fixed(new IggySinkTarget(stream, topic))
                        : new DefaultTopic.None(stream),
                deliveryGuarantee,
                batchSize,
                maxBatchBytes,
                linger,
                maxInFlightRequests,
                new WriteAheadPlacement(exactlyOnceWriteAheadDir),
                exactlyOnceFsyncBeforeDelete);
    }

    static void failOnProblems(String what, List<String> problems) {
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(
                    "Invalid " + what + ": " + String.join("; ", problems) + ".");
        }
    }
}

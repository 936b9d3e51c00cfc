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
import org.apache.flink.connector.iggy.common.IggyId;

import javax.annotation.Nullable;

import java.time.Duration;

/**
 * The options every Iggy sink shares: connection, target topic, delivery guarantee, batching.
 *
 * @param <SELF> the concrete builder, so that setters chain
 */
@PublicEvolving
public abstract class IggySinkBuilderBase<SELF extends IggySinkBuilderBase<SELF>> {

    private IggyConnectionConfig connection;
    @Nullable private IggyId stream;
    @Nullable private IggyId topic;
    private DeliveryGuarantee deliveryGuarantee = DeliveryGuarantee.AT_LEAST_ONCE;
    private int batchSize = IggyWriterConfig.DEFAULT_BATCH_SIZE;
    private long maxBatchBytes = IggyWriterConfig.DEFAULT_MAX_BATCH_BYTES;
    private Duration linger = IggyWriterConfig.DEFAULT_LINGER;
    private int maxInFlightRequests = IggyWriterConfig.DEFAULT_MAX_IN_FLIGHT;

    IggySinkBuilderBase() {}

    @SuppressWarnings("unchecked")
    private SELF self() {
        return (SELF) this;
    }

    /** Default: {@code localhost:8090} as user {@code iggy}/{@code iggy}. */
    public SELF setConnection(IggyConnectionConfig connection) {
        this.connection = connection;
        return self();
    }

    /** The stream to write to, by name. It must exist: the sink never creates it. */
    public SELF setStream(String stream) {
        return setStream(IggyId.of(stream));
    }

    public SELF setStream(IggyId stream) {
        this.stream = stream;
        return self();
    }

    /** The topic to write to, by name. It must exist: the sink never creates it. */
    public SELF setTopic(String topic) {
        return setTopic(IggyId.of(topic));
    }

    public SELF setTopic(IggyId topic) {
        this.topic = topic;
        return self();
    }

    /**
     * {@link DeliveryGuarantee#AT_LEAST_ONCE} (default) or {@link DeliveryGuarantee#NONE}. Iggy has
     * no transactions, so {@link DeliveryGuarantee#EXACTLY_ONCE} is refused; use idempotent writes
     * (deterministic message ids plus the server's deduplication) instead.
     */
    public SELF setDeliveryGuarantee(DeliveryGuarantee deliveryGuarantee) {
        this.deliveryGuarantee = deliveryGuarantee;
        return self();
    }

    /** Most messages in one send request per partition; default 1000. */
    public SELF setBatchSize(int batchSize) {
        this.batchSize = batchSize;
        return self();
    }

    /** Most bytes (headers and payloads) in one send request; default 4 MiB. */
    public SELF setMaxBatchBytes(long maxBatchBytes) {
        this.maxBatchBytes = maxBatchBytes;
        return self();
    }

    /**
     * How long a record may wait in a partially filled batch; default 5 ms. Zero sends every record
     * at once.
     */
    public SELF setLinger(Duration linger) {
        this.linger = linger;
        return self();
    }

    /** Most batches per writer sent and unanswered or waiting to be sent; default 5. */
    public SELF setMaxInFlightRequests(int maxInFlightRequests) {
        this.maxInFlightRequests = maxInFlightRequests;
        return self();
    }

    /** Validates the shared options, naming any that is missing or invalid. */
    IggyWriterConfig buildWriterConfig() {
        if (stream == null) {
            throw new IllegalArgumentException("The Iggy stream is missing: call setStream");
        }
        if (topic == null) {
            throw new IllegalArgumentException("The Iggy topic is missing: call setTopic");
        }
        if (deliveryGuarantee == null) {
            throw new IllegalArgumentException(
                    "The delivery guarantee is missing: use AT_LEAST_ONCE or NONE");
        }
        if (deliveryGuarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            throw new IllegalArgumentException(
                    "The Iggy sink does not support EXACTLY_ONCE: Iggy has no transactions. Use"
                            + " AT_LEAST_ONCE with idempotent writes (deterministic message ids,"
                            + " e.g. setIdempotentWrites on the keyed-map sink or"
                            + " setMessageIdFunction on the serialization schema) and enable the"
                            + " server's message deduplication for effectively-once output.");
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException(
                    "The batch size must be at least 1, but is " + batchSize);
        }
        if (maxBatchBytes < 1) {
            throw new IllegalArgumentException(
                    "The max batch bytes must be at least 1, but is " + maxBatchBytes);
        }
        if (linger == null || linger.isNegative()) {
            throw new IllegalArgumentException(
                    "The linger must be zero or positive, but is " + linger);
        }
        if (maxInFlightRequests < 1) {
            throw new IllegalArgumentException(
                    "The max in-flight requests must be at least 1, but is " + maxInFlightRequests);
        }
        IggyConnectionConfig conn =
                connection != null ? connection : IggyConnectionConfig.builder().build();
        return new IggyWriterConfig(
                conn,
                stream,
                topic,
                deliveryGuarantee,
                batchSize,
                maxBatchBytes,
                linger,
                maxInFlightRequests);
    }
}

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
import org.apache.flink.connector.iggy.sink.reconcile.ReconciledMessage;

import org.apache.iggy.message.HeaderKey;

import javax.annotation.Nullable;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Options of every keyed-map sink: target partition, key header, idempotent writes, state TTL.
 *
 * @param <IN> the change type
 * @param <SELF> the concrete builder
 */
@PublicEvolving
public abstract class IggyKeyedMapSinkBuilderBase<
                IN, SELF extends IggyKeyedMapSinkBuilderBase<IN, SELF>>
        extends IggySinkBuilderBase<SELF> {

    private long partition;
    private boolean partitionByKey;
    @Nullable private String keyHeader;
    private boolean idempotentWrites;
    @Nullable private String sinkId;
    @Nullable private Duration stateTtl;
    @Nullable private String reconcileUid;

    IggyKeyedMapSinkBuilderBase() {}

    @SuppressWarnings("unchecked")
    private SELF self() {
        return (SELF) this;
    }

    /** Send every message to this partition; default 0. */
    public SELF setPartition(long partition) {
        this.partition = partition;
        this.partitionByKey = false;
        return self();
    }

    /**
     * Send each key's messages to the partition Iggy's messages-key partitioning would choose:
     * XXH32 of the key bytes modulo the partition count.
     */
    public SELF setPartitionByKey() {
        this.partitionByKey = true;
        return self();
    }

    /** Also write the key bytes into this user header (raw), so readers can recover the key. */
    public SELF setKeyHeader(String keyHeader) {
        this.keyHeader = keyHeader;
        return self();
    }

    /**
     * Give every message a deterministic id: BLAKE2b-128 of (sink id, key, number of messages sent
     * for the key before). With the server's message deduplication on, messages replayed after a
     * failover are dropped by the server. Off by default.
     */
    public SELF setIdempotentWrites(boolean idempotentWrites) {
        this.idempotentWrites = idempotentWrites;
        return self();
    }

    /**
     * What distinguishes this sink's message ids from another sink's writing the same keys to the
     * same topic; default {@code "<stream>/<topic>"}. Keep it stable across restarts.
     */
    public SELF setSinkId(String sinkId) {
        this.sinkId = sinkId;
        return self();
    }

    /**
     * Forget a key's fingerprint when the key was not written for {@code ttl}: bounds state for
     * keys that stop appearing, at the price that an expired key's next value is sent again even if
     * unchanged (and, with idempotent writes, gets ids numbered from 0 again). Default: keep
     * forever.
     */
    public SELF setStateTtl(Duration ttl) {
        this.stateTtl = ttl;
        return self();
    }

    /**
     * A uid for the operator that keeps the fingerprints, so that they restore from a savepoint
     * even after the job graph upstream of the sink changed. Flink then requires a uid on the sink
     * too ({@code sinkTo(sink).uid(...)}) and combines both. Without it the fingerprints restore
     * only into an unchanged job graph.
     */
    public SELF setReconcileUid(String reconcileUid) {
        this.reconcileUid = reconcileUid;
        return self();
    }

    IggyKeyedMapSink<IN> buildSink(IggyMapChangeEncoder<IN> encoder) {
        IggyWriterConfig config = buildWriterConfig();
        if (stateTtl != null && (stateTtl.isNegative() || stateTtl.toMillis() < 1)) {
            throw new IllegalArgumentException(
                    "The state TTL must be at least 1 ms, but is " + stateTtl);
        }
        if (keyHeader != null) {
            HeaderKey.fromString(keyHeader); // validates the name
        }
        if (reconcileUid != null && reconcileUid.isBlank()) {
            throw new IllegalArgumentException("The reconcile uid must not be blank");
        }
        if (sinkId != null && !idempotentWrites) {
            throw new IllegalArgumentException(
                    "A sink id only shapes idempotent message ids: call setIdempotentWrites(true)"
                            + " or drop setSinkId");
        }
        IggyPartitioner<ReconciledMessage> partitioner =
                partitionByKey ? IggyPartitioners.byKey() : IggyPartitioners.fixed(partition);
        byte[] id = null;
        if (idempotentWrites) {
            String name = sinkId != null ? sinkId : config.stream() + "/" + config.topic();
            id = name.getBytes(StandardCharsets.UTF_8);
        }
        return new IggyKeyedMapSink<>(
                config, encoder, partitioner, keyHeader, id, stateTtl, reconcileUid);
    }
}

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
package org.apache.flink.connector.iggy.sink.reconcile;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import javax.annotation.Nullable;

import java.time.Duration;

/**
 * Decides per key what the keyed-map sink sends, following this decision table:
 *
 * <table>
 *   <tr><th>change</th><th>state</th><th>action</th></tr>
 *   <tr><td>upsert v</td><td>fingerprint equals fp(v)</td><td>nothing</td></tr>
 *   <tr><td>upsert v</td><td>otherwise</td><td>send v, store fp(v)</td></tr>
 *   <tr><td>delete</td><td>no fingerprint</td><td>nothing</td></tr>
 *   <tr><td>delete</td><td>fingerprint, no deletion value</td><td>fail (tombstone error)</td></tr>
 *   <tr><td>delete</td><td>fingerprint, deletion value</td><td>send it, clear fp</td></tr>
 * </table>
 *
 * <p>Keyed by {@link KeyedMessage#stateKey}, it passes on the messages to send, with their id set
 * when idempotent writes are on. The count of messages sent per key ({@link ReconcileState})
 * numbers them; with idempotent writes it survives deletes, so a re-added key never reuses an id.
 */
@Internal
public class IggyReconcileFunction
        extends KeyedProcessFunction<String, KeyedMessage, KeyedMessage> {

    private static final long serialVersionUID = 1L;

    static final String STATE_NAME = "iggy-reconcile";
    private final String tombstoneError;
    @Nullable private final byte[] sinkId;
    @Nullable private final Duration stateTtl;

    private transient ValueState<ReconcileState> state;
    private transient Counter unchanged;

    /**
     * @param tombstoneError the error of a delete of a sent key when the sink cannot write deletes
     * @param sinkId hashed into message ids; {@code null} turns idempotent writes off
     * @param stateTtl forget keys not written for this long; {@code null} keeps them forever
     */
    public IggyReconcileFunction(
            String tombstoneError, @Nullable byte[] sinkId, @Nullable Duration stateTtl) {
        this.tombstoneError = tombstoneError;
        this.sinkId = sinkId;
        this.stateTtl = stateTtl;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        ValueStateDescriptor<ReconcileState> descriptor =
                new ValueStateDescriptor<>(STATE_NAME, ReconcileStateSerializer.INSTANCE);
        if (stateTtl != null) {
            descriptor.enableTimeToLive(
                    StateTtlConfig.newBuilder(stateTtl)
                            .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                            .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                            .build());
        }
        state = getRuntimeContext().getState(descriptor);
        unchanged = getRuntimeContext().getMetricGroup().counter("numRecordsUnchanged");
    }

    @Override
    public void processElement(KeyedMessage change, Context ctx, Collector<KeyedMessage> out)
            throws Exception {
        ReconcileState stored = state.value();
        long sequence = stored == null ? 0 : stored.messagesSent();
        if (change.isDelete()) {
            if (stored == null || !stored.hasFingerprint()) {
                return;
            }
            if (change.payload() == null) {
                throw new IggyConnectorException(tombstoneError);
            }
            send(change, sequence, out);
            if (sinkId != null) {
                state.update(ReconcileState.deleted(sequence + 1));
            } else {
                state.clear();
            }
            return;
        }
        byte[] fingerprint = IggyFingerprint.of(change.payload());
        if (stored != null && stored.hasFingerprint(fingerprint)) {
            unchanged.inc();
            return;
        }
        send(change, sequence, out);
        state.update(ReconcileState.sent(fingerprint, sequence + 1));
    }

    private void send(KeyedMessage change, long sequence, Collector<KeyedMessage> out) {
        if (sinkId != null) {
            change.setMessageId(IggyFingerprint.messageId(sinkId, change.key(), sequence));
        }
        out.collect(change);
    }
}

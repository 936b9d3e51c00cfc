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
package org.apache.flink.connector.iggy.source.reader;

import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Stores completed checkpoints' offsets in Iggy under the reader's consumer name. One batch is in
 * flight at a time, so that an older store never lands after a newer one; a newer batch replaces
 * one waiting. A failure is only counted and logged: Flink's checkpoint is the truth.
 *
 * <p>Fetcher thread only; answers come through {@code events}.
 */
final class OffsetStore {

    private static final Logger LOG = LoggerFactory.getLogger(OffsetStore.class);

    /** The longest a closing reader waits for stores in flight. */
    static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);

    /** The last offset a checkpoint covers. */
    record PartitionOffset(IggyPartitionSplit split, long offset) {}

    private final IggyReadRequests requests;
    private final IggySourceProgress progress;
    private final IggySourceReaderMetrics metrics;
    private final String consumerName;
    private final Consumer<FetchEvent> events;
    private int inFlight;
    @Nullable private List<PartitionOffset> waiting;

    OffsetStore(
            IggyReadRequests requests,
            IggySourceProgress progress,
            IggySourceReaderMetrics metrics,
            String consumerName,
            Consumer<FetchEvent> events) {
        this.requests = requests;
        this.progress = progress;
        this.metrics = metrics;
        this.consumerName = consumerName;
        this.events = events;
    }

    /** Stores the offsets now, or once the batch in flight has answered. */
    void store(List<PartitionOffset> offsets) {
        if (inFlight > 0) {
            waiting = offsets;
            return;
        }
        inFlight = offsets.size();
        for (PartitionOffset offset : offsets) {
            requests.storeOffset(
                            offset.split().topicPath(),
                            offset.split().partitionId(),
                            offset.offset())
                    .whenComplete(
                            (ok, error) ->
                                    events.accept(new FetchEvent.StoreAnswer(offset, error)));
        }
    }

    void answered(FetchEvent.StoreAnswer answer) {
        inFlight--;
        PartitionOffset stored = answer.stored();
        if (answer.error() == null) {
            progress.committed(
                    stored.split().splitId(), stored.offset(), System.currentTimeMillis());
            metrics.commitsSucceeded.inc();
        } else {
            metrics.commitsFailed.inc();
            LOG.warn(
                    "Could not store offset {} of {} for consumer '{}' (it is stored again at the next checkpoint; Flink state stays authoritative): {}",
                    stored.offset(),
                    stored.split().topicPartition(),
                    consumerName,
                    IggyClients.asRuntime(answer.error()).toString());
        }
        if (inFlight == 0 && waiting != null) {
            List<PartitionOffset> next = waiting;
            waiting = null;
            store(next);
        }
    }

    boolean idle() {
        return inFlight == 0 && waiting == null;
    }
}

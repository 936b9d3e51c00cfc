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
package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.connector.iggy.common.IggyClients;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.source.IggySourceConfig;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.util.FlinkRuntimeException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Lists the topic's partitions, plans one split per partition and gives each split to a fixed owner
 * reader: {@code partitionId % parallelism}. The owner is deterministic and spreads partitions
 * evenly, so a split is never read by two readers at once and a split handed back after a failure
 * goes to the same reader again once it has re-registered.
 */
@Internal
public final class IggySourceEnumerator
        implements SplitEnumerator<IggyPartitionSplit, IggySourceEnumState> {

    private static final Logger LOG = LoggerFactory.getLogger(IggySourceEnumerator.class);

    private final SplitEnumeratorContext<IggyPartitionSplit> context;
    private final Supplier<TopicDescriber> describerFactory;
    private final IggySplitPlanner planner;
    private final boolean bounded;
    @Nullable private final Duration discoveryInterval;
    private final String description;

    private final Set<Long> assignedPartitions;

    /** Splits waiting for their owner, by partition id. */
    private final TreeMap<Long, IggyPartitionSplit> pendingSplits = new TreeMap<>();

    private final Set<Integer> readersToldNoMoreSplits = new HashSet<>();
    private boolean initialDiscoveryFinished;
    @Nullable private TopicDescriber describer;

    /**
     * Why the first discovery failed, kept until a reader has registered (see addInitialSplits).
     */
    @Nullable private IggyConnectorException startFailure;

    IggySourceEnumerator(
            SplitEnumeratorContext<IggyPartitionSplit> context,
            Supplier<TopicDescriber> describerFactory,
            IggySplitPlanner planner,
            boolean bounded,
            @Nullable Duration discoveryInterval,
            String description,
            @Nullable IggySourceEnumState restored) {
        this.context = context;
        this.describerFactory = describerFactory;
        this.planner = planner;
        this.bounded = bounded;
        this.discoveryInterval = bounded ? null : discoveryInterval;
        this.description = description;
        this.assignedPartitions = new TreeSet<>();
        if (restored != null) {
            assignedPartitions.addAll(restored.assignedPartitions());
            restored.pendingSplits().forEach(s -> pendingSplits.put(s.partitionId(), s));
            initialDiscoveryFinished = restored.initialDiscoveryFinished();
        }
    }

    /** An enumerator reading the topic's partitions from the server. */
    public static IggySourceEnumerator forTopic(
            SplitEnumeratorContext<IggyPartitionSplit> context,
            IggySourceConfig config,
            @Nullable IggySourceEnumState restored) {
        IggyConnectionConfig connection = config.connection();
        IggyId stream = config.stream();
        IggyId topic = config.topic();
        String consumerName = config.consumerName();
        Counter reconnects =
                context.metricGroup()
                        .counter(IggyClients.RECONNECTS, new ThreadSafeSimpleCounter());
        return new IggySourceEnumerator(
                context,
                () -> new IggyTopicDescriber(connection, stream, topic, consumerName, reconnects),
                new IggySplitPlanner(
                        stream,
                        topic,
                        consumerName,
                        config.startingOffsets(),
                        config.stoppingOffsets()),
                config.bounded(),
                config.partitionDiscoveryInterval(),
                "topic " + topic + " of stream " + stream + " at " + connection.address(),
                restored);
    }

    /**
     * Starts discovery on a worker thread: connecting, describing the topic and planning (which may
     * read stored offsets) are slow and fallible, so none of it runs on the coordinator thread.
     */
    @Override
    public void start() {
        describer = describerFactory.get();
        if (initialDiscoveryFinished) {
            assignPendingSplits();
            scheduleDiscovery();
        } else {
            context.callAsync(this::planInitialSplits, this::addInitialSplits);
        }
    }

    /** Runs on a worker thread. */
    private List<IggyPartitionSplit> planInitialSplits() {
        PartitionOffsets offsets = describer.describe();
        List<IggyPartitionSplit> splits = new ArrayList<>();
        for (long partition : new TreeSet<>(offsets.partitionIds())) {
            splits.add(planner.initialSplit(partition, offsets));
        }
        return splits;
    }

    /** Runs on the coordinator thread. */
    private void addInitialSplits(
            @Nullable List<IggyPartitionSplit> splits, @Nullable Throwable error) {
        if (error != null) {
            IggyConnectorException failure =
                    new IggyConnectorException(
                            "The Iggy source for "
                                    + description
                                    + " cannot start: "
                                    + IggyClients.asRuntime(error).getMessage(),
                            error);
            // The job fails only once the client is closed: a job that fails without a restart
            // releases its class loader at once, and a client still closing then fails to load
            // classes.
            closeDescriberOnAWorkerThread(() -> failStart(failure));
            return;
        }
        for (IggyPartitionSplit split : splits) {
            if (!isKnown(split.partitionId())) {
                pendingSplits.put(split.partitionId(), split);
            }
        }
        initialDiscoveryFinished = true;
        LOG.info("{}: planned splits {}", description, pendingSplits.values());
        assignPendingSplits();
        scheduleDiscovery();
        closeDescriberOnAWorkerThread(() -> {});
    }

    /** Runs on the coordinator thread, once the describer's client is closed. */
    private void failStart(IggyConnectorException failure) {
        if (context.registeredReaders().isEmpty()) {
            // Failing the job while its tasks still start can take the TaskManager down
            // (FLINK-39330: a collect sink that never opened); a registered reader's task has
            // opened the operators after the source in its chain.
            startFailure = failure;
            return;
        }
        throw failure;
    }

    /**
     * The connection goes once the splits went out (off the coordinator thread); a partition
     * discovery connects for itself. At a job's end or cancel, Flink closes coordinators in the
     * background and may release the job's class loader while a client's threads still end, so no
     * client is left open for that. Closing never fails (see IggyClients#closeAndWait).
     */
    private void closeDescriberOnAWorkerThread(Runnable thenOnTheCoordinatorThread) {
        TopicDescriber planned = describer;
        context.callAsync(
                () -> {
                    planned.close();
                    return null;
                },
                (nothing, neverAFailure) -> thenOnTheCoordinatorThread.run());
    }

    private void scheduleDiscovery() {
        if (discoveryInterval != null) {
            long periodMillis = discoveryInterval.toMillis();
            context.callAsync(
                    this::listPartitions,
                    this::addDiscoveredPartitions,
                    periodMillis,
                    periodMillis);
        }
    }

    /** Runs on a worker thread; connected for this discovery only (see closeDescriber...). */
    private Set<Long> listPartitions() {
        try {
            return new HashSet<>(describer.describe().partitionIds());
        } finally {
            describer.close();
        }
    }

    /** Runs on the coordinator thread. */
    private void addDiscoveredPartitions(
            @Nullable Set<Long> partitions, @Nullable Throwable error) {
        if (error != null) {
            throw new FlinkRuntimeException(
                    "Partition discovery failed for " + description + ": " + error.getMessage(),
                    error);
        }
        List<IggyPartitionSplit> found = new ArrayList<>();
        for (long partition : new TreeSet<>(partitions)) {
            if (!isKnown(partition)) {
                IggyPartitionSplit split = planner.discoveredSplit(partition);
                pendingSplits.put(partition, split);
                found.add(split);
            }
        }
        if (!found.isEmpty()) {
            LOG.info(
                    "{}: discovered new partitions, reading from the start: {}",
                    description,
                    found);
            assignPendingSplits();
        }
    }

    private boolean isKnown(long partition) {
        return assignedPartitions.contains(partition) || pendingSplits.containsKey(partition);
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        // Splits are pushed to their owners; nothing to do on request.
    }

    @Override
    public void addSplitsBack(List<IggyPartitionSplit> splits, int subtaskId) {
        LOG.info("{}: reader {} handed back {}", description, subtaskId, splits);
        for (IggyPartitionSplit split : splits) {
            assignedPartitions.remove(split.partitionId());
            pendingSplits.put(split.partitionId(), split);
        }
        assignPendingSplits();
    }

    @Override
    public void addReader(int subtaskId) {
        if (startFailure != null) {
            throw startFailure;
        }
        // A registering reader is a new instance (first start or after a failure): it has not
        // been told anything yet.
        readersToldNoMoreSplits.remove(subtaskId);
        assignPendingSplits();
    }

    /** The reader that owns a partition: stable for a given parallelism, spread evenly. */
    static int ownerOf(long partitionId, int parallelism) {
        return (int) (partitionId % parallelism);
    }

    private void assignPendingSplits() {
        int parallelism = context.currentParallelism();
        Set<Integer> registered = context.registeredReaders().keySet();
        Map<Integer, List<IggyPartitionSplit>> assignment = new HashMap<>();
        pendingSplits
                .values()
                .removeIf(
                        split -> {
                            int owner = ownerOf(split.partitionId(), parallelism);
                            if (!registered.contains(owner)) {
                                return false;
                            }
                            assignment.computeIfAbsent(owner, k -> new ArrayList<>()).add(split);
                            assignedPartitions.add(split.partitionId());
                            return true;
                        });
        if (!assignment.isEmpty()) {
            LOG.info("{}: assigning {}", description, assignment);
            context.assignSplits(new SplitsAssignment<>(assignment));
        }
        if (bounded && initialDiscoveryFinished) {
            Set<Integer> waiting = new HashSet<>();
            pendingSplits.keySet().forEach(p -> waiting.add(ownerOf(p, parallelism)));
            for (int reader : registered) {
                if (!waiting.contains(reader) && readersToldNoMoreSplits.add(reader)) {
                    context.signalNoMoreSplits(reader);
                }
            }
        }
    }

    @Override
    public IggySourceEnumState snapshotState(long checkpointId) {
        return new IggySourceEnumState(
                assignedPartitions,
                new ArrayList<>(pendingSplits.values()),
                initialDiscoveryFinished);
    }

    /** Closes the describer, in case a discovery or the first description is still under way. */
    @Override
    public void close() {
        if (describer != null) {
            describer.close();
            describer = null;
        }
    }
}

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
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.source.internal.IggySourceConfig;
import org.apache.flink.connector.iggy.source.internal.TopicSubscription;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.TopicPath;
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
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Plans one split per (stream, topic, partition) and gives each to an owner reader, round robin in
 * planning order, so that splits spread evenly across topics. Topics first read by the job start at
 * the configured starting position; topics, streams and partitions discovered while it runs start
 * at their first offset. Splits that readers restored ({@link RestoredSplitsEvent}) are never
 * assigned again.
 *
 * <p>Every field is the coordinator thread's; the describer is used on worker threads.
 */
@Internal
public final class IggySourceEnumerator
        implements SplitEnumerator<IggyPartitionSplit, IggySourceEnumState> {

    private static final Logger LOG = LoggerFactory.getLogger(IggySourceEnumerator.class);

    private final SplitEnumeratorContext<IggyPartitionSplit> context;
    private final TopicSubscription subscription;
    private final Supplier<TopicDescriber> describerFactory;
    private final IggySplitPlanner planner;
    private final boolean bounded;
    @Nullable private final Duration discoveryInterval;
    private final String description;
    private final DiscoveryFailures discoveryFailures;

    private final Set<IggyTopicPartition> assignedPartitions = new TreeSet<>();

    private final TreeMap<IggyTopicPartition, IggyPartitionSplit> pendingSplits = new TreeMap<>();

    /** The reader of each split planned or restored, round robin from {@link #nextOwner}. */
    private final Map<IggyTopicPartition, Integer> owners = new HashMap<>();

    private int nextOwner;
    private final Set<Integer> readersToldNoMoreSplits = new HashSet<>();
    private boolean initialDiscoveryFinished;
    @Nullable private TopicDescriber describer;

    /** Why the job cannot start, kept until a reader has registered (FLINK-39330). */
    @Nullable private IggyConnectorException startFailure;

    IggySourceEnumerator(
            SplitEnumeratorContext<IggyPartitionSplit> context,
            TopicSubscription subscription,
            Supplier<TopicDescriber> describerFactory,
            IggySplitPlanner planner,
            boolean bounded,
            @Nullable Duration discoveryInterval,
            String description,
            @Nullable IggySourceEnumState restored) {
        this.context = context;
        this.subscription = subscription;
        this.describerFactory = describerFactory;
        this.planner = planner;
        this.bounded = bounded;
        this.discoveryInterval = bounded ? null : discoveryInterval;
        this.description = description;
        this.discoveryFailures =
                new DiscoveryFailures(context.metricGroup().counter("discoveryFailures"));
        if (restored != null) {
            restore(restored);
        }
    }

    public static IggySourceEnumerator create(
            SplitEnumeratorContext<IggyPartitionSplit> context,
            IggySourceConfig config,
            @Nullable IggySourceEnumState restored) {
        IggyConnectionConfig connection = config.connection();
        String consumerName = config.consumerName();
        Counter reconnects =
                context.metricGroup()
                        .counter(IggyClients.RECONNECTS, new ThreadSafeSimpleCounter());
        return new IggySourceEnumerator(
                context,
                config.subscription(),
                () -> new IggyTopicDescriber(connection, consumerName, reconnects),
                new IggySplitPlanner(
                        consumerName, config.startingOffsets(), config.stoppingOffsets()),
                config.bounded(),
                config.partitionDiscoveryInterval(),
                config.subscription().describe() + " at " + connection.address(),
                restored);
    }

    /**
     * Takes the restored splits of subscribed topics; a pending split of another topic fails the
     * start. The initial discovery is not restored: every start plans the topics not read yet, and
     * only then does a bounded source tell its readers that no more splits come.
     */
    private void restore(IggySourceEnumState restored) {
        List<String> dropped = new ArrayList<>();
        for (IggyPartitionSplit split : restored.pendingSplits()) {
            if (subscription.contains(split.topicPath())) {
                pendingSplits.put(split.topicPartition(), split);
            } else {
                dropped.add(split.topicPath().toString());
            }
        }
        for (IggyTopicPartition partition : restored.assignedPartitions()) {
            if (subscription.contains(new TopicPath(partition.stream(), partition.topic()))) {
                assignedPartitions.add(partition);
            }
        }
        if (!dropped.isEmpty()) {
            startFailure = RestoreCheck.notSubscribed(new TreeSet<>(dropped), subscription);
        }
    }

    /** Plans the topics not read yet on a worker thread: slow and fallible. */
    @Override
    public void start() {
        describer = describerFactory.get();
        if (startFailure != null) {
            return; // thrown when the first reader registers
        }
        Set<TopicPath> known = knownTopics();
        context.callAsync(() -> plan(known, true), this::addInitialSplits);
    }

    /**
     * Runs on a worker thread: a split per partition of each subscribed topic not {@code known},
     * from the starting position at the job's start, else from offset 0. A listed topic missing at
     * the start is an error.
     */
    private List<IggyPartitionSplit> plan(Set<TopicPath> known, boolean atStart) {
        List<IggyPartitionSplit> splits = new ArrayList<>();
        boolean listed = subscription instanceof TopicSubscription.TopicList;
        for (TopicPath topic : subscription.topics(describer)) {
            if (known.contains(topic)) {
                continue;
            }
            Optional<PartitionOffsets> offsets =
                    listed && atStart
                            ? Optional.of(describer.describe(topic))
                            : describer.describeIfPresent(topic);
            if (offsets.isPresent()) {
                for (long partition : new TreeSet<>(offsets.get().partitionIds())) {
                    splits.add(
                            atStart
                                    ? planner.initialSplit(topic, partition, offsets.get())
                                    : planner.discoveredSplit(topic, partition));
                }
            }
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
            // Only once the client is closed: a failed job releases its class loader at once.
            closeDescriberOnAWorkerThread(() -> failStart(failure));
            return;
        }
        if (splits.isEmpty() && knownTopics().isEmpty()) {
            LOG.warn("{}: no topic to read yet", description);
        }
        addNew(splits);
        initialDiscoveryFinished = true;
        LOG.info("{}: planned splits {}", description, pendingSplits.values());
        assignPendingSplits();
        scheduleDiscovery();
        closeDescriberOnAWorkerThread(() -> {});
    }

    /** Runs on the coordinator thread, once the describer's client is closed. */
    private void failStart(IggyConnectorException failure) {
        if (context.registeredReaders().isEmpty()) {
            // Failing while tasks still start can take the TaskManager down (FLINK-39330).
            startFailure = failure;
            return;
        }
        throw failure;
    }

    /**
     * Closes the describer off the coordinator thread; a discovery connects for itself, so that no
     * client is open when Flink releases the job's class loader. Closing never fails.
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

    /** Runs on a worker thread, connected for this discovery only. */
    private List<IggyPartitionSplit> listPartitions() {
        try {
            return plan(Set.of(), false);
        } finally {
            describer.close();
        }
    }

    /** Runs on the coordinator thread. */
    private void addDiscoveredPartitions(
            @Nullable List<IggyPartitionSplit> found, @Nullable Throwable error) {
        if (error != null) {
            FlinkRuntimeException failure = discoveryFailures.failed(description, error);
            if (failure != null) {
                throw failure;
            }
            return;
        }
        discoveryFailures.succeeded();
        List<IggyPartitionSplit> discovered = addNew(found);
        if (!discovered.isEmpty()) {
            LOG.info(
                    "{}: discovered new partitions, reading from their start: {}",
                    description,
                    discovered);
            assignPendingSplits();
        }
    }

    /** Adds the splits of partitions not known yet; returns those. */
    private List<IggyPartitionSplit> addNew(List<IggyPartitionSplit> splits) {
        List<IggyPartitionSplit> added = new ArrayList<>();
        for (IggyPartitionSplit split : splits) {
            if (!isKnown(split.topicPartition())) {
                pendingSplits.put(split.topicPartition(), split);
                added.add(split);
            }
        }
        return added;
    }

    private boolean isKnown(IggyTopicPartition partition) {
        return assignedPartitions.contains(partition) || pendingSplits.containsKey(partition);
    }

    private Set<TopicPath> knownTopics() {
        Set<TopicPath> topics = new HashSet<>();
        assignedPartitions.forEach(p -> topics.add(new TopicPath(p.stream(), p.topic())));
        pendingSplits.values().forEach(s -> topics.add(s.topicPath()));
        return topics;
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        // Splits are pushed to their owners; nothing to do on request.
    }

    /** A reader's restored splits: never assigned again, and owned by that reader. */
    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent event) {
        if (!(event instanceof RestoredSplitsEvent restored)) {
            LOG.warn("{}: ignoring unknown event {} from reader {}", description, event, subtaskId);
            return;
        }
        for (IggyTopicPartition partition : restored.partitions()) {
            if (subscription.contains(new TopicPath(partition.stream(), partition.topic()))) {
                assignedPartitions.add(partition);
                pendingSplits.remove(partition);
                owners.put(partition, subtaskId);
            } // else the reader fails saying so
        }
    }

    @Override
    public void addSplitsBack(List<IggyPartitionSplit> splits, int subtaskId) {
        LOG.info("{}: reader {} handed back {}", description, subtaskId, splits);
        for (IggyPartitionSplit split : splits) {
            assignedPartitions.remove(split.topicPartition());
            pendingSplits.put(split.topicPartition(), split);
        }
        assignPendingSplits();
    }

    @Override
    public void addReader(int subtaskId) {
        if (startFailure != null) {
            throw startFailure;
        }
        // A registering reader is a new instance: it has not been told anything yet.
        readersToldNoMoreSplits.remove(subtaskId);
        assignPendingSplits();
    }

    /** The reader that owns a split: round robin in planning order while this enumerator lives. */
    private int ownerOf(IggyTopicPartition partition, int parallelism) {
        return owners.computeIfAbsent(partition, p -> nextOwner++ % parallelism) % parallelism;
    }

    private void assignPendingSplits() {
        int parallelism = context.currentParallelism();
        Set<Integer> registered = context.registeredReaders().keySet();
        Map<Integer, List<IggyPartitionSplit>> assignment = new HashMap<>();
        Set<Integer> waiting = new HashSet<>();
        pendingSplits
                .values()
                .removeIf(
                        split -> {
                            int owner = ownerOf(split.topicPartition(), parallelism);
                            if (!registered.contains(owner)) {
                                waiting.add(owner);
                                return false;
                            }
                            assignment.computeIfAbsent(owner, k -> new ArrayList<>()).add(split);
                            assignedPartitions.add(split.topicPartition());
                            return true;
                        });
        if (!assignment.isEmpty()) {
            LOG.info("{}: assigning {}", description, assignment);
            context.assignSplits(new SplitsAssignment<>(assignment));
        }
        if (bounded && initialDiscoveryFinished) {
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

    /** Closes the describer, in case a discovery or the planning is still under way. */
    @Override
    public void close() {
        if (describer != null) {
            describer.close();
            describer = null;
        }
    }
}

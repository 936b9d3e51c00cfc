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
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.source.internal.TopicSubscription;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The assigned partitions of a checkpoint of the single-topic source (enumerator state version 1),
 * which names them by id alone, and how their topic is found.
 *
 * <p>The topic is that of the state's pending splits, or the one topic of a one-topic list. Else
 * the readers tell it: every split in the readers' state of such a checkpoint is of that one topic,
 * and each reader reports its restored splits as it starts ({@link RestoredSplitsEvent}). Until the
 * first report that names a split, the enumerator plans and assigns nothing, so that no partition
 * the old source read is planned again at the configured start or given to a second reader. When
 * every reader has reported none (every split of a bounded source had finished), the topic cannot
 * be told, and the start fails saying how to move on.
 *
 * <p>Used on the enumerator's coordinator thread only.
 */
@Internal
final class SingleTopicRestore {

    private final Set<Long> partitionIds;
    private final Set<Integer> readersReported = new HashSet<>();

    SingleTopicRestore(Set<Long> partitionIds) {
        this.partitionIds = new TreeSet<>(partitionIds);
    }

    /** The topic the restored state itself tells: that of its pending splits, or the only one. */
    Optional<TopicPath> topicInState(
            Collection<IggyPartitionSplit> pendingSplits, TopicSubscription subscription) {
        if (!pendingSplits.isEmpty()) {
            return Optional.of(pendingSplits.iterator().next().topicPath());
        }
        if (subscription instanceof TopicSubscription.TopicList list
                && list.topicIds().size() == 1) {
            return Optional.of(new TopicPath(list.stream(), list.topicIds().get(0)));
        }
        return Optional.empty();
    }

    /**
     * A reader's restored splits: their topic, once one names it.
     *
     * @throws org.apache.flink.connector.iggy.common.IggyConfigurationException when every reader
     *     reported and none restored a split
     */
    Optional<TopicPath> reported(
            int reader,
            List<IggyTopicPartition> restored,
            int parallelism,
            TopicSubscription subscription) {
        if (!restored.isEmpty()) {
            IggyTopicPartition first = restored.get(0);
            return Optional.of(new TopicPath(first.stream(), first.topic()));
        }
        readersReported.add(reader);
        if (readersReported.size() >= parallelism) {
            throw RestoreCheck.singleTopicUnknown(partitionIds, subscription);
        }
        return Optional.empty();
    }

    /** The restored partitions, of their topic. */
    Set<IggyTopicPartition> partitionsOf(TopicPath topic) {
        Set<IggyTopicPartition> partitions = new TreeSet<>();
        for (long partition : partitionIds) {
            partitions.add(topic.partition(partition));
        }
        return partitions;
    }

    @Override
    public String toString() {
        return "partitions " + partitionIds + " of the single-topic source's checkpoint";
    }
}

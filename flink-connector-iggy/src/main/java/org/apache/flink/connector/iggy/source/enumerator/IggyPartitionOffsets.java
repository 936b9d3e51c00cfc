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
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** {@link PartitionOffsets} read from the server: high watermarks from one topic description. */
@Internal
final class IggyPartitionOffsets implements PartitionOffsets {

    private final IggyServerClient server;
    private final TopicPath topic;
    private final String consumer;
    private final Map<Long, Long> highWatermarks;

    IggyPartitionOffsets(
            IggyServerClient server, TopicPath topic, String consumer, TopicDescription details) {
        this.server = server;
        this.topic = topic;
        this.consumer = consumer;
        this.highWatermarks = details.endOffsets();
    }

    @Override
    public Collection<Long> partitionIds() {
        return highWatermarks.keySet();
    }

    @Override
    public long highWatermark(long partitionId) {
        Long hw = highWatermarks.get(partitionId);
        if (hw == null) {
            throw new IllegalArgumentException(
                    "Partition " + partitionId + " is not in the description of " + topic);
        }
        return hw;
    }

    @Override
    public Optional<Long> storedOffset(long partitionId) {
        return server.storedOffset(topic.stream(), topic.topic(), partitionId, consumer);
    }

    @Override
    public OptionalLong firstOffsetAtOrAfter(long partitionId, long timestampMillis) {
        return server.firstOffsetAtOrAfter(
                topic.stream(), topic.topic(), partitionId, consumer, timestampMillis);
    }
}

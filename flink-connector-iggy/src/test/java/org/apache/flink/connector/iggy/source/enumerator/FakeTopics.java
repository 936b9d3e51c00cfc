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

import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Streams and topics held in memory behind {@link TopicDescriber}: each topic a {@link
 * FakePartitionOffsets}. Topics can be added and deleted while an enumerator runs, and listing can
 * be made to fail.
 */
class FakeTopics implements TopicDescriber {

    private final Map<TopicPath, FakePartitionOffsets> topics = new LinkedHashMap<>();

    /** When set, every request fails with it. */
    RuntimeException failure;

    int closes;

    FakePartitionOffsets topic(String stream, String topic) {
        return topics.computeIfAbsent(
                TopicPaths.of(stream, topic), t -> new FakePartitionOffsets());
    }

    void delete(String stream, String topic) {
        topics.remove(TopicPaths.of(stream, topic));
    }

    private void failIfAsked() {
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public PartitionOffsets describe(TopicPath topic) {
        return describeIfPresent(topic)
                .orElseThrow(() -> new IggyConnectorException("Iggy " + topic + " does not exist"));
    }

    @Override
    public Optional<PartitionOffsets> describeIfPresent(TopicPath topic) {
        failIfAsked();
        FakePartitionOffsets offsets = topics.get(topic);
        return offsets == null ? Optional.empty() : Optional.of(offsets.describe(topic));
    }

    @Override
    public List<String> streams() {
        failIfAsked();
        List<String> streams = new ArrayList<>();
        topics.keySet()
                .forEach(
                        t -> {
                            if (!streams.contains(t.stream().name())) {
                                streams.add(t.stream().name());
                            }
                        });
        return streams;
    }

    @Override
    public List<String> topics(String stream) {
        failIfAsked();
        List<String> names = new ArrayList<>();
        topics.keySet().stream()
                .filter(t -> t.stream().name().equals(stream))
                .forEach(t -> names.add(t.topic().name()));
        return names;
    }

    @Override
    public void close() {
        closes++;
    }
}

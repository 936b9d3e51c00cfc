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
package org.apache.flink.connector.iggy.source.testutils;

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggySourceBuilder;
import org.apache.flink.connector.iggy.source.IggySourceTestSupport;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.testframe.external.ExternalSystemSplitDataWriter;
import org.apache.flink.connector.testframe.external.source.DataStreamSourceExternalContext;
import org.apache.flink.connector.testframe.external.source.TestingSourceSettings;

import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Flink's connector test framework view of Iggy: one topic per test case, one partition per "split"
 * (each split writer adds a partition), records are UTF-8 strings.
 */
public class IggySourceExternalContext implements DataStreamSourceExternalContext<String> {

    private final IggyServerExtension iggy;
    private final String stream;
    private final String topic = "records";
    private int partitions;

    public IggySourceExternalContext(IggyServerExtension iggy) {
        this.iggy = iggy;
        this.stream = iggy.uniqueName("suite");
        iggy.createStream(stream);
    }

    @Override
    public Source<String, ?, ?> createSource(TestingSourceSettings sourceSettings) {
        IggySourceBuilder<String> builder =
                IggySource.<String>builder()
                        .setConnection(IggySourceTestSupport.connection(iggy))
                        .setStream(stream)
                        .setTopic(topic)
                        .setConsumerName(iggy.uniqueName("suite-consumer"))
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setPollInterval(Duration.ofMillis(20))
                        .setValueOnlyDeserializer(new SimpleStringSchema());
        if (sourceSettings.getBoundedness() == Boundedness.BOUNDED) {
            builder.setBounded(IggyStoppingOffsets.latest());
        }
        return builder.build();
    }

    @Override
    public synchronized ExternalSystemSplitDataWriter<String> createSourceSplitDataWriter(
            TestingSourceSettings sourceSettings) {
        if (partitions == 0) {
            iggy.createTopic(stream, topic, 1);
        } else {
            iggy.client().partitions().createPartitions(StreamId.of(stream), TopicId.of(topic), 1L);
        }
        long partition = partitions++;
        return new PartitionWriter(iggy, stream, topic, partition);
    }

    @Override
    public List<String> generateTestData(
            TestingSourceSettings sourceSettings, int splitIndex, long seed) {
        Random random = new Random(seed);
        int count = 10 + random.nextInt(40);
        List<String> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            records.add("split" + splitIndex + "-" + i + "-" + Long.toHexString(random.nextLong()));
        }
        return records;
    }

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }

    @Override
    public List<URL> getConnectorJarPaths() {
        return Collections.emptyList();
    }

    @Override
    public void close() {
        try {
            iggy.deleteStream(stream);
        } catch (RuntimeException e) {
            // Best effort: a shared real server keeps a leftover uniquely named stream.
        }
    }

    @Override
    public String toString() {
        return "Iggy";
    }

    private static final class PartitionWriter implements ExternalSystemSplitDataWriter<String> {
        private final IggyServerExtension iggy;
        private final String stream;
        private final String topic;
        private final long partition;

        PartitionWriter(IggyServerExtension iggy, String stream, String topic, long partition) {
            this.iggy = iggy;
            this.stream = stream;
            this.topic = topic;
            this.partition = partition;
        }

        @Override
        public void writeRecords(List<String> records) {
            List<byte[]> payloads = new ArrayList<>(records.size());
            for (String record : records) {
                payloads.add(record.getBytes(StandardCharsets.UTF_8));
            }
            iggy.send(stream, topic, partition, payloads);
        }

        @Override
        public void close() {}
    }
}

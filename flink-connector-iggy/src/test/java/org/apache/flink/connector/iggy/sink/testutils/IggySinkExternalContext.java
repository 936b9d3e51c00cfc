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
package org.apache.flink.connector.iggy.sink.testutils;

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.testframe.external.ExternalSystemDataReader;
import org.apache.flink.connector.testframe.external.sink.DataStreamSinkV2ExternalContext;
import org.apache.flink.connector.testframe.external.sink.TestingSinkSettings;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.util.FileUtils;

import org.apache.iggy.message.Message;

import javax.annotation.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Flink's sink test suite against Iggy, at-least-once or exactly-once as the suite's semantic says:
 * each test case gets its own stream with a topic of {@link #PARTITIONS} partitions, written
 * round-robin (balanced) and read back from every partition.
 */
public class IggySinkExternalContext implements DataStreamSinkV2ExternalContext<String> {

    static final int PARTITIONS = 4;

    private final IggyServerExtension iggy;
    private final String stream;
    private final String topic = "sink-suite";
    private boolean created;
    @Nullable private Path writeAhead;

    public IggySinkExternalContext(IggyServerExtension iggy) {
        this.iggy = iggy;
        this.stream = iggy.uniqueName("sink-suite");
    }

    @Override
    @SuppressWarnings("deprecation") // the settings offer no other getter
    public Sink<String> createSink(TestingSinkSettings sinkSettings) {
        boolean exactlyOnce =
                CheckpointingMode.EXACTLY_ONCE
                        .name()
                        .equals(sinkSettings.getCheckpointingMode().name());
        ensureTopic();
        return IggySink.<String>builder()
                .setDeliveryGuarantee(
                        exactlyOnce
                                ? DeliveryGuarantee.EXACTLY_ONCE
                                : DeliveryGuarantee.AT_LEAST_ONCE)
                .setConnection(connection(iggy))
                .setStream(stream)
                .setTopic(topic)
                .setValueSerializationSchema(new SimpleStringSchema())
                .setPartitioner(IggyPartitioner.roundRobin())
                .setExactlyOnceWriteAheadDir(exactlyOnce ? writeAheadDirectory() : null)
                .build();
    }

    /** The exactly-once sink's write-ahead directory: a temporary one of this context. */
    private String writeAheadDirectory() {
        if (writeAhead == null) {
            try {
                writeAhead = Files.createTempDirectory("iggy-sink-suite-wal");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return writeAhead.toUri().toString();
    }

    @Override
    public ExternalSystemDataReader<String> createSinkDataReader(TestingSinkSettings settings) {
        ensureTopic();
        return new Reader();
    }

    @Override
    public List<String> generateTestData(TestingSinkSettings settings, long seed) {
        Random random = new Random(seed);
        int count = 100 + random.nextInt(100);
        List<String> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            records.add(i + "-" + Long.toHexString(random.nextLong()));
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
        if (created) {
            iggy.deleteStream(stream);
        }
        if (writeAhead != null) {
            FileUtils.deleteDirectoryQuietly(writeAhead.toFile());
        }
    }

    public static IggyConnectionConfig connection(IggyServerExtension iggy) {
        return IggyConnectionConfig.builder()
                .setAddress(iggy.address())
                .setCredentials(iggy.username(), iggy.password())
                .build();
    }

    private synchronized void ensureTopic() {
        if (!created) {
            iggy.createStream(stream);
            iggy.createTopic(stream, topic, PARTITIONS);
            created = true;
        }
    }

    /** Reads every partition from where the previous poll stopped. */
    private final class Reader implements ExternalSystemDataReader<String> {
        private final long[] next = new long[PARTITIONS];

        @Override
        public List<String> poll(Duration timeout) {
            List<String> out = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                for (Message m : iggy.poll(stream, topic, p, next[p], 1000)) {
                    out.add(new String(m.payload(), StandardCharsets.UTF_8));
                    next[p] = m.header().offset().longValueExact() + 1;
                }
            }
            return out;
        }

        @Override
        public void close() {}
    }
}

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

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.internal.IggySourceConfig;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.util.UserCodeClassLoader;

/** Wires a source reader's parts from the source's configuration. */
@Internal
public final class IggySourceReaders {

    private IggySourceReaders() {}

    /** Opens the deserializer; connects nowhere: the fetcher connects once the task runs. */
    public static <T> IggySourceReader<T> create(
            IggySourceConfig config,
            IggyRecordDeserializationSchema<T> deserializer,
            Configuration flinkConfig,
            SourceReaderContext context)
            throws Exception {
        SourceReaderMetricGroup group = context.metricGroup();
        Counter skipped = group.counter("numRecordsSkipped");
        deserializer.open(new DeserializerContext(context, skipped));
        IggyRecordEmitter<T> emitter =
                new IggyRecordEmitter<>(
                        deserializer,
                        config.skipUndecodableRecords(),
                        group.getIOMetricGroup().getNumBytesInCounter(),
                        skipped);
        IggySourceProgress progress = new IggySourceProgress();
        return wire(
                new IggyClientReadRequests(
                        config.connection(),
                        config.consumerName(),
                        group.counter(IggyClients.RECONNECTS, new ThreadSafeSimpleCounter())),
                progress,
                new IggySourceReaderMetrics(group, progress),
                config,
                emitter,
                flinkConfig,
                context);
    }

    static <T> IggySourceReader<T> wire(
            IggyReadRequests requests,
            IggySourceProgress progress,
            IggySourceReaderMetrics metrics,
            IggySourceConfig config,
            IggyRecordEmitter<T> emitter,
            Configuration flinkConfig,
            SourceReaderContext context) {
        IggySourceFetcherManager fetchers =
                new IggySourceFetcherManager(
                        () ->
                                new IggyPartitionSplitReader(
                                        requests,
                                        progress,
                                        events ->
                                                new OffsetStore(
                                                        requests,
                                                        progress,
                                                        metrics,
                                                        config.consumerName(),
                                                        events),
                                        () -> new PollSize(config.fixedPollBatchSize()),
                                        () ->
                                                new DescribeSchedule(
                                                        config.pollMinInterval(),
                                                        config.pollInterval(),
                                                        config.pollBackOff(),
                                                        System.nanoTime()),
                                        onDeletedTopic(config),
                                        SharedPollLimit.JVM),
                        flinkConfig);
        return new IggySourceReader<>(
                requests,
                progress,
                metrics,
                config.subscription(),
                config.storesOffsets(),
                fetchers,
                emitter,
                flinkConfig,
                context);
    }

    static TopologyGuard.OnDeletedTopic onDeletedTopic(IggySourceConfig config) {
        if (config.deletedTopicSkip()) {
            return TopologyGuard.OnDeletedTopic.SKIP;
        }
        return config.recreatedTopicReadFromStart()
                ? TopologyGuard.OnDeletedTopic.READ_RECREATED_FROM_START
                : TopologyGuard.OnDeletedTopic.FAIL;
    }

    /** Flink's initialization context for deserializers, plus the skip counter. */
    private record DeserializerContext(SourceReaderContext context, Counter skippedRecordsCounter)
            implements IggyRecordDeserializationSchema.Context {
        @Override
        public MetricGroup getMetricGroup() {
            return context.metricGroup().addGroup("deserializer");
        }

        @Override
        public UserCodeClassLoader getUserCodeClassLoader() {
            return context.getUserCodeClassLoader();
        }
    }
}

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
package org.apache.flink.connector.iggy.source;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyLineage;
import org.apache.flink.connector.iggy.source.enumerator.IggySourceEnumState;
import org.apache.flink.connector.iggy.source.enumerator.IggySourceEnumStateSerializer;
import org.apache.flink.connector.iggy.source.enumerator.IggySourceEnumerator;
import org.apache.flink.connector.iggy.source.internal.IggySourceConfig;
import org.apache.flink.connector.iggy.source.internal.TopicSubscription;
import org.apache.flink.connector.iggy.source.reader.IggySourceReader;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplitSerializer;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;
import org.apache.flink.streaming.api.lineage.SourceLineageVertex;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A FLIP-27 source reading Iggy topics (a list, or those matching a pattern): one split per
 * (stream, topic, partition), offsets in Flink state, and, when the source has a consumer name,
 * offsets stored in Iggy under it once a checkpoint covering them completes.
 *
 * <pre>{@code
 * IggySource<String> source = IggySource.<String>builder()
 *         .setConnection(IggyConnectionConfig.builder().setAddress("localhost:8090").build())
 *         .setStream("orders").setTopic("created")
 *         .setConsumerName("order-indexer")
 *         .setStartingOffsets(IggyStartingOffsets.committed())
 *         .setDeserializer(IggyRecordDeserializationSchema.valueOnly(new SimpleStringSchema()))
 *         .build();
 * env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders");
 * }</pre>
 *
 * @param <T> the record type
 */
@PublicEvolving
public final class IggySource<T>
        implements Source<T, IggyPartitionSplit, IggySourceEnumState>,
                ResultTypeQueryable<T>,
                LineageVertexProvider {

    private static final long serialVersionUID = 1L;

    private final IggySourceConfig config;
    private final IggyRecordDeserializationSchema<T> deserializer;

    IggySource(IggySourceConfig config, IggyRecordDeserializationSchema<T> deserializer) {
        this.config = Objects.requireNonNull(config, "config");
        this.deserializer = Objects.requireNonNull(deserializer, "deserializer");
    }

    public static <T> IggySourceBuilder<T> builder() {
        return new IggySourceBuilder<>();
    }

    @VisibleForTesting
    IggySourceConfig config() {
        return config;
    }

    @Override
    public Boundedness getBoundedness() {
        return config.bounded() ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SplitEnumerator<IggyPartitionSplit, IggySourceEnumState> createEnumerator(
            SplitEnumeratorContext<IggyPartitionSplit> context) {
        return IggySourceEnumerator.create(context, config, null);
    }

    @Override
    public SplitEnumerator<IggyPartitionSplit, IggySourceEnumState> restoreEnumerator(
            SplitEnumeratorContext<IggyPartitionSplit> context, IggySourceEnumState checkpoint) {
        return IggySourceEnumerator.create(context, config, checkpoint);
    }

    @Override
    public SourceReader<T, IggyPartitionSplit> createReader(SourceReaderContext readerContext)
            throws Exception {
        return IggySourceReader.create(
                config, deserializer, readerContext.getConfiguration(), readerContext);
    }

    @Override
    public SimpleVersionedSerializer<IggyPartitionSplit> getSplitSerializer() {
        return IggyPartitionSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<IggySourceEnumState> getEnumeratorCheckpointSerializer() {
        return new IggySourceEnumStateSerializer();
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return deserializer.getProducedType();
    }

    /** For Flink's lineage: each listed topic, or the patterns as one dataset. */
    @Override
    public SourceLineageVertex getLineageVertex() {
        List<LineageDataset> datasets = new ArrayList<>();
        TopicSubscription subscription = config.subscription();
        if (subscription instanceof TopicSubscription.TopicList list) {
            for (IggyId topic : list.topicIds()) {
                datasets.add(IggyLineage.dataset(config.connection(), list.stream(), topic));
            }
        } else if (subscription instanceof TopicSubscription.TopicSearch search) {
            datasets.add(
                    IggyLineage.patternDataset(
                            config.connection(), search.streamRegex(), search.topicRegex()));
        }
        return IggyLineage.sourceVertex(datasets, getBoundedness());
    }

    @Override
    public String toString() {
        return "IggySource{" + config + '}';
    }
}

package org.apache.flink.connector.iggy.source;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.source.enumerator.IggySourceEnumState;
import org.apache.flink.connector.iggy.source.enumerator.IggySourceEnumStateSerializer;
import org.apache.flink.connector.iggy.source.enumerator.IggySourceEnumerator;
import org.apache.flink.connector.iggy.source.enumerator.IggySplitPlanner;
import org.apache.flink.connector.iggy.source.reader.IggySourceReader;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplitSerializer;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import javax.annotation.Nullable;

import java.time.Duration;

/**
 * A FLIP-27 source reading one Iggy topic: one split per partition, offsets in Flink state, and
 * offsets stored in Iggy under a consumer name only once a checkpoint covering them completes.
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
        implements Source<T, IggyPartitionSplit, IggySourceEnumState>, ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    private final IggyConnectionConfig connection;
    private final IggyId stream;
    private final IggyId topic;
    private final String consumerName;
    private final IggyStartingOffsets startingOffsets;
    @Nullable private final IggyStoppingOffsets stoppingOffsets;
    private final int batchSize;
    private final Duration pollInterval;
    @Nullable private final Duration partitionDiscoveryInterval;
    private final boolean skipUndecodableRecords;
    private final IggyRecordDeserializationSchema<T> deserializer;

    IggySource(
            IggyConnectionConfig connection,
            IggyId stream,
            IggyId topic,
            String consumerName,
            IggyStartingOffsets startingOffsets,
            @Nullable IggyStoppingOffsets stoppingOffsets,
            int batchSize,
            Duration pollInterval,
            @Nullable Duration partitionDiscoveryInterval,
            boolean skipUndecodableRecords,
            IggyRecordDeserializationSchema<T> deserializer) {
        this.connection = connection;
        this.stream = stream;
        this.topic = topic;
        this.consumerName = consumerName;
        this.startingOffsets = startingOffsets;
        this.stoppingOffsets = stoppingOffsets;
        this.batchSize = batchSize;
        this.pollInterval = pollInterval;
        this.partitionDiscoveryInterval = partitionDiscoveryInterval;
        this.skipUndecodableRecords = skipUndecodableRecords;
        this.deserializer = deserializer;
    }

    public static <T> IggySourceBuilder<T> builder() {
        return new IggySourceBuilder<>();
    }

    @Override
    public Boundedness getBoundedness() {
        return stoppingOffsets != null ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SplitEnumerator<IggyPartitionSplit, IggySourceEnumState> createEnumerator(
            SplitEnumeratorContext<IggyPartitionSplit> context) {
        return enumerator(context, null);
    }

    @Override
    public SplitEnumerator<IggyPartitionSplit, IggySourceEnumState> restoreEnumerator(
            SplitEnumeratorContext<IggyPartitionSplit> context, IggySourceEnumState checkpoint) {
        return enumerator(context, checkpoint);
    }

    private IggySourceEnumerator enumerator(
            SplitEnumeratorContext<IggyPartitionSplit> context,
            @Nullable IggySourceEnumState restored) {
        return IggySourceEnumerator.forTopic(
                context,
                connection,
                stream,
                topic,
                consumerName,
                new IggySplitPlanner(stream, topic, consumerName, startingOffsets, stoppingOffsets),
                stoppingOffsets != null,
                partitionDiscoveryInterval,
                restored);
    }

    @Override
    public SourceReader<T, IggyPartitionSplit> createReader(SourceReaderContext readerContext)
            throws Exception {
        return IggySourceReader.create(
                new IggySourceReader.Settings(
                        connection, consumerName, batchSize, pollInterval, skipUndecodableRecords),
                deserializer,
                readerContext.getConfiguration(),
                readerContext);
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

    @Override
    public String toString() {
        return "IggySource{topic="
                + topic
                + ", stream="
                + stream
                + ", connection="
                + connection
                + ", consumer='"
                + consumerName
                + "', start="
                + startingOffsets
                + (stoppingOffsets != null ? ", stop=" + stoppingOffsets : "")
                + '}';
    }
}

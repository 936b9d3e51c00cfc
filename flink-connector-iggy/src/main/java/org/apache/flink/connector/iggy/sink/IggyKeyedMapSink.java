package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.connector.iggy.sink.reconcile.IggyReconcileFunction;
import org.apache.flink.connector.iggy.sink.reconcile.ReconciledMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

import javax.annotation.Nullable;

import java.io.IOException;
import java.time.Duration;

/**
 * A sink that maintains a keyed map in an Iggy topic: it sends a key's value only when it differs
 * from the last value sent for that key, and a configured payload when a sent key is deleted.
 *
 * <p>Before its writer the sink inserts {@code keyBy(key)} and an {@link IggyReconcileFunction},
 * which keeps a fingerprint of the last value sent per key in Flink keyed state. To restore that
 * state after the job graph changed, give it a uid ({@code setReconcileUid}) and the sink a uid.
 *
 * <p>Built with {@link IggySink#keyedMap} for {@link
 * org.apache.flink.connector.iggy.common.IggyMapChange} input, or with {@link #builder} for any
 * change type given an {@link IggyMapChangeEncoder} (the table sink does that for rows).
 *
 * @param <IN> the change type
 * @param <K> the key type Flink partitions the state by
 */
@PublicEvolving
public class IggyKeyedMapSink<IN, K> implements Sink<IN>, SupportsPreWriteTopology<IN> {

    private static final long serialVersionUID = 1L;

    private final IggyWriterConfig config;
    private final KeySelector<IN, K> keySelector;
    private final TypeInformation<K> keyType;
    private final IggyMapChangeEncoder<IN> encoder;
    private final IggyPartitioner<ReconciledMessage> partitioner;
    @Nullable private final String keyHeader;
    @Nullable private final byte[] sinkId;
    @Nullable private final Duration stateTtl;
    @Nullable private final String reconcileUid;

    IggyKeyedMapSink(
            IggyWriterConfig config,
            KeySelector<IN, K> keySelector,
            TypeInformation<K> keyType,
            IggyMapChangeEncoder<IN> encoder,
            IggyPartitioner<ReconciledMessage> partitioner,
            @Nullable String keyHeader,
            @Nullable byte[] sinkId,
            @Nullable Duration stateTtl,
            @Nullable String reconcileUid) {
        this.config = config;
        this.keySelector = keySelector;
        this.keyType = keyType;
        this.encoder = encoder;
        this.partitioner = partitioner;
        this.keyHeader = keyHeader;
        this.sinkId = sinkId;
        this.stateTtl = stateTtl;
        this.reconcileUid = reconcileUid;
    }

    /**
     * A keyed-map sink for any change type: {@code keySelector} partitions the state (and must be
     * consistent with the encoder's key bytes), {@code encoder} reads each change.
     */
    public static <IN, K> IggyKeyedMapSinkBuilder<IN, K> builder(
            KeySelector<IN, K> keySelector,
            TypeInformation<K> keyType,
            IggyMapChangeEncoder<IN> encoder) {
        return new IggyKeyedMapSinkBuilder<>(keySelector, keyType, encoder);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public DataStream<IN> addPreWriteTopology(DataStream<IN> input) {
        SingleOutputStreamOperator<ReconciledMessage> reconciled =
                input.keyBy(keySelector, keyType)
                        .process(
                                new IggyReconcileFunction<>(encoder, sinkId, stateTtl),
                                TypeInformation.of(ReconciledMessage.class))
                        .name("Iggy Reconcile");
        if (reconcileUid != null) {
            reconciled.uid(reconcileUid);
        }
        // The writer receives reconciled messages, not IN: see createWriter.
        return (DataStream) reconciled;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public SinkWriter<IN> createWriter(WriterInitContext context) throws IOException {
        IggyClientBatchSender sender = IggyClientBatchSender.open(config);
        try {
            return (SinkWriter)
                    new IggySinkWriter<>(
                            config,
                            new ReconciledMessageSchema(partitioner, keyHeader),
                            sender,
                            context);
        } catch (IOException | RuntimeException e) {
            sender.close();
            throw e;
        }
    }
}

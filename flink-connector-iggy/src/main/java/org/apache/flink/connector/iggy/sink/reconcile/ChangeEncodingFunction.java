package org.apache.flink.connector.iggy.sink.reconcile;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.serialization.RuntimeContextInitializationContextAdapters;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.sink.IggyMapChangeEncoder;
import org.apache.flink.util.Collector;

import javax.annotation.Nullable;

/**
 * Turns each change into key, payload and header bytes before the keyed-map sink's {@code keyBy}.
 */
@Internal
public class ChangeEncodingFunction<IN> extends RichFlatMapFunction<IN, EncodedChange> {

    private static final long serialVersionUID = 1L;

    private final IggyMapChangeEncoder<IN> encoder;

    public ChangeEncodingFunction(IggyMapChangeEncoder<IN> encoder) {
        this.encoder = encoder;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        encoder.open(
                RuntimeContextInitializationContextAdapters.serializationAdapter(
                        getRuntimeContext()));
    }

    @Override
    public void flatMap(IN change, Collector<EncodedChange> out) {
        EncodedChange encoded = encode(encoder, change);
        if (encoded != null) {
            out.collect(encoded);
        }
    }

    /** The encoded change, or {@code null} for a change the encoder ignores. */
    @Nullable
    public static <IN> EncodedChange encode(IggyMapChangeEncoder<IN> encoder, IN change) {
        IggyMapChange.Kind kind = encoder.kind(change);
        if (kind == null) {
            return null;
        }
        byte[] key = encoder.key(change);
        if (kind == IggyMapChange.Kind.UPSERT) {
            return new EncodedChange(
                    key,
                    false,
                    encoder.value(change),
                    EncodedHeaders.encode(encoder.headers(change)),
                    encoder.originTimestampMicros(change));
        }
        if (!encoder.hasDeletionValue()) {
            // Fails the job in the reconcile step if the key was sent.
            return new EncodedChange(key, true, null, null, 0);
        }
        return new EncodedChange(
                key,
                true,
                encoder.deletionValue(change),
                EncodedHeaders.encode(encoder.deletionHeaders(change)),
                encoder.originTimestampMicros(change));
    }
}

package org.apache.flink.connector.iggy.sink.reconcile;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.serialization.RuntimeContextInitializationContextAdapters;
import org.apache.flink.util.Collector;

/** Encodes each change ({@link ChangeEncoder}) before the keyed-map sink's {@code keyBy}. */
@Internal
public class ChangeEncodingFunction<IN> extends RichFlatMapFunction<IN, KeyedMessage> {

    private static final long serialVersionUID = 1L;

    private final ChangeEncoder<IN> encoder;

    public ChangeEncodingFunction(ChangeEncoder<IN> encoder) {
        this.encoder = encoder;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        encoder.open(
                RuntimeContextInitializationContextAdapters.serializationAdapter(
                        getRuntimeContext()));
    }

    @Override
    public void flatMap(IN change, Collector<KeyedMessage> out) {
        KeyedMessage message = encoder.encode(change);
        if (message != null) {
            out.collect(message);
        }
    }
}

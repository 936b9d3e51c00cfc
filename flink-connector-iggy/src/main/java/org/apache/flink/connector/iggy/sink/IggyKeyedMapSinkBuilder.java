package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;

/**
 * Builds an {@link IggyKeyedMapSink} for any change type read by an {@link IggyMapChangeEncoder}.
 *
 * @param <IN> the change type
 */
@PublicEvolving
public final class IggyKeyedMapSinkBuilder<IN>
        extends IggyKeyedMapSinkBuilderBase<IN, IggyKeyedMapSinkBuilder<IN>> {

    private final IggyMapChangeEncoder<IN> encoder;

    IggyKeyedMapSinkBuilder(IggyMapChangeEncoder<IN> encoder) {
        this.encoder = encoder;
    }

    public IggyKeyedMapSink<IN> build() {
        if (encoder == null) {
            throw new IllegalArgumentException("The change encoder is missing");
        }
        return buildSink(encoder);
    }
}

package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;

/**
 * Builds an {@link IggyKeyedMapSink} for any change type read by an {@link IggyMapChangeEncoder}.
 *
 * @param <IN> the change type
 * @param <K> the key type
 */
@PublicEvolving
public final class IggyKeyedMapSinkBuilder<IN, K>
        extends IggyKeyedMapSinkBuilderBase<IN, K, IggyKeyedMapSinkBuilder<IN, K>> {

    private final KeySelector<IN, K> keySelector;
    private final TypeInformation<K> keyType;
    private final IggyMapChangeEncoder<IN> encoder;

    IggyKeyedMapSinkBuilder(
            KeySelector<IN, K> keySelector,
            TypeInformation<K> keyType,
            IggyMapChangeEncoder<IN> encoder) {
        this.keySelector = keySelector;
        this.keyType = keyType;
        this.encoder = encoder;
    }

    public IggyKeyedMapSink<IN, K> build() {
        if (keySelector == null || encoder == null) {
            throw new IllegalArgumentException("The key selector and the encoder are required");
        }
        return buildSink(keySelector, keyType, encoder);
    }
}

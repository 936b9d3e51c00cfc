package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.util.function.SerializableFunction;

import javax.annotation.Nullable;

import java.nio.charset.StandardCharsets;

/**
 * Builds a keyed-map sink for a stream of {@link IggyMapChange}s.
 *
 * <pre>{@code
 * IggyKeyedMapSink<IggyMapChange<String, String>, String> sink =
 *     IggySink.<String, String>keyedMap(Types.STRING)
 *         .setStream("catalog").setTopic("products")
 *         .setValueSerializationSchema(new SimpleStringSchema())
 *         .setDeletionValueFunction(key -> (key + "=DELETE").getBytes(UTF_8))
 *         .build();
 * changes.sinkTo(sink).uid("products-sink");
 * }</pre>
 *
 * @param <K> the key type
 * @param <V> the value type
 */
@PublicEvolving
public final class IggyMapChangeSinkBuilder<K, V>
        extends IggyKeyedMapSinkBuilderBase<
                IggyMapChange<K, V>, K, IggyMapChangeSinkBuilder<K, V>> {

    private final TypeInformation<K> keyType;
    @Nullable private SerializationSchema<K> keySchema;
    @Nullable private SerializationSchema<V> valueSchema;
    @Nullable private SerializableFunction<K, byte[]> deletionValueFunction;

    IggyMapChangeSinkBuilder(TypeInformation<K> keyType) {
        this.keyType = keyType;
    }

    /**
     * The key's bytes, hashed into idempotent message ids and used for key partitioning. Optional
     * for {@code String} keys (UTF-8).
     */
    public IggyMapChangeSinkBuilder<K, V> setKeySerializationSchema(
            SerializationSchema<K> keySchema) {
        this.keySchema = keySchema;
        return this;
    }

    /** Required: the payload of an upsert; only these bytes are sent and fingerprinted. */
    public IggyMapChangeSinkBuilder<K, V> setValueSerializationSchema(
            SerializationSchema<V> valueSchema) {
        this.valueSchema = valueSchema;
        return this;
    }

    /**
     * The payload to send when a key that was sent is deleted. Without it such a delete fails the
     * job: Iggy has no tombstones.
     */
    public IggyMapChangeSinkBuilder<K, V> setDeletionValueFunction(
            SerializableFunction<K, byte[]> deletionValueFunction) {
        this.deletionValueFunction = deletionValueFunction;
        return this;
    }

    @SuppressWarnings("unchecked")
    public IggyKeyedMapSink<IggyMapChange<K, V>, K> build() {
        if (keyType == null) {
            throw new IllegalArgumentException(
                    "The key type is missing: pass it to IggySink.keyedMap, e.g. Types.STRING");
        }
        if (valueSchema == null) {
            throw new IllegalArgumentException(
                    "The value serialization schema is missing: call setValueSerializationSchema");
        }
        SerializationSchema<K> keys = keySchema;
        if (keys == null) {
            if (!BasicTypeInfo.STRING_TYPE_INFO.equals(keyType)) {
                throw new IllegalArgumentException(
                        "The key serialization schema is missing: call setKeySerializationSchema"
                                + " (only String keys have a default, UTF-8), key type is "
                                + keyType);
            }
            keys = k -> ((String) k).getBytes(StandardCharsets.UTF_8);
        }
        return buildSink(
                new ChangeKey<>(),
                keyType,
                new MapChangeEncoder<>(keys, valueSchema, deletionValueFunction));
    }

    private static final class ChangeKey<K, V> implements KeySelector<IggyMapChange<K, V>, K> {
        private static final long serialVersionUID = 1L;

        @Override
        public K getKey(IggyMapChange<K, V> change) {
            return change.key();
        }
    }

    private static final class MapChangeEncoder<K, V>
            implements IggyMapChangeEncoder<IggyMapChange<K, V>> {
        private static final long serialVersionUID = 1L;

        private final SerializationSchema<K> keySchema;
        private final SerializationSchema<V> valueSchema;
        @Nullable private final SerializableFunction<K, byte[]> deletionValue;

        MapChangeEncoder(
                SerializationSchema<K> keySchema,
                SerializationSchema<V> valueSchema,
                @Nullable SerializableFunction<K, byte[]> deletionValue) {
            this.keySchema = keySchema;
            this.valueSchema = valueSchema;
            this.deletionValue = deletionValue;
        }

        @Override
        public void open(SerializationSchema.InitializationContext context) throws Exception {
            keySchema.open(context);
            valueSchema.open(context);
        }

        @Override
        public IggyMapChange.Kind kind(IggyMapChange<K, V> change) {
            return change.kind();
        }

        @Override
        public byte[] key(IggyMapChange<K, V> change) {
            return keySchema.serialize(change.key());
        }

        @Override
        public byte[] value(IggyMapChange<K, V> change) {
            return valueSchema.serialize(change.value());
        }

        @Override
        public boolean hasDeletionValue() {
            return deletionValue != null;
        }

        @Override
        public byte[] deletionValue(IggyMapChange<K, V> change) {
            return deletionValue.apply(change.key());
        }
    }
}

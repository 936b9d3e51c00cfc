package org.apache.flink.connector.iggy.source;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.functions.Function;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.api.java.typeutils.MissingTypeInfo;
import org.apache.flink.api.java.typeutils.TypeExtractor;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.common.IggyMapChangeTypeInfo;
import org.apache.flink.util.Collector;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.io.Serializable;
import java.util.Objects;

/**
 * Reads a topic as a keyed map (a changelog of keys): each message becomes an {@link IggyMapChange}
 * of the key that {@link KeyFunction} derives from it.
 *
 * <ul>
 *   <li>The key function returns {@code null}: the message is skipped, counted in {@code
 *       numRecordsSkipped} and logged (at most once per 10 s). Its offset still counts as
 *       processed. Falsy keys ({@code ""}, {@code 0}) are real keys.
 *   <li>The deletion predicate holds: {@code DELETE(key)}. Without a predicate nothing is a delete;
 *       an empty payload is an upsert like any other.
 *   <li>Otherwise: {@code UPSERT(key, value)} with the value deserializer's result for the payload.
 * </ul>
 *
 * <p>The source keeps no per-key state, so it emits a {@code DELETE} even for a key it never saw.
 * Downstream upsert semantics make that a no-op, as semantics require ("a delete of a key never
 * seen produces nothing"): the keyed-map sink skips deletes of keys it never sent, and an upsert
 * table has nothing to remove.
 *
 * @param <K> key type
 * @param <V> value type
 */
@PublicEvolving
public final class IggyKeyedMapDeserializationSchema<K, V>
        implements IggyRecordDeserializationSchema<IggyMapChange<K, V>> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG =
            LoggerFactory.getLogger(IggyKeyedMapDeserializationSchema.class);

    /** The application key of a message, or {@code null} to skip it. */
    @FunctionalInterface
    @PublicEvolving
    public interface KeyFunction<K> extends Function {
        @Nullable
        K key(IggyMessage message) throws Exception;
    }

    /** Whether a message deletes its key. */
    @FunctionalInterface
    @PublicEvolving
    public interface DeletionPredicate extends Serializable {
        boolean isDeletion(IggyMessage message) throws Exception;
    }

    private final KeyFunction<K> keyFunction;
    @Nullable private final DeletionPredicate deletionPredicate;
    private final DeserializationSchema<V> valueDeserializer;

    private transient SkippedRecordsLog skippedLog;

    private IggyKeyedMapDeserializationSchema(
            KeyFunction<K> keyFunction,
            @Nullable DeletionPredicate deletionPredicate,
            DeserializationSchema<V> valueDeserializer) {
        this.keyFunction = Objects.requireNonNull(keyFunction, "keyFunction");
        this.deletionPredicate = deletionPredicate;
        this.valueDeserializer = Objects.requireNonNull(valueDeserializer, "valueDeserializer");
    }

    /** Keys from {@code keyFunction}, values from the payload; nothing is ever a delete. */
    public static <K, V> IggyKeyedMapDeserializationSchema<K, V> of(
            KeyFunction<K> keyFunction, DeserializationSchema<V> valueDeserializer) {
        return new IggyKeyedMapDeserializationSchema<>(keyFunction, null, valueDeserializer);
    }

    /** A copy whose messages matching {@code deletionPredicate} delete their key. */
    public IggyKeyedMapDeserializationSchema<K, V> withDeletionPredicate(
            DeletionPredicate deletionPredicate) {
        return new IggyKeyedMapDeserializationSchema<>(
                keyFunction,
                Objects.requireNonNull(deletionPredicate, "deletionPredicate"),
                valueDeserializer);
    }

    @Override
    public void open(Context context) throws Exception {
        skippedLog =
                new SkippedRecordsLog(
                        LOG, "whose key function returned null", context.skippedRecordsCounter());
        valueDeserializer.open(context);
    }

    @Override
    public void deserialize(IggyMessage message, Collector<IggyMapChange<K, V>> out)
            throws IOException {
        K key;
        boolean deletion;
        try {
            key = keyFunction.key(message);
            deletion =
                    key != null
                            && deletionPredicate != null
                            && deletionPredicate.isDeletion(message);
        } catch (Exception e) {
            throw new IOException("The key function or deletion predicate failed", e);
        }
        if (key == null) {
            skippedLog.skipped(message, null);
            return;
        }
        if (deletion) {
            out.collect(IggyMapChange.delete(key));
            return;
        }
        V value = valueDeserializer.deserialize(message.payload());
        if (value == null) {
            throw new IOException(
                    "The value deserializer returned null for key '"
                            + key
                            + "': a keyed-map value must not be null (use the deletion predicate for deletes)");
        }
        out.collect(IggyMapChange.upsert(key, value));
    }

    /**
     * Changes typed by the key function's return type and the value deserializer's produced type.
     * Where Java erased the key type (a lambda returning a type parameter), the key is a generic
     * type.
     */
    @Override
    @SuppressWarnings("unchecked")
    public TypeInformation<IggyMapChange<K, V>> getProducedType() {
        TypeInformation<K> keyType =
                TypeExtractor.getUnaryOperatorReturnType(
                        keyFunction,
                        KeyFunction.class,
                        -1,
                        0,
                        TypeExtractor.NO_INDEX,
                        null,
                        "key function",
                        true);
        if (keyType instanceof MissingTypeInfo) {
            keyType = (TypeInformation<K>) new GenericTypeInfo<>(Object.class);
        }
        return IggyMapChangeTypeInfo.of(keyType, valueDeserializer.getProducedType());
    }
}

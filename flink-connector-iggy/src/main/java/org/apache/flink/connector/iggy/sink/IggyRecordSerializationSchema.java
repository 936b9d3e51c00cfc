package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.SerializationSchema;

import javax.annotation.Nullable;

import java.io.Serializable;

/**
 * Turns a record into the message the sink sends: payload, user headers, message id, origin
 * timestamp and target partition. {@link #builder()} covers the common cases; implement it directly
 * for full control (the table sink does).
 *
 * @param <T> the sink's record type
 */
@PublicEvolving
public interface IggyRecordSerializationSchema<T> extends Serializable {

    /** Called once per writer before the first record. */
    default void open(
            SerializationSchema.InitializationContext context, IggySinkContext sinkContext)
            throws Exception {}

    /**
     * The message for {@code element}, or {@code null} to send nothing for it.
     *
     * @param timestamp the record's Flink timestamp in milliseconds, if it has one
     */
    @Nullable
    IggySinkRecord serialize(T element, IggySinkContext context, @Nullable Long timestamp);

    static <T> IggyRecordSerializationSchemaBuilder<T> builder() {
        return new IggyRecordSerializationSchemaBuilder<>();
    }
}

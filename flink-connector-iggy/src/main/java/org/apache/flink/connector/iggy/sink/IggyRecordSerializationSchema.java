package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.SerializationSchema;

import javax.annotation.Nullable;

import java.io.Serializable;

/**
 * Turns a record into the message the sink sends: payload, user headers, message id, origin
 * timestamp and target partition. For full control, give one to {@link
 * IggySinkBuilder#setRecordSerializer}; the builder's value and key serialization schemas, headers
 * and message id functions cover the common cases without one.
 *
 * @param <T> the sink's record type
 */
@PublicEvolving
public interface IggyRecordSerializationSchema<T> extends Serializable {

    /**
     * Called once per writer before the first record.
     *
     * @param subtaskId the index of the writer's subtask
     * @param parallelism the number of parallel writers
     */
    default void open(
            SerializationSchema.InitializationContext context, int subtaskId, int parallelism)
            throws Exception {}

    /**
     * The message for {@code element}, or {@code null} to send nothing for it.
     *
     * @param partitionCount the number of partitions of the target topic, as read when the writer
     *     connected
     * @param timestamp the record's Flink timestamp in milliseconds, if it has one
     */
    @Nullable
    IggySinkRecord serialize(T element, int partitionCount, @Nullable Long timestamp);
}

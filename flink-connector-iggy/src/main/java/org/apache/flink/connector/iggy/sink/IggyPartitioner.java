package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;

import javax.annotation.Nullable;

import java.io.Serializable;

/**
 * Chooses the target partition of a record. Partitions are chosen by the writer, not the server, so
 * that every batch goes to one partition. Built-in choices are in {@link IggyPartitioners}.
 *
 * @param <T> the sink's record type
 */
@PublicEvolving
@FunctionalInterface
public interface IggyPartitioner<T> extends Serializable {

    /** Called once per writer before the first record. */
    default void open(IggySinkContext context) {}

    /**
     * The partition id for {@code record}, in {@code [0, partitionCount)}.
     *
     * @param key the record's key bytes if the schema has a key serializer, else {@code null}
     */
    long partition(T record, @Nullable byte[] key, byte[] payload, int partitionCount);
}

package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.iggy.common.IggyMapChange;

import javax.annotation.Nullable;

import java.io.Serializable;

/**
 * How the keyed-map sink reads a change of type {@code IN}: its key bytes, whether it is an upsert
 * or a delete, the value bytes of an upsert and the payload that announces a delete.
 *
 * <p>The DataStream builder provides one for {@link IggyMapChange}; the table sink implements it
 * for {@code RowData}.
 *
 * @param <IN> the change type
 */
@PublicEvolving
public interface IggyMapChangeEncoder<IN> extends Serializable {

    /** Called once per subtask before the first change. */
    default void open(SerializationSchema.InitializationContext context) throws Exception {}

    /** What {@code change} does, or {@code null} to ignore it (e.g. an UPDATE_BEFORE row). */
    @Nullable
    IggyMapChange.Kind kind(IN change);

    /** The key bytes: hashed into idempotent message ids and used for key partitioning. */
    byte[] key(IN change);

    /** The payload of an upsert (only the value bytes are sent and fingerprinted). */
    byte[] value(IN change);

    /** Whether deletes can be encoded; without it, a delete of a sent key fails the job. */
    boolean hasDeletionValue();

    /** The payload that announces the deletion of {@code change}'s key. */
    byte[] deletionValue(IN change);

    /** The option that provides deletion payloads, as the tombstone error names it. */
    default String deletionValueOption() {
        return "setDeletionValueFunction";
    }
}

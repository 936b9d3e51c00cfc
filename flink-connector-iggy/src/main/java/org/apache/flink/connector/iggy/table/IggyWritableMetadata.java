package org.apache.flink.connector.iggy.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.DataType;

/** The metadata columns the {@code iggy} sink can write. */
@Internal
enum IggyWritableMetadata {
    /** User headers, each value written as raw bytes. */
    HEADERS(
            "headers",
            DataTypes.MAP(DataTypes.STRING().nullable(), DataTypes.BYTES().nullable()).nullable()),
    /** The unsigned 128-bit id, big-endian; NULL or all zero lets the server choose one. */
    MESSAGE_ID("message-id", DataTypes.BINARY(16).nullable()),
    /** Default: the row's Flink timestamp, or the time of writing. */
    ORIGIN_TIMESTAMP("origin-timestamp", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6).nullable()),
    /** The target partition; NULL leaves the choice to 'sink.partitioner'. */
    PARTITION("partition", DataTypes.INT().nullable());

    final String key;
    final DataType dataType;

    IggyWritableMetadata(String key, DataType dataType) {
        this.key = key;
        this.dataType = dataType;
    }

    static IggyWritableMetadata of(String key) {
        for (IggyWritableMetadata m : values()) {
            if (m.key.equals(key)) {
                return m;
            }
        }
        throw new IllegalArgumentException("Unknown metadata key: " + key);
    }
}

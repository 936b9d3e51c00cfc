package org.apache.flink.connector.iggy.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

import java.nio.charset.StandardCharsets;

/**
 * The primary key of an upsert row as a String for {@code keyBy}: the key columns' serialized bytes
 * read as ISO-8859-1, one char per byte. Equal keys give equal strings whatever the row class, and
 * the String's content-based hash stays the same after the key has been stored in state and
 * restored, which a {@code GenericRowData} key would not guarantee.
 */
@Internal
final class IggyRowKeySelector implements KeySelector<RowData, String> {

    private static final long serialVersionUID = 1L;

    private final IggyRowProjection keyColumns;
    private final TypeSerializer<RowData> keySerializer;
    private transient DataOutputSerializer buffer;

    IggyRowKeySelector(IggyRowProjection keyColumns, TypeInformation<RowData> keyType) {
        this.keyColumns = keyColumns;
        this.keySerializer = keyType.createSerializer(new SerializerConfigImpl());
    }

    @Override
    public String getKey(RowData row) throws Exception {
        if (buffer == null) {
            buffer = new DataOutputSerializer(64);
        }
        buffer.clear();
        keySerializer.serialize(keyColumns.project(row, RowKind.INSERT), buffer);
        return new String(
                buffer.getSharedBuffer(), 0, buffer.length(), StandardCharsets.ISO_8859_1);
    }
}

package org.apache.flink.connector.iggy.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.sink.IggyMapChangeEncoder;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

import javax.annotation.Nullable;

/**
 * How the {@code upsert-iggy} sink reads a changelog row for the keyed-map sink: INSERT and
 * UPDATE_AFTER upsert, DELETE deletes, UPDATE_BEFORE is ignored; key and value bytes come from the
 * key and value formats.
 */
@Internal
final class IggyRowDataMapChangeEncoder implements IggyMapChangeEncoder<RowData> {

    private static final long serialVersionUID = 1L;

    private final SerializationSchema<RowData> keyFormat;
    private final IggyRowProjection keyColumns;
    private final SerializationSchema<RowData> valueFormat;
    private final IggyRowProjection valueColumns;
    @Nullable private final byte[] deletionPayload;

    /**
     * @param deletionPayload what a deletion sends, or {@code null} when deletes cannot be encoded
     */
    IggyRowDataMapChangeEncoder(
            SerializationSchema<RowData> keyFormat,
            IggyRowProjection keyColumns,
            SerializationSchema<RowData> valueFormat,
            IggyRowProjection valueColumns,
            @Nullable byte[] deletionPayload) {
        this.keyFormat = keyFormat;
        this.keyColumns = keyColumns;
        this.valueFormat = valueFormat;
        this.valueColumns = valueColumns;
        this.deletionPayload = deletionPayload;
    }

    @Override
    public void open(SerializationSchema.InitializationContext context) throws Exception {
        keyFormat.open(context);
        valueFormat.open(context);
    }

    @Nullable
    @Override
    public IggyMapChange.Kind kind(RowData row) {
        switch (row.getRowKind()) {
            case INSERT:
            case UPDATE_AFTER:
                return IggyMapChange.Kind.UPSERT;
            case DELETE:
                return IggyMapChange.Kind.DELETE;
            default:
                return null;
        }
    }

    @Override
    public byte[] key(RowData row) {
        return keyFormat.serialize(keyColumns.project(row, RowKind.INSERT));
    }

    @Override
    public byte[] value(RowData row) {
        return valueFormat.serialize(valueColumns.project(row, RowKind.INSERT));
    }

    @Override
    public boolean hasDeletionValue() {
        return deletionPayload != null;
    }

    @Override
    public byte[] deletionValue(RowData row) {
        return deletionPayload;
    }

    @Override
    public String deletionValueOption() {
        return DELETION_VALUE_OPTION;
    }

    static final String DELETION_VALUE_OPTION =
            "'"
                    + IggyConnectorOptions.DELETE_ENCODING.key()
                    + "' = 'empty-payload' or 'custom-payload'";
}

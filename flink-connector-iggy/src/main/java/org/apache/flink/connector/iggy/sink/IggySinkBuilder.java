package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;

import javax.annotation.Nullable;

/**
 * Builds an {@link IggySink} that sends every record as one message.
 *
 * <pre>{@code
 * IggySink<String> sink = IggySink.<String>builder()
 *     .setConnection(IggyConnectionConfig.builder().setAddress("iggy:8090").build())
 *     .setStream("orders")
 *     .setTopic("enriched")
 *     .setRecordSerializer(IggyRecordSerializationSchema.<String>builder()
 *         .setValueSerializationSchema(new SimpleStringSchema())
 *         .build())
 *     .build();
 * }</pre>
 */
@PublicEvolving
public final class IggySinkBuilder<IN> extends IggySinkBuilderBase<IggySinkBuilder<IN>> {

    @Nullable private IggyRecordSerializationSchema<IN> recordSerializer;

    IggySinkBuilder() {}

    /** Required: payload, headers, id, timestamp and partition of each record's message. */
    public IggySinkBuilder<IN> setRecordSerializer(
            IggyRecordSerializationSchema<IN> recordSerializer) {
        this.recordSerializer = recordSerializer;
        return this;
    }

    public IggySink<IN> build() {
        IggyWriterConfig config = buildWriterConfig();
        if (recordSerializer == null) {
            throw new IllegalArgumentException(
                    "The record serializer is missing: call setRecordSerializer");
        }
        return new IggySink<>(config, recordSerializer);
    }
}

package org.apache.flink.connector.iggy.source;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;

import java.io.IOException;
import java.io.Serializable;
import java.util.Objects;

/**
 * Turns one Iggy message into zero or more records.
 *
 * <p>It sees the whole message (payload, user headers, id, offset, partition, timestamps). An
 * exception fails the job with the partition and offset named, unless the source skips undecodable
 * records ({@code IggySourceBuilder#setSkipUndecodableRecords}).
 *
 * @param <T> the record type
 */
@PublicEvolving
public interface IggyRecordDeserializationSchema<T> extends Serializable, ResultTypeQueryable<T> {

    /** Called once per reader before the first message; opens wrapped Flink formats. */
    default void open(Context context) throws Exception {}

    void deserialize(IggyMessage message, Collector<T> out) throws IOException;

    /**
     * What {@link #open} receives: Flink's initialization context plus the reader's {@code
     * numRecordsSkipped} counter, for messages a schema drops on purpose.
     */
    @PublicEvolving
    interface Context extends DeserializationSchema.InitializationContext {
        Counter skippedRecordsCounter();
    }

    /** Deserializes the payload with a Flink {@link DeserializationSchema} (any format). */
    static <T> IggyRecordDeserializationSchema<T> valueOnly(
            DeserializationSchema<T> valueDeserializer) {
        return new ValueOnly<>(valueDeserializer);
    }

    /** Every message's payload bytes, empty payloads included. */
    static IggyRecordDeserializationSchema<byte[]> payloads() {
        return new Payloads();
    }

    /** Adapts a Flink {@link DeserializationSchema} to the payload. */
    final class ValueOnly<T> implements IggyRecordDeserializationSchema<T> {
        private static final long serialVersionUID = 1L;

        private final DeserializationSchema<T> valueDeserializer;

        private ValueOnly(DeserializationSchema<T> valueDeserializer) {
            this.valueDeserializer = Objects.requireNonNull(valueDeserializer, "valueDeserializer");
        }

        @Override
        public void open(Context context) throws Exception {
            valueDeserializer.open(context);
        }

        @Override
        public void deserialize(IggyMessage message, Collector<T> out) throws IOException {
            valueDeserializer.deserialize(message.payload(), out);
        }

        @Override
        public TypeInformation<T> getProducedType() {
            return valueDeserializer.getProducedType();
        }
    }

    /** The payload bytes as they are. */
    final class Payloads implements IggyRecordDeserializationSchema<byte[]> {
        private static final long serialVersionUID = 1L;

        private Payloads() {}

        @Override
        public void deserialize(IggyMessage message, Collector<byte[]> out) {
            out.collect(message.payload());
        }

        @Override
        public TypeInformation<byte[]> getProducedType() {
            return PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;
        }
    }
}

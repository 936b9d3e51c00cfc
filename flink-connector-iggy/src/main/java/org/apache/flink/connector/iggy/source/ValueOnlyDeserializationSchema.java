package org.apache.flink.connector.iggy.source;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.Collector;

import java.io.IOException;
import java.util.Objects;

/** {@link IggyRecordDeserializationSchema#valueOnly}: a Flink format applied to the payload. */
@Internal
final class ValueOnlyDeserializationSchema<T> implements IggyRecordDeserializationSchema<T> {

    private static final long serialVersionUID = 1L;

    private final DeserializationSchema<T> valueDeserializer;

    ValueOnlyDeserializationSchema(DeserializationSchema<T> valueDeserializer) {
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

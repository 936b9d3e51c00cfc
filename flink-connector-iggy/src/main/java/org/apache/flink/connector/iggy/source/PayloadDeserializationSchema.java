package org.apache.flink.connector.iggy.source;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.Collector;

/** {@link IggyRecordDeserializationSchema#payloads}: the payload bytes as they are. */
@Internal
final class PayloadDeserializationSchema implements IggyRecordDeserializationSchema<byte[]> {

    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(IggyMessage message, Collector<byte[]> out) {
        out.collect(message.payload());
    }

    @Override
    public TypeInformation<byte[]> getProducedType() {
        return PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;
    }
}

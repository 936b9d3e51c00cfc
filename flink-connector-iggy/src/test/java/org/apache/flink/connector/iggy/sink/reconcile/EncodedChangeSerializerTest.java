package org.apache.flink.connector.iggy.sink.reconcile;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import java.nio.charset.StandardCharsets;

/** Flink's serializer contract for the changes the reconcile step receives. */
class EncodedChangeSerializerTest extends SerializerTestBase<EncodedChange> {

    @Override
    protected TypeSerializer<EncodedChange> createSerializer() {
        return EncodedChangeSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<EncodedChange> getTypeClass() {
        return EncodedChange.class;
    }

    @Override
    protected EncodedChange[] getTestData() {
        return new EncodedChange[] {
            new EncodedChange(bytes("k1"), false, bytes("v1"), null, 0),
            new EncodedChange(new byte[] {0, (byte) 0xFF, 0x7F}, false, new byte[0], null, -1),
            new EncodedChange(bytes("k1"), true, null, null, 0),
            new EncodedChange(bytes("k2"), true, bytes("gone"), new byte[] {1, 2, 3}, 42),
            new EncodedChange(bytes(""), false, new byte[4096], new byte[0], Long.MAX_VALUE)
        };
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

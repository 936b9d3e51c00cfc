package org.apache.flink.connector.iggy.sink.reconcile;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import java.nio.charset.StandardCharsets;

/** Flink's serializer contract for the messages the reconcile step hands to the writer. */
class ReconciledMessageSerializerTest extends SerializerTestBase<ReconciledMessage> {

    @Override
    protected TypeSerializer<ReconciledMessage> createSerializer() {
        return ReconciledMessageSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<ReconciledMessage> getTypeClass() {
        return ReconciledMessage.class;
    }

    @Override
    protected ReconciledMessage[] getTestData() {
        byte[] id = new byte[16];
        id[15] = 7;
        return new ReconciledMessage[] {
            new ReconciledMessage(bytes("k1"), bytes("v1"), null, null, 0),
            new ReconciledMessage(new byte[0], new byte[0], id, null, -5),
            new ReconciledMessage(bytes("k2"), new byte[4096], null, new byte[] {1, 2}, 42),
            new ReconciledMessage(bytes("k3"), bytes("v"), id, new byte[0], Long.MIN_VALUE)
        };
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

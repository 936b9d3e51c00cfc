package org.apache.flink.connector.iggy.testutils.server;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian access to byte arrays, the byte order of every integer on Iggy's wire. */
final class LittleEndian {
    private static final VarHandle INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {}

    static int getInt(byte[] bytes, int offset) {
        return (int) INT.get(bytes, offset);
    }

    static long getLong(byte[] bytes, int offset) {
        return (long) LONG.get(bytes, offset);
    }

    static void putInt(byte[] bytes, int offset, int value) {
        INT.set(bytes, offset, value);
    }

    static void putLong(byte[] bytes, int offset, long value) {
        LONG.set(bytes, offset, value);
    }
}

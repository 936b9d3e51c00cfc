package org.apache.flink.connector.iggy.testutils.server;

/**
 * The messages of one send, kept in their wire encoding with the server fields (id, offset,
 * timestamp) filled in. A poll copies ranges of {@code data} straight to the socket.
 *
 * <p>Never modified after it has been appended to a {@link PartitionLog}.
 *
 * @param firstOffset offset of the first message
 * @param timestamp server timestamp (µs) shared by every message of the batch
 * @param data the encoded messages back to back
 * @param ends {@code ends[i]} is the end position of message {@code i} in {@code data}
 */
record StoredBatch(long firstOffset, long timestamp, byte[] data, int[] ends) {

    int count() {
        return ends.length;
    }

    int start(int index) {
        return index == 0 ? 0 : ends[index - 1];
    }
}

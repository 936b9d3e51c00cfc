package org.apache.flink.connector.iggy.testutils.server;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Hands out 0-based ids the way the real server's slabs do: a freed id is reused before a new one
 * is taken, and the most recently freed id comes first.
 *
 * <p>Example: allocate 0, 1, 2; free 0 then 2; the next allocations return 2, 0, then 3.
 */
final class IdAllocator {
    private final Deque<Integer> freed = new ArrayDeque<>();
    private int next;

    int allocate() {
        Integer reused = freed.pollFirst();
        return reused != null ? reused : next++;
    }

    void free(int id) {
        freed.addFirst(id);
    }
}

package org.apache.flink.connector.iggy.testutils.server;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Slab-like id reuse (docs/iggy-protocol.md §4). */
class IdAllocatorTest {

    @Test
    void freedIdsAreReusedMostRecentlyFreedFirst() {
        IdAllocator ids = new IdAllocator();
        assertThat(ids.allocate()).isZero();
        assertThat(ids.allocate()).isEqualTo(1);
        assertThat(ids.allocate()).isEqualTo(2);

        ids.free(0);
        ids.free(2);

        assertThat(ids.allocate()).isEqualTo(2);
        assertThat(ids.allocate()).isZero();
        assertThat(ids.allocate()).isEqualTo(3);
    }
}

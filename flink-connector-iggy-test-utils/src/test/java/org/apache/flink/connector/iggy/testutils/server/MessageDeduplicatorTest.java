package org.apache.flink.connector.iggy.testutils.server;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The id window of deduplication: size bound and expiry, driven by explicit timestamps. */
class MessageDeduplicatorTest {

    @Test
    void anIdIsRefusedWithinTheWindowAndAcceptedAfterItExpires() {
        MessageDeduplicator deduplicator = new MessageDeduplicator(10, 1_000);

        assertThat(deduplicator.recordIfNew(1, 0, 0)).isTrue();
        assertThat(deduplicator.recordIfNew(1, 0, 999)).isFalse();
        assertThat(deduplicator.recordIfNew(1, 0, 1_000)).isTrue();
    }

    @Test
    void theOldestIdIsForgottenBeyondMaxEntries() {
        MessageDeduplicator deduplicator = new MessageDeduplicator(2, 1_000_000);

        deduplicator.recordIfNew(1, 0, 0);
        deduplicator.recordIfNew(2, 0, 0);
        deduplicator.recordIfNew(3, 0, 0);

        assertThat(deduplicator.recordIfNew(1, 0, 1)).isTrue();
        assertThat(deduplicator.recordIfNew(3, 0, 1)).isFalse();
    }

    @Test
    void bothHalvesOfTheIdCount() {
        MessageDeduplicator deduplicator = new MessageDeduplicator(10, 1_000);

        deduplicator.recordIfNew(1, 2, 0);

        assertThat(deduplicator.recordIfNew(1, 3, 0)).isTrue();
        assertThat(deduplicator.recordIfNew(2, 2, 0)).isTrue();
        assertThat(deduplicator.recordIfNew(1, 2, 0)).isFalse();
    }
}

package org.apache.flink.connector.iggy.testing;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/**
 * The Flink MiniCluster the integration tests run their jobs on: one TaskManager, started once per
 * test class. Register it as {@code @RegisterExtension static final MiniClusterExtension FLINK =
 * MiniClusters.withSlots(n);} next to the {@code IggyServerExtension}.
 */
public final class MiniClusters {

    private MiniClusters() {}

    /** One TaskManager with {@code slots} slots: enough for jobs of parallelism up to that. */
    public static MiniClusterExtension withSlots(int slots) {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(slots)
                        .build());
    }
}

package org.apache.flink.connector.iggy.table;

import org.apache.flink.annotation.Internal;

/**
 * The {@code upsert-iggy} table connector: reads a topic as a keyed map (changelog upsert on the
 * PRIMARY KEY) and writes a changelog with reconciliation, so that unchanged rows send nothing and
 * deletes travel by the configured delete encoding.
 */
@Internal
public final class UpsertIggyDynamicTableFactory extends IggyTableFactoryBase {

    public static final String IDENTIFIER = "upsert-iggy";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    boolean upsert() {
        return true;
    }
}

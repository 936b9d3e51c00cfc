package org.apache.flink.connector.iggy.table;

import org.apache.flink.annotation.Internal;

/**
 * The {@code iggy} table connector: an append-only source and sink of one Iggy topic, with any
 * Flink format for the payload and, optionally, a key carried in a user header.
 */
@Internal
public final class IggyDynamicTableFactory extends IggyTableFactoryBase {

    public static final String IDENTIFIER = "iggy";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    boolean upsert() {
        return false;
    }
}

package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.annotation.Internal;

/** Describes the source's topic now; owns whatever connection that needs. */
@Internal
interface TopicDescriber extends AutoCloseable {

    /** The topic's partitions and their offsets, or an error naming what is missing. */
    PartitionOffsets describe();

    @Override
    void close();
}

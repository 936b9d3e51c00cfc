package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.annotation.Internal;

import java.util.Collection;
import java.util.Optional;
import java.util.OptionalLong;

/** What the split planner needs to know about the offsets of a topic's partitions. */
@Internal
interface PartitionOffsets {

    /** The ids of the topic's partitions. */
    Collection<Long> partitionIds();

    /** The exclusive end (next offset) of the partition when it was described; 0 when empty. */
    long highWatermark(long partitionId);

    /** The offset stored under the consumer name (the last processed one), if any. */
    Optional<Long> storedOffset(long partitionId);

    /** The first offset whose server timestamp is at or after {@code timestampMillis}, if any. */
    OptionalLong firstOffsetAtOrAfter(long partitionId, long timestampMillis);
}

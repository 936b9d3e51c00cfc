package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;

/** What a serialization schema or partitioner may know about the writer it runs in. */
@PublicEvolving
public interface IggySinkContext {

    /** Index of this writer's subtask. */
    int subtaskId();

    /** Number of parallel writers. */
    int parallelism();

    /** Number of partitions of the target topic, as read when the writer started. */
    int partitionCount();
}

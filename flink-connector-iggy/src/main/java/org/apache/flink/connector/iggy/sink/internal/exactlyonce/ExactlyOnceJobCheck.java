/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.apache.flink.connector.iggy.sink.internal.exactlyonce;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.config.WriteAheadPlacement;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.transformations.WithBoundedness;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses, while the job graph is built, a job in which an exactly-once sink cannot keep its
 * promise: one without checkpointing, or one run in BATCH mode.
 *
 * <p>Without checkpointing nothing is committed until the end of the input, and that final commit
 * is not read back when it is retried after a failover, so it could append twice. In BATCH mode the
 * committer runs at the end of the input too, and a failover re-runs the writer, whose new message
 * ids do not match those of a commit cut short. Both would silently duplicate output.
 */
@Internal
public final class ExactlyOnceJobCheck {

    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceJobCheck.class);

    private ExactlyOnceJobCheck() {}

    /**
     * Also chooses where the sink keeps its write-ahead messages, now that the job's checkpoint
     * directory is known (see {@link WriteAheadPlacement}).
     *
     * @throws IllegalStateException in BATCH mode, naming the setting to change
     */
    public static void check(DataStream<?> input, IggyWriterConfig config) {
        StreamExecutionEnvironment env = input.getExecutionEnvironment();
        WriteAheadPlacement placement = config.writeAhead();
        placement.resolve(env.getConfiguration());
        if (placement.onLocalDisk()) {
            LOG.warn(
                    "An exactly-once Iggy sink for {} has no write-ahead directory, so it keeps"
                            + " each checkpoint's messages in {}: a TaskManager lost with its"
                            + " machine takes the messages of its pending commits along, and the"
                            + " job cannot recover from that checkpoint. Set the checkpoint"
                            + " directory ('execution.checkpointing.dir') or"
                            + " 'sink.exactly-once.write-ahead-dir' (setExactlyOnceWriteAheadDir)"
                            + " to a durable directory.",
                    config.target(),
                    placement);
        } else {
            LOG.info(
                    "An exactly-once Iggy sink for {} keeps its messages in {}",
                    config.target(),
                    placement);
        }
        RuntimeExecutionMode mode = env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE);
        if (mode == RuntimeExecutionMode.BATCH
                || (mode == RuntimeExecutionMode.AUTOMATIC && allInputsBounded(input))) {
            throw new IllegalStateException(
                    "An exactly-once Iggy sink for "
                            + config.target()
                            + " cannot run in BATCH mode (execution.runtime-mode is "
                            + mode
                            + (mode == RuntimeExecutionMode.AUTOMATIC
                                    ? " and every source of the sink is bounded"
                                    : "")
                            + "): a failover during its final commit would append messages"
                            + " twice. Run the job in STREAMING mode with checkpointing"
                            + " ('execution.runtime-mode: STREAMING' and"
                            + " 'execution.checkpointing.interval'), or use AT_LEAST_ONCE.");
        }
        if (!env.getCheckpointConfig().isCheckpointingEnabled()) {
            LOG.warn(
                    "An exactly-once Iggy sink for {} runs without checkpointing: its output is"
                            + " sent only when a savepoint completes or a bounded input ends, and"
                            + " a failover repeats what followed the last savepoint. Set"
                            + " 'execution.checkpointing.interval' (e.g. 10 s) for exactly-once.",
                    config.target());
        }
    }

    private static boolean allInputsBounded(DataStream<?> input) {
        for (Transformation<?> t : input.getTransformation().getTransitivePredecessors()) {
            if (t instanceof WithBoundedness
                    && ((WithBoundedness) t).getBoundedness() != Boundedness.BOUNDED) {
                return false;
            }
        }
        return true;
    }
}

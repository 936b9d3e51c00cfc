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
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.shim.CheckpointStorageInCode;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.config.WriteAheadPlacement;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.transformations.WithBoundedness;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * Refuses, while the job graph is built, a job in which an exactly-once sink cannot keep its
 * promise: one whose write-ahead files would have no durable place, or one run in BATCH mode; and
 * warns of one without checkpointing.
 *
 * <p>The write-ahead files hold each checkpoint's messages until the committer sends them, and
 * after a failover the committer may run on another TaskManager than the writer: on a TaskManager's
 * own disk they would be lost with its host, and the job could then neither commit nor skip that
 * checkpoint without losing or repeating output. So the sink's own directory or the job's
 * checkpoint directory must be known here (see {@link WriteAheadPlacement}).
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
     * directory is known: the one its configuration names, or, on Flink 1.20, the checkpoint
     * storage set in code.
     *
     * @throws IggyConfigurationException without a write-ahead or checkpoint directory, naming
     *     both, or in BATCH mode, naming the setting to change; listing every problem found
     */
    public static void check(DataStream<?> input, IggyWriterConfig config) {
        StreamExecutionEnvironment env = input.getExecutionEnvironment();
        List<String> problems = new ArrayList<>();
        WriteAheadPlacement placement = config.writeAhead();
        if (!placement.resolve(checkpointDirectory(env))) {
            problems.add(
                    "it has no durable place for its write-ahead files, which hold each"
                            + " checkpoint's messages until its committer sends them: set the"
                            + " sink's write-ahead directory (setExactlyOnceWriteAheadDir, or"
                            + " 'sink.exactly-once.write-ahead-dir' in SQL) or the job's"
                            + " checkpoint directory ('execution.checkpointing.dir') where the"
                            + " job is built, to a directory that every TaskManager reaches and"
                            + " that outlives any of them (a distributed file system, an object"
                            + " store or a shared mount). After a failover the committer may run"
                            + " on another TaskManager, and a lost host takes its own disk along");
        }
        RuntimeExecutionMode mode = env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE);
        if (mode == RuntimeExecutionMode.BATCH
                || (mode == RuntimeExecutionMode.AUTOMATIC && allInputsBounded(input))) {
            problems.add(
                    "it cannot run in BATCH mode (execution.runtime-mode is "
                            + mode
                            + (mode == RuntimeExecutionMode.AUTOMATIC
                                    ? " and every source of the sink is bounded"
                                    : "")
                            + "): a failover during its final commit would append messages"
                            + " twice. Run the job in STREAMING mode with checkpointing"
                            + " ('execution.runtime-mode: STREAMING' and"
                            + " 'execution.checkpointing.interval'), or use AT_LEAST_ONCE");
        }
        if (!problems.isEmpty()) {
            throw new IggyConfigurationException(
                    "Refused an exactly-once Iggy sink for "
                            + config.target()
                            + ": "
                            + String.join("; ", problems)
                            + ".");
        }
        LOG.info(
                "An exactly-once Iggy sink for {} keeps its messages in {}",
                config.target(),
                placement);
        if (!env.getCheckpointConfig().isCheckpointingEnabled()) {
            LOG.warn(
                    "An exactly-once Iggy sink for {} runs without checkpointing: its output is"
                            + " sent only when a savepoint completes or a bounded input ends, and"
                            + " a failover repeats what followed the last savepoint. Set"
                            + " 'execution.checkpointing.interval' (e.g. 10 s) for exactly-once.",
                    config.target());
        }
    }

    /** The job's checkpoint directory: set in code (Flink 1.20), else in its configuration. */
    @Nullable
    private static String checkpointDirectory(StreamExecutionEnvironment env) {
        String inCode = CheckpointStorageInCode.directory(env);
        return inCode != null
                ? inCode
                : env.getConfiguration()
                        .getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY)
                        .orElse(null);
    }

    private static boolean allInputsBounded(DataStream<?> input) {
        for (Transformation<?> t : input.getTransformation().getTransitivePredecessors()) {
            if (t instanceof WithBoundedness b && b.getBoundedness() != Boundedness.BOUNDED) {
                return false;
            }
        }
        return true;
    }
}

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
package org.apache.flink.connector.iggy.examples;

import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The keyed-map example pipeline as a job for a running Flink cluster (the main class of the job
 * jar, {@code flink-connector-iggy-e2e-*-job.jar}). Unlike {@link KeyedMapExample} it neither
 * prepares topics nor reads results: whoever submits it owns the data.
 *
 * <pre>
 * --address host:port  --stream NAME  [--username U --password P]
 * [--live]                      run unbounded (default: bounded at the latest offsets at start)
 * [--checkpoint-interval MS]    enable checkpointing (default: off)
 * </pre>
 */
public final class ClusterJob {

    private ClusterJob() {}

    public static void main(String[] args) throws Exception {
        String stream = JobArgs.required(args, "--stream");
        boolean live = JobArgs.flag(args, "--live");
        String checkpointInterval = JobArgs.option(args, "--checkpoint-interval");

        IggyConnectionConfig connection = JobArgs.connection(args);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        if (checkpointInterval != null) {
            env.enableCheckpointing(Long.parseLong(checkpointInterval));
        }
        KeyedMapExample.buildPipeline(
                env, connection, stream, live ? null : IggyStoppingOffsets.latest());
        env.execute((live ? "live" : "bounded") + " keyed-map job on " + stream);
    }
}

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

        IggyConnectionConfig connection =
                IggyConnectionConfig.builder()
                        .setAddress(JobArgs.required(args, "--address"))
                        .setCredentials(
                                JobArgs.orDefault(args, "--username", "iggy"),
                                JobArgs.orDefault(args, "--password", "iggy"))
                        .build();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        if (checkpointInterval != null) {
            env.enableCheckpointing(Long.parseLong(checkpointInterval));
        }
        KeyedMapExample.buildPipeline(
                env, connection, stream, live ? null : IggyStoppingOffsets.latest());
        env.execute((live ? "live" : "bounded") + " keyed-map job on " + stream);
    }
}

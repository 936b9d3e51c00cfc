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
        String address = required(args, "--address");
        String stream = required(args, "--stream");
        boolean live = java.util.Arrays.asList(args).contains("--live");
        String checkpointInterval = option(args, "--checkpoint-interval");

        IggyConnectionConfig connection =
                IggyConnectionConfig.builder()
                        .setAddress(address)
                        .setCredentials(
                                orDefault(option(args, "--username"), "iggy"),
                                orDefault(option(args, "--password"), "iggy"))
                        .build();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        if (checkpointInterval != null) {
            env.enableCheckpointing(Long.parseLong(checkpointInterval));
        }
        KeyedMapExample.buildPipeline(
                env, connection, stream, live ? null : IggyStoppingOffsets.latest());
        env.execute((live ? "live" : "bounded") + " keyed-map job on " + stream);
    }

    private static String required(String[] args, String name) {
        String value = option(args, name);
        if (value == null) {
            throw new IllegalArgumentException("Missing " + name + " (see ClusterJob's javadoc)");
        }
        return value;
    }

    private static String option(String[] args, String name) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return null;
    }

    private static String orDefault(String value, String fallback) {
        return value == null ? fallback : value;
    }
}

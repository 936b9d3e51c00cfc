package org.apache.flink.connector.iggy.e2e;

import org.apache.flink.connector.iggy.examples.ClusterJob;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;

import org.apache.iggy.message.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The job jar on a real, multi-process Flink session cluster (see {@link FlinkCluster}): the
 * JobManager and the TaskManagers are separate JVMs that know nothing of the connector but what the
 * uploaded jar brings, and reach the Iggy server of this JVM (or {@code IGGY_TCP_ADDRESS}) over
 * TCP.
 */
class FlinkClusterITCase {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);
    private static final String EVENTS = "events";
    private static final String LATEST = "latest";

    /** The consumer name the example's source stores offsets under. */
    private static final String CONSUMER = "keyed-map-example";

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static FlinkCluster cluster;
    private static String jarId;

    @BeforeAll
    static void startCluster() throws Exception {
        Path home = Path.of("target", "flink-cluster-" + System.currentTimeMillis());
        cluster = FlinkCluster.start(home, 2, STARTUP);
        jarId = cluster.uploadJar(jobJar());
    }

    @AfterAll
    static void stopCluster() throws InterruptedException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void boundedKeyedMapJobWritesOneMessagePerChange() throws Exception {
        String stream = createTopics("bounded");
        send(stream, List.of("k1=v1", "k2=v2", "k1=v1", "k1=v1b"));

        String job = cluster.runJar(jarId, ClusterJob.class.getName(), jobArgs(stream));
        cluster.awaitJobState(job, "FINISHED", JOB_TIMEOUT);

        assertThat(payloads(IGGY.readAll(stream, LATEST, 0)))
                .containsExactly("k1=v1", "k2=v2", "k1=v1b");
        IGGY.deleteStream(stream);
    }

    /**
     * A live job loses its only TaskManager to SIGKILL after a checkpoint and recovers on a new
     * one.
     *
     * <p>Input: keys k0..k49 with value {@code a}; after the kill, every key again, the even ones
     * unchanged ({@code a}) and the odd ones changed to {@code b}. The job restores the source
     * offsets and the sink's per-key fingerprints of the last completed checkpoint and replays what
     * followed it, so a change written between that checkpoint and the kill is written again
     * (at-least-once; Iggy has no transactions). What is asserted, per key, on the output topic:
     *
     * <ul>
     *   <li>its last value is the key's final input value — nothing is lost;
     *   <li>with repeats of the same value collapsed, it is exactly the key's sequence of changes:
     *       {@code a} for even keys (their unchanged repeat is never written), {@code a, b} for odd
     *       ones — a value is never invented, reordered or re-sent once a newer one was written;
     *       the only duplicates are the replayed ones right after each other.
     * </ul>
     *
     * <p>And the offset the source stores in Iggy at checkpoints never runs ahead of the output:
     * read right after the kill, every input message up to it is already in the output topic; at
     * the end it is the last input offset (the new TaskManager stores offsets too).
     */
    @Test
    void liveJobSurvivesTaskManagerKillWithoutLosingAChange() throws Exception {
        String stream = createTopics("failover");
        int keys = 50;
        List<String> first = IntStream.range(0, keys).mapToObj(k -> "k" + k + "=a").toList();
        List<String> second =
                IntStream.range(0, keys)
                        .mapToObj(k -> "k" + k + "=" + (k % 2 == 0 ? "a" : "b"))
                        .toList();
        send(stream, first);

        List<String> args = new ArrayList<>(jobArgs(stream));
        args.addAll(List.of("--live", "--checkpoint-interval", "500"));
        String job = cluster.runJar(jarId, ClusterJob.class.getName(), args);
        try {
            cluster.awaitJobState(job, "RUNNING", JOB_TIMEOUT);
            cluster.await(
                    "output, a completed checkpoint and a stored offset",
                    JOB_TIMEOUT,
                    () ->
                            IGGY.messagesCount(stream, LATEST, 0) > 0
                                    && cluster.completedCheckpoints(job) > 0
                                    && storedOffset(stream).isPresent());

            cluster.killTaskManager();
            long storedAtKill = storedOffset(stream).orElseThrow();
            List<String> outputAtKill = payloads(IGGY.readAll(stream, LATEST, 0));
            assertThat(outputAtKill)
                    .as("every input up to the stored offset %d is in the output", storedAtKill)
                    .containsAll(first.subList(0, (int) storedAtKill + 1));

            cluster.startTaskManager(STARTUP);
            send(stream, second);

            long lastOffset = first.size() + second.size() - 1;
            Map<String, List<String>> expectedChanges = new LinkedHashMap<>();
            for (int k = 0; k < keys; k++) {
                expectedChanges.put("k" + k, k % 2 == 0 ? List.of("a") : List.of("a", "b"));
            }
            cluster.await(
                    "every key's final value in the output and the last offset stored",
                    JOB_TIMEOUT,
                    () ->
                            lastValues(stream).equals(lastValues(second))
                                    && storedOffset(stream).orElse(-1L) == lastOffset);

            Map<String, List<String>> output =
                    valuesByKey(payloads(IGGY.readAll(stream, LATEST, 0)));
            Map<String, List<String>> collapsed = new LinkedHashMap<>();
            output.forEach((key, values) -> collapsed.put(key, collapseRepeats(values)));
            assertThat(collapsed).isEqualTo(expectedChanges);
            assertThat(storedOffset(stream)).contains(lastOffset);
            assertThat(cluster.jobState(job)).isEqualTo("RUNNING");
        } finally {
            cluster.cancel(job);
        }
        IGGY.deleteStream(stream);
    }

    // ---------------------------------------------------------------------------------- helpers

    private static Path jobJar() throws IOException {
        try (DirectoryStream<Path> jars =
                Files.newDirectoryStream(Path.of("target"), "flink-connector-iggy-e2e-*-job.jar")) {
            for (Path jar : jars) {
                return jar;
            }
        }
        throw new IllegalStateException(
                "No target/flink-connector-iggy-e2e-*-job.jar: run the tests through Maven"
                        + " (process-classes builds it)");
    }

    private static List<String> jobArgs(String stream) {
        return List.of(
                "--address", IGGY.address(),
                "--username", IGGY.username(),
                "--password", IGGY.password(),
                "--stream", stream);
    }

    private static String createTopics(String prefix) {
        String stream = IGGY.uniqueName(prefix);
        IGGY.createStream(stream);
        IGGY.createTopic(stream, EVENTS, 1);
        IGGY.createTopic(stream, LATEST, 1);
        return stream;
    }

    private static void send(String stream, List<String> lines) {
        IGGY.send(
                stream,
                EVENTS,
                0,
                lines.stream().map(line -> line.getBytes(StandardCharsets.UTF_8)).toList());
    }

    private static Optional<Long> storedOffset(String stream) {
        return IGGY.storedOffset(stream, EVENTS, 0, CONSUMER);
    }

    private static List<String> payloads(List<Message> messages) {
        return messages.stream().map(m -> new String(m.payload(), StandardCharsets.UTF_8)).toList();
    }

    private static Map<String, String> lastValues(String stream) {
        return lastValues(payloads(IGGY.readAll(stream, LATEST, 0)));
    }

    private static Map<String, String> lastValues(List<String> lines) {
        Map<String, String> last = new LinkedHashMap<>();
        valuesByKey(lines).forEach((key, values) -> last.put(key, values.get(values.size() - 1)));
        return last;
    }

    /** {@code k=v} lines grouped by key, each key's values in order. */
    private static Map<String, List<String>> valuesByKey(List<String> lines) {
        Map<String, List<String>> byKey = new LinkedHashMap<>();
        for (String line : lines) {
            int eq = line.indexOf('=');
            byKey.computeIfAbsent(line.substring(0, eq), k -> new ArrayList<>())
                    .add(line.substring(eq + 1));
        }
        return byKey;
    }

    private static List<String> collapseRepeats(List<String> values) {
        List<String> collapsed = new ArrayList<>();
        for (String value : values) {
            if (collapsed.isEmpty() || !collapsed.get(collapsed.size() - 1).equals(value)) {
                collapsed.add(value);
            }
        }
        return collapsed;
    }
}

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
package org.apache.flink.connector.iggy.sink.internal.committer;

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.IggySinkBuilder;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.TestCommittables;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriteAheadFile;
import org.apache.flink.connector.iggy.sink.testutils.IggySinkExternalContext;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.server.EmbeddedIggyServer;
import org.apache.flink.connector.iggy.testutils.server.FlushRequest;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The committer asks the server to flush each committed partition with fsync before it deletes any
 * write-ahead file of that commit, unless the sink turned that off. The in-JVM server does no I/O
 * for a flush; it records each one, which is what these tests look at.
 */
class FsyncBeforeDeleteITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static final String TOPIC = "durable";

    @TempDir Path dir;

    private String stream;

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("fsync");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, TOPIC, 3);
    }

    @Test
    void eachCommittedPartitionIsFlushedWithFsyncOnceBeforeAnyFileOfTheCommitIsDeleted()
            throws Exception {
        List<IggyCommittable> committables =
                List.of(committable(0, 7), committable(2, 7), committable(2, 8));
        Map<Path, List<FlushRequest>> flushedBeforeDeleting = new ConcurrentHashMap<>();

        try (IggyCommitter committer =
                committer(
                        config(true),
                        file -> {
                            flushedBeforeDeleting.put(path(file), flushes());
                            file.discard();
                        })) {
            List<RecordingCommitRequest> requests = new ArrayList<>();
            committables.forEach(c -> requests.add(new RecordingCommitRequest(c)));
            committer.commit(List.copyOf(requests));
            assertThat(requests).allMatch(r -> r.outcome.equals("committed"));
        }

        List<FlushRequest> expected =
                List.of(
                        new FlushRequest(stream, TOPIC, 0, true),
                        new FlushRequest(stream, TOPIC, 2, true));
        assertThat(flushedBeforeDeleting)
                .as("the flushes seen as each file was deleted")
                .hasSize(3)
                .allSatisfy(
                        (file, flushed) ->
                                assertThat(flushed).containsExactlyInAnyOrderElementsOf(expected));
        assertThat(flushes()).as("one flush per partition").hasSize(2);
        for (IggyCommittable c : committables) {
            assertThat(path(c.file())).doesNotExist();
        }
    }

    @Test
    void withTheOptionOffNothingIsFlushedAndTheFilesAreDeleted() throws Exception {
        IggyCommittable committable = committable(1, 4);

        try (IggyCommitter committer = committer(config(false), WriteAheadFile::discard)) {
            RecordingCommitRequest request = new RecordingCommitRequest(committable);
            committer.commit(List.of(request));
            assertThat(request.outcome).isEqualTo("committed");
        }

        assertThat(IGGY.messagesCount(stream, TOPIC, 1)).isEqualTo(5);
        assertThat(path(committable.file())).doesNotExist();
        assertThat(flushes()).isEmpty();
    }

    /** A committable restored complete (nothing to send) is flushed too: its file goes now. */
    @Test
    void aRestoredCommitFoundCompleteIsFlushedBeforeItsFileIsDeleted() throws Exception {
        IggyCommittable committable = committable(1, 4);
        try (IggyCommitter committer = committer(config(false), file -> {})) {
            committer.commit(List.of(new RecordingCommitRequest(committable)));
        }
        assertThat(flushes()).isEmpty();
        List<List<FlushRequest>> flushedBeforeDeleting = new ArrayList<>();

        RecordingCommitRequest again = new RecordingCommitRequest(committable);
        try (IggyCommitter committer =
                new IggyCommitter(
                        config(true),
                        OptionalLong.of(4),
                        new UnregisteredMetricsGroup(),
                        IggyCommitter.NOTHING,
                        file -> flushedBeforeDeleting.add(flushes()),
                        CommitterTesting.epochs(dir))) {
            committer.commit(List.of(again));
        }

        assertThat(again.outcome).isEqualTo("already committed");
        assertThat(flushedBeforeDeleting)
                .containsExactly(List.of(new FlushRequest(stream, TOPIC, 1, true)));
    }

    private IggyCommitter committer(IggyWriterConfig config, CommittedFiles.Deletion deletion) {
        return new IggyCommitter(
                config,
                OptionalLong.empty(),
                new UnregisteredMetricsGroup(),
                IggyCommitter.NOTHING,
                deletion,
                CommitterTesting.epochs(dir));
    }

    private IggyWriterConfig config(boolean fsync) {
        IggySinkBuilder<String> builder =
                IggySink.<String>builder()
                        .setConnection(IggySinkExternalContext.connection(IGGY))
                        .setStream(stream)
                        .setTopic(TOPIC)
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE);
        if (!fsync) {
            builder.setExactlyOnceFsyncBeforeDelete(false);
        }
        return builder.build().writerConfig();
    }

    /** The flushes the server answered for this test's stream. */
    private List<FlushRequest> flushes() {
        EmbeddedIggyServer server =
                IGGY.embeddedServer()
                        .orElseThrow(() -> new IllegalStateException("needs the in-JVM server"));
        return server.flushRequests().stream().filter(f -> f.stream().equals(stream)).toList();
    }

    /** Five messages for the partition in checkpoint {@code checkpoint}. */
    private IggyCommittable committable(long partition, long checkpoint) {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            texts.add("p" + partition + "-cp" + checkpoint + "-" + i);
        }
        return TestCommittables.ofTexts(
                dir,
                IggyId.of(stream),
                IggyId.of(TOPIC),
                partition,
                checkpoint,
                IggyCommittable.tag(0xF5L, checkpoint),
                0,
                texts);
    }

    private static Path path(WriteAheadFile file) {
        return Path.of(file.path().toUri());
    }
}

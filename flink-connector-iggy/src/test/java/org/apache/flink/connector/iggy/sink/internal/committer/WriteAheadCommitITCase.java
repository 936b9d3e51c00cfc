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
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.PartitionLog;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriteAheadDirectory;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriteAheadFile;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriterIdentity;
import org.apache.flink.connector.iggy.sink.testutils.IggySinkExternalContext;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

import org.apache.iggy.message.Message;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The committer with committables whose messages are in write-ahead files. */
class WriteAheadCommitITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static final byte[] TAG = IggyCommittable.tag(0x5EEDL, 3);

    @TempDir Path dir;

    private String stream;
    private final String topic = "wal";
    private IggyWriterConfig config;

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("wal-commit");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, topic, 1);
        config =
                IggySink.<String>builder()
                        .setConnection(IggySinkExternalContext.connection(IGGY))
                        .setStream(stream)
                        .setTopic(topic)
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .setBatchSize(7)
                        .build()
                        .writerConfig();
    }

    @Test
    void aCommitSendsTheFilesMessagesInOrderAndDeletesTheFile() throws Exception {
        IggyCommittable committable = committable(50);
        Path file = Path.of(committable.file().path().toUri());

        try (IggyCommitter committer = committer(OptionalLong.empty())) {
            committer.commit(List.of(new RecordingCommitRequest(committable)));
        }

        assertThat(texts(IGGY.readAll(stream, topic, 0))).containsExactlyElementsOf(expected(50));
        assertThat(file).as("deleted once committed").doesNotExist();
    }

    /**
     * Deleting a file of gigabytes can take seconds: the commit hands the deletion to a thread of
     * its own and returns, and closing the committer waits for it.
     */
    @Test
    void aCommitDoesNotWaitForItsFileToBeDeleted() throws Exception {
        IggyCommittable written = committable(30);
        Path file = Path.of(written.file().path().toUri());
        HeldDeletion held = new HeldDeletion();

        try (IggyCommitter committer =
                new IggyCommitter(
                        config,
                        OptionalLong.empty(),
                        new UnregisteredMetricsGroup(),
                        IggyCommitter.NOTHING,
                        held,
                        CommitterTesting.epochs(dir))) {
            committer.commit(List.of(new RecordingCommitRequest(written)));
            held.release.countDown();
        }

        assertThat(held.releasedInTime)
                .as("the deletion waited for the commit to return, not the commit for the deletion")
                .isTrue();
        assertThat(file).as("deleted by the time the committer closed").doesNotExist();
        assertThat(texts(IGGY.readAll(stream, topic, 0))).containsExactlyElementsOf(expected(30));
    }

    @Test
    void aLostFileFailsTheCommitNamingItAndSendsNothing() throws Exception {
        IggyCommittable committable = committable(20);
        WriteAheadFile file = committable.file();
        Files.delete(Path.of(file.path().toUri()));

        try (IggyCommitter committer = committer(OptionalLong.empty())) {
            assertThatThrownBy(
                            () ->
                                    committer.commit(
                                            List.of(new RecordingCommitRequest(committable))))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(file.path().toString())
                    .hasMessageContaining("of checkpoint 3 is missing")
                    .hasMessageContaining("durable");
        }
        assertThat(IGGY.messagesCount(stream, topic, 0)).isZero();
    }

    /**
     * Restored from a checkpoint whose commit went through before the job failed: the file is gone
     * (deleted after that commit), and not needed, since every message is found in the partition.
     */
    @Test
    void aRestoredCommitFindsItsMessagesAndNeedsNoFile() throws Exception {
        IggyCommittable committable = committable(20);
        try (IggyCommitter committer = committer(OptionalLong.empty())) {
            committer.commit(List.of(new RecordingCommitRequest(committable)));
        }
        assertThat(Path.of(committable.file().path().toUri())).doesNotExist();

        RecordingCommitRequest again = new RecordingCommitRequest(committable);
        try (IggyCommitter committer = committer(OptionalLong.of(3))) {
            committer.commit(List.of(again));
        }

        assertThat(again.outcome).isEqualTo("already committed");
        assertThat(texts(IGGY.readAll(stream, topic, 0))).containsExactlyElementsOf(expected(20));
    }

    private IggyCommitter committer(OptionalLong restored) {
        return new IggyCommitter(
                config,
                restored,
                new UnregisteredMetricsGroup(),
                IggyCommitter.NOTHING,
                WriteAheadFile::discard,
                CommitterTesting.epochs(dir));
    }

    /** A committable of checkpoint 3 whose {@code n} messages a writer wrote to a file. */
    private IggyCommittable committable(int n) throws IOException {
        PartitionLog log =
                new WriteAheadDirectory(dir.toString())
                        .open(new WriterIdentity("job", "op", 0x5EEDL, 0, 1, 2))
                        .start(3, 0);
        for (String text : expected(n)) {
            log.append(
                    new OutgoingMessage(
                            text.getBytes(StandardCharsets.UTF_8), IggyHeaders.empty(), null, 0));
        }
        return new IggyCommittable(IggyId.of(stream), IggyId.of(topic), 0, 3, TAG, 0, log.seal());
    }

    /** Deletes a file once released, waiting for at most 30 s. */
    private static final class HeldDeletion implements CommittedFiles.Deletion {
        final CountDownLatch release = new CountDownLatch(1);

        /** Written by the deleting thread, read once it ended. */
        volatile boolean releasedInTime;

        @Override
        public void delete(WriteAheadFile file) throws IOException {
            try {
                releasedInTime = release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the deletion was held");
            }
            file.discard();
        }
    }

    private static List<String> expected(int n) {
        return IntStream.range(0, n).mapToObj(i -> "m" + i).collect(Collectors.toList());
    }

    private static List<String> texts(List<Message> messages) {
        return messages.stream()
                .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }
}

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
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.TestCommittables;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

import org.apache.iggy.message.Message;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Committers, their epochs and committables for tests: every committer a test makes in one
 * directory is subtask 0 of 1, unless it says otherwise, so each is a new epoch after the last.
 */
final class CommitterTesting {

    /** Committed files stay: the tests compare what was sent with them. */
    static final CommittedFiles.Deletion KEEP_FILES = file -> {};

    private CommitterTesting() {}

    /** The epochs of subtask 0 of 1 under {@code dir}. */
    static CommitterEpochs epochs(Path dir) {
        return epochs(dir, 0, 1);
    }

    static CommitterEpochs epochs(Path dir, int subtask, int parallelism) {
        return new CommitterEpochs(
                new org.apache.flink.core.fs.Path(dir.resolve("epochs").toUri()),
                subtask,
                parallelism);
    }

    /** A committer of subtask 0 of 1 with its epochs under {@code dir}, keeping committed files. */
    static IggyCommitter committer(
            Path dir,
            IggyWriterConfig config,
            OptionalLong restored,
            IggyCommitter.BetweenSends hook) {
        return new IggyCommitter(
                config, restored, new UnregisteredMetricsGroup(), hook, KEEP_FILES, epochs(dir));
    }

    /**
     * An exactly-once sink's configuration for {@code topic} of {@code stream}, cutting batches of
     * {@code batch} messages, {@code inFlight} of them unanswered.
     */
    static IggyWriterConfig writerConfig(
            IggyConnectionConfig connection, String stream, String topic, int batch, int inFlight) {
        return IggySink.<String>builder()
                .setConnection(connection)
                .setStream(stream)
                .setTopic(topic)
                .setValueSerializationSchema(new SimpleStringSchema())
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setBatchSize(batch)
                .setMaxInFlightRequests(inFlight)
                .build()
                .writerConfig();
    }

    /**
     * A committable of {@code n} messages {@code cp<checkpoint>-<i>}, written under {@code dir}.
     */
    static IggyCommittable committable(
            Path dir,
            String stream,
            String topic,
            long partition,
            long checkpoint,
            long readFrom,
            int n) {
        byte[] tag = IggyCommittable.tag(0xABCDEFL, checkpoint);
        List<OutgoingMessage> messages = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            messages.add(
                    new OutgoingMessage(
                            ("cp" + checkpoint + "-" + i).getBytes(StandardCharsets.UTF_8),
                            IggyHeaders.empty(),
                            null,
                            0));
        }
        return TestCommittables.written(
                dir,
                IggyId.of(stream),
                IggyId.of(topic),
                partition,
                checkpoint,
                tag,
                readFrom,
                messages);
    }

    /**
     * Commits as Flink's committer operator does: retries until committed, the first request
     * counting {@code retries} retries before it.
     */
    static RecordingCommitRequest commitUntilCommitted(
            IggyCommitter committer, IggyCommittable c, int retries) throws Exception {
        RecordingCommitRequest request = new RecordingCommitRequest(c, retries);
        committer.commit(List.of(request));
        for (int attempt = 1; request.outcome.equals("retry"); attempt++) {
            assertThat(attempt).as("retries").isLessThan(10);
            request = new RecordingCommitRequest(c, retries + attempt);
            committer.commit(List.of(request));
        }
        return request;
    }

    /**
     * A hook that runs {@code action} once: before the first send that follows at least {@code
     * sent} messages of a commit.
     */
    static IggyCommitter.BetweenSends onceAfter(int sent, Runnable action) {
        AtomicBoolean done = new AtomicBoolean();
        return (committable, sentBefore) -> {
            if (sentBefore >= sent && done.compareAndSet(false, true)) {
                action.run();
            }
        };
    }

    static List<String> texts(List<Message> messages) {
        return messages.stream()
                .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }
}

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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.base.sink.writer.TestSinkInitContext;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.exactlyonce.WriteAheadDelivery;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriteAheadFile;
import org.apache.flink.connector.iggy.sink.internal.writer.IggySinkWriter;
import org.apache.flink.connector.iggy.sink.internal.writer.IggySinkWriterTest;
import org.apache.flink.connector.iggy.sink.internal.writer.RecordWriter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The writer side of exactly-once: write-ahead files, committables and the bytes written. */
public class ExactlyOnceWriterTest {

    private final IggySinkWriterTest.ScriptedSender sender =
            new IggySinkWriterTest.ScriptedSender(3);
    private final TestSinkInitContext context = new TestSinkInitContext();

    @TempDir Path writeAheadDir;

    @Test
    void nothingIsSentBeforeTheCheckpointTakesTheMessages() throws Exception {
        IggySinkWriter<String> writer = writer();
        sender.endOffset = 17;
        IggySinkWriterTest.write(writer, "0a", "1a", "0b", "0c");
        writer.flush(false);
        assertThat(sender.sends).isEmpty();

        List<IggyCommittable> first = new ArrayList<>(writer.prepareCommit());
        assertThat(first).hasSize(2);
        IggyCommittable p0 = first.get(0);
        assertThat(p0.partition()).isZero();
        assertThat(p0.readFrom()).isEqualTo(17);
        assertThat(p0.checkpointId()).isEqualTo(1);
        assertThat(payloads(p0)).containsExactly("0a", "0b", "0c");
        for (int i = 0; i < 3; i++) {
            assertThat(p0.sequenceOf(wireId(WriteAheadTesting.messages(p0).get(i)))).isEqualTo(i);
        }
        assertThat(payloads(first.get(1))).containsExactly("1a");
        assertThat(sender.sends).isEmpty();

        IggySinkWriterTest.write(writer, "2a");
        writer.flush(false);
        List<IggyCommittable> second = new ArrayList<>(writer.prepareCommit());
        assertThat(second).singleElement().extracting(IggyCommittable::checkpointId).isEqualTo(2L);
        assertThat(p0.sequenceOf(wireId(WriteAheadTesting.messages(second.get(0)).get(0))))
                .as("another checkpoint's id")
                .isEqualTo(-1);

        writer.flush(false);
        assertThat(writer.prepareCommit()).as("an empty interval").isEmpty();
        assertThat(sender.sends).isEmpty();
    }

    @Test
    void theCommittablesOfOneCheckpointCoverEveryTopicWithItsOwnEndOffsets() throws Exception {
        IggySinkTarget a = IggySinkTarget.of("s", "a");
        IggySinkTarget b = IggySinkTarget.of("other", "b");
        sender.topicPartitions.put(a, 1);
        sender.topicPartitions.put(b, 1);
        sender.endOffset = 9;
        IggySinkWriter<String> writer =
                new RecordWriter<>(
                        IggySinkBuilderTest.<String>sinkTo("s", "t")
                                .setRecordSerializer(IggySinkWriterTest.byFirstChar())
                                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                                .setExactlyOnceWriteAheadDir(writeAheadDir.toString())
                                .build()
                                .writerConfig(),
                        IggySinkWriterTest.routedByPrefix(a, b),
                        () -> sender,
                        WriteAheadDelivery::new,
                        context);
        IggySinkWriterTest.write(writer, "a1", "b1", "a2", "b2", "b3");
        writer.flush(false);
        List<IggyCommittable> committables = new ArrayList<>(writer.prepareCommit());
        assertThat(committables)
                .extracting(c -> c.stream() + "/" + c.topic() + "/" + c.partition())
                .containsExactlyInAnyOrder("'s'/'a'/0", "'other'/'b'/0");
        for (IggyCommittable c : committables) {
            assertThat(c.readFrom()).isEqualTo(9);
            assertThat(payloads(c))
                    .containsExactlyElementsOf(
                            c.topic().name().equals("a")
                                    ? List.of("a1", "a2")
                                    : List.of("b1", "b2", "b3"));
        }
        assertThat(sender.sends).isEmpty();
    }

    @Test
    void twoWritersOfOneSinkNeverShareAnId() throws Exception {
        IggySinkWriter<String> first = writer();
        // another operator: a writer of the same one would take the first's files for leftovers
        IggySinkWriter<String> second = writer(new TestSinkInitContext());
        IggySinkWriterTest.write(first, "0a");
        IggySinkWriterTest.write(second, "0a");
        first.flush(false);
        second.flush(false);
        IggyCommittable a = first.prepareCommit().iterator().next();
        IggyCommittable b = second.prepareCommit().iterator().next();
        assertThat(a.checkpointId()).isEqualTo(b.checkpointId());
        assertThat(wireId(WriteAheadTesting.messages(a).get(0)))
                .isNotEqualTo(wireId(WriteAheadTesting.messages(b).get(0)));
        assertThat(a.sequenceOf(wireId(WriteAheadTesting.messages(b).get(0)))).isEqualTo(-1);
    }

    @Test
    void theBufferGaugeShowsTheBytesWrittenSinceTheLastCheckpoint() throws Exception {
        MetricRecordingInitContext recording = new MetricRecordingInitContext();
        IggySinkWriter<String> writer = writer(recording);
        assertThat(recording.metrics().gaugeValue("exactlyOnceBufferedBytes")).isEqualTo(0L);

        // 64 bytes of header plus 2 of payload per message
        IggySinkWriterTest.write(writer, "0a", "1a", "0b");
        assertThat(recording.metrics().gaugeValue("exactlyOnceBufferedBytes")).isEqualTo(3 * 66L);

        writer.flush(false);
        writer.prepareCommit();
        assertThat(recording.metrics().gaugeValue("exactlyOnceBufferedBytes"))
                .as("the checkpoint took them")
                .isEqualTo(0L);
    }

    @Test
    void withAWriteAheadDirectoryTheMessagesGoToSyncedFiles(@TempDir Path dir) throws Exception {
        IggySinkWriter<String> writer = writer(dir.toString(), context);
        sender.endOffset = 5;
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            sent.add("0-" + i);
        }
        IggySinkWriterTest.write(writer, sent.toArray(new String[0]));
        IggySinkWriterTest.write(writer, "1a");
        writer.flush(false);

        List<IggyCommittable> committables = new ArrayList<>(writer.prepareCommit());
        assertThat(committables).hasSize(2);
        IggyCommittable p0 = committables.get(0);
        WriteAheadFile file = p0.file();
        assertThat(Files.size(Path.of(file.path().toUri())))
                .as("written and closed before the checkpoint, padded to the disk's block size")
                .isBetween(file.length(), file.length() + 4095);
        assertThat(Path.of(file.path().toUri())).startsWith(dir);
        assertThat(p0.messageCount()).isEqualTo(10_000);
        assertThat(p0.readFrom()).isEqualTo(5);
        assertThat(payloads(p0)).containsExactlyElementsOf(sent);
        List<OutgoingMessage> read = WriteAheadTesting.messages(p0);
        for (int i = 0; i < read.size(); i++) {
            assertThat(p0.sequenceOf(wireId(read.get(i)))).isEqualTo(i);
        }
        assertThat(payloads(committables.get(1))).containsExactly("1a");
        assertThat(sender.sends).isEmpty();

        p0.file().discard();
        assertThat(Files.exists(Path.of(file.path().toUri())))
                .as("deleted once committed")
                .isFalse();
    }

    @Test
    void aWriterClosedBeforeTheCheckpointDeletesTheFilesNoCheckpointTook(@TempDir Path dir)
            throws Exception {
        IggySinkWriter<String> writer = writer(dir.toString(), context);
        IggySinkWriterTest.write(writer, "0a");
        writer.flush(false);
        WriteAheadFile taken = writer.prepareCommit().iterator().next().file();
        // each file is created with its first message, on the task thread
        IggySinkWriterTest.write(writer, "0" + "b".repeat(300_000), "1b");
        assertThat(regularFiles(dir))
                .as("the taken file and the unfinished files of partitions 0 and 1")
                .isEqualTo(3);

        writer.close();

        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.filter(Files::isRegularFile))
                    .as("only the file a checkpoint took is left")
                    .containsExactly(Path.of(taken.path().toUri()));
        }
    }

    private static long regularFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).count();
        }
    }

    /** A writer whose write-ahead files go to the test's own directory. */
    private IggySinkWriter<String> writer() throws IOException {
        return writer(context);
    }

    private IggySinkWriter<String> writer(TestSinkInitContext context) throws IOException {
        return writer(writeAheadDir.toString(), context);
    }

    private IggySinkWriter<String> writer(String writeAheadDir, TestSinkInitContext context)
            throws IOException {
        IggyWriterConfig config =
                IggySinkBuilderTest.<String>sinkTo("s", "t")
                        .setRecordSerializer(IggySinkWriterTest.byFirstChar())
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .setExactlyOnceWriteAheadDir(writeAheadDir)
                        .build()
                        .writerConfig();
        return new RecordWriter<>(
                config,
                IggySinkWriterTest.byFirstChar(),
                () -> sender,
                WriteAheadDelivery::new,
                context);
    }

    /** The id as the wire carries it. */
    public static byte[] wireId(OutgoingMessage message) {
        return message.wireId();
    }

    private static List<String> payloads(IggyCommittable committable) {
        return WriteAheadTesting.messages(committable).stream()
                .map(OutgoingMessage::payload)
                .map(p -> new String(p, StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }
}

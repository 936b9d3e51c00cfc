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
package org.apache.flink.connector.iggy.sink.internal.writeahead;

import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.ExactlyOnceWriterTest;
import org.apache.flink.connector.iggy.sink.WriteAheadTesting;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The write-ahead log on files: append, seal, read back, delete, and a lost file. */
class WriteAheadDirectoryTest {

    private static final WriterIdentity WRITER = new WriterIdentity("job", "op", 0xABCDL, 0, 2, 6);
    private static final byte[] TAG = IggyCommittable.tag(0xABCDL, 7);

    @TempDir Path dir;

    @Test
    void sealedMessagesReadBackInOrderWithTheirIdsHeadersAndTimestamps() throws IOException {
        WriteAheadDirectory storage = new WriteAheadDirectory(dir.toString());
        PartitionLog log = storage.open(WRITER).start(7, 0);
        IggyHeaders headers = IggyHeaders.of("k", IggyHeaderValue.ofRaw(new byte[] {1, 2, 3}));
        log.append(new OutgoingMessage(bytes("first"), headers, null, 11));
        log.append(new OutgoingMessage(bytes(""), IggyHeaders.empty(), null, 12));
        log.append(new OutgoingMessage(new byte[100_000], IggyHeaders.empty(), null, 13));

        WriteAheadFile file = (WriteAheadFile) log.seal();

        assertThat(file.count()).isEqualTo(3);
        Path onDisk = Path.of(file.path().toUri());
        assertThat(onDisk).isEqualTo(dir.resolve("job/op/r6-s0-000000000000abcd/7-0"));
        assertThat(Files.size(onDisk))
                .as("padded to the disk's block size")
                .isBetween(file.length(), file.length() + 4095);
        List<OutgoingMessage> read = read(file);
        assertThat(read).hasSize(3);
        assertThat(read.get(0).payload()).isEqualTo(bytes("first"));
        assertThat(read.get(0).originTimestampMicros()).isEqualTo(11);
        assertThat(read.get(0).headers().encodedLength()).isEqualTo(10 + 1 + 3);
        assertThat(read.get(0).headers().size()).isEqualTo(1);
        assertThat(read.get(1).payload()).isEmpty();
        assertThat(read.get(2).payload()).hasSize(100_000);
        IggyCommittable committable = committable(file);
        for (int i = 0; i < 3; i++) {
            assertThat(committable.sequenceOf(ExactlyOnceWriterTest.wireId(read.get(i))))
                    .isEqualTo(i);
        }

        file.discard();
        assertThat(onDisk).doesNotExist();
    }

    @Test
    void messagesAcrossBlocksAndLargerThanABlockReadBackWhole() throws IOException {
        WriteAheadDirectory storage = new WriteAheadDirectory(dir.toString());
        PartitionLog log = storage.open(WRITER).start(7, 0);
        // sizes that end blocks at every offset, then messages larger than a write or read block
        int[] sizes = new int[3000];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] =
                    i % 1000 == 999
                            ? WriteAheadFileInput.BLOCK_BYTES * (1 + i / 1000) + 7
                            : i % 1777;
            byte[] payload = new byte[sizes[i]];
            if (payload.length > 0) {
                payload[payload.length / 2] = (byte) i;
            }
            log.append(new OutgoingMessage(payload, IggyHeaders.empty(), null, i));
        }

        WriteAheadFile file = (WriteAheadFile) log.seal();

        List<OutgoingMessage> read = read(file);
        assertThat(read).hasSize(sizes.length);
        for (int i = 0; i < sizes.length; i++) {
            assertThat(read.get(i).payload()).as("message %d", i).hasSize(sizes[i]);
            if (sizes[i] > 0) {
                assertThat(read.get(i).payload()[sizes[i] / 2]).isEqualTo((byte) i);
            }
            assertThat(read.get(i).originTimestampMicros()).isEqualTo(i);
        }
    }

    @Test
    void aMissingFileFailsNamingTheFileTheCheckpointAndTheFix() throws IOException {
        WriteAheadFile file = seal(1);
        Files.delete(Path.of(file.path().toUri()));

        assertThatThrownBy(() -> committable(file).openMessages())
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.path().toString())
                .hasMessageContaining("of checkpoint 7 is missing")
                .hasMessageContaining("'sink.exactly-once.write-ahead-dir'")
                .hasMessageContaining("durable");
    }

    @Test
    void aTruncatedFileFailsInsteadOfSendingPartOfIt() throws IOException {
        WriteAheadFile file = seal(3);
        try (RandomAccessFile raf = new RandomAccessFile(file.path().getPath(), "rw")) {
            raf.setLength(file.length() - 1);
        }

        assertThatThrownBy(() -> committable(file).openMessages())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("instead of the " + file.length() + " written");
    }

    @Test
    void aClosedWriterDeletesOnlyTheFilesNoCheckpointTook() throws IOException {
        WriteAheadDirectory.WriterLog writer = new WriteAheadDirectory(dir.toString()).open(WRITER);
        append(writer.start(7, 0), 1).seal();
        PartitionLog unsealed = writer.start(8, 0);
        unsealed.append(plain("y"));
        Path own = dir.resolve("job/op/r6-s0-000000000000abcd");

        writer.close();

        assertThat(own.resolve("8-0")).as("never handed to a checkpoint").doesNotExist();
        assertThat(own.resolve("7-0")).as("handed to a checkpoint").exists();
    }

    @Test
    void aWriterWithNothingLeftRemovesItsDirectory() throws IOException {
        WriteAheadDirectory.WriterLog writer = new WriteAheadDirectory(dir.toString()).open(WRITER);
        WriteAheadFile file = (WriteAheadFile) append(writer.start(7, 0), 1).seal();
        file.discard();

        writer.close();

        assertThat(dir.resolve("job/op/r6-s0-000000000000abcd")).doesNotExist();
    }

    /**
     * Restored from checkpoint 6 as subtask 0 of 2, a writer deletes, before its first file, the
     * files numbered above 6 of the earlier writers of subtasks 0 and 2 (2 mod 2), and nothing of
     * other subtasks, operators or jobs, nor files a restored committable may name.
     */
    @Test
    void earlierWritersFilesOfNoRestoredCheckpointAreDeletedAndNothingElse() throws IOException {
        Path earlier = leftover("job/op/r3-s0-0000000000000001", "4-0", "6-1", "7-0", "8-0");
        Path failedAttempt = leftover("job/op/r6-s0-0000000000000002", "7-0", "7-1");
        Path oldSubtaskTwo = leftover("job/op/r3-s2-0000000000000003", "5-0", "9-0");
        Path otherSubtask = leftover("job/op/r6-s1-0000000000000004", "7-0");
        Path otherOperator = leftover("job/other/r3-s0-0000000000000005", "9-0");
        Path otherJob = leftover("job2/op/r3-s0-0000000000000006", "9-0");

        WriteAheadDirectory.WriterLog writer = new WriteAheadDirectory(dir.toString()).open(WRITER);
        assertThat(earlier.resolve("7-0")).as("nothing while the task starts").exists();
        append(writer.start(7, 0), 1).seal();

        assertThat(earlier.resolve("4-0")).exists();
        assertThat(earlier.resolve("6-1")).exists();
        assertThat(earlier.resolve("7-0")).doesNotExist();
        assertThat(earlier.resolve("8-0")).doesNotExist();
        assertThat(failedAttempt).as("a failed attempt from the same checkpoint").doesNotExist();
        assertThat(oldSubtaskTwo.resolve("5-0")).exists();
        assertThat(oldSubtaskTwo.resolve("9-0")).doesNotExist();
        assertThat(otherSubtask.resolve("7-0")).exists();
        assertThat(otherOperator.resolve("9-0")).exists();
        assertThat(otherJob.resolve("9-0")).exists();
        assertThat(dir.resolve("job/op/r6-s0-000000000000abcd/7-0")).as("its own").exists();
    }

    private WriteAheadFile seal(int messages) throws IOException {
        return (WriteAheadFile)
                append(new WriteAheadDirectory(dir.toString()).open(WRITER).start(7, 0), messages)
                        .seal();
    }

    private static PartitionLog append(PartitionLog log, int messages) throws IOException {
        for (int i = 0; i < messages; i++) {
            log.append(plain("m" + i));
        }
        return log;
    }

    private Path leftover(String directory, String... files) throws IOException {
        Path path = Files.createDirectories(dir.resolve(directory));
        for (String file : files) {
            Files.write(path.resolve(file), new byte[] {1});
        }
        return path;
    }

    private static IggyCommittable committable(WriteAheadFile file) {
        return new IggyCommittable(IggyId.of("s"), IggyId.of("t"), 0, 7, TAG, 0, file);
    }

    private static List<OutgoingMessage> read(WriteAheadFile file) {
        return WriteAheadTesting.messages(committable(file));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static OutgoingMessage plain(String payload) {
        return new OutgoingMessage(bytes(payload), IggyHeaders.empty(), null, 0);
    }
}

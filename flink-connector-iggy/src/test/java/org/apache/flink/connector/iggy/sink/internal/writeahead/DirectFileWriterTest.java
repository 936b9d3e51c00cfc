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

import org.apache.flink.core.memory.DataOutputSerializer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Local write-ahead files written with direct I/O on the writer's own thread, and read back with
 * direct I/O, a thread reading ahead; files written through a stream read back the same way.
 */
class DirectFileWriterTest {

    @TempDir Path dir;

    private DirectFileWriter writer;

    @BeforeEach
    void start() {
        writer = DirectFileWriter.start(dir, owner());
        assumeThat(writer).as("direct I/O in " + dir).isNotNull();
    }

    @AfterEach
    void close() {
        if (writer != null) {
            writer.close();
        }
        assertThat(threadsNamed(DirectFileWriter.THREAD_NAME + " (" + owner() + ")"))
                .as("the writer's thread")
                .isZero();
    }

    @Test
    void blocksOfAnySizeArriveInOrderAndTheSealPadsTheFileAndReportsWhatTheBlocksHeld()
            throws IOException {
        Path path = dir.resolve("a");
        WriteAheadFileOutput out = writer.open(path);
        Random random = new Random(42);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        // odd sizes, so blocks end inside the disk's blocks; one far larger than a block
        int[] sizes = {
            1,
            4095,
            4097,
            WriteAheadFileOutput.BLOCK_BYTES,
            2 * DirectFileWriter.WRITE_BYTES + 7,
            13
        };
        DataOutputSerializer block = WriteAheadFileOutput.newBlock();
        for (int i = 0; i < 40; i++) {
            byte[] bytes = new byte[sizes[i % sizes.length]];
            random.nextBytes(bytes);
            block.write(bytes);
            expected.write(bytes);
            block = out.write(block);
            assertThat(block.length()).as("an empty block back").isZero();
        }
        byte[] last = {1, 2, 3};
        block.write(last);
        expected.write(last);

        long length = out.seal(block);

        assertThat(length).isEqualTo(expected.size());
        assertThat(Files.size(path) % 4096).as("padded to whole disk blocks").isZero();
        assertThat(Files.size(path)).isBetween(length, length + 4095);
        assertThat(expected.size())
                .as("several reads of the committer's input")
                .isGreaterThan(3 * DirectFileInput.READ_BYTES);
        assertThat(readDirectly(path, length)).isEqualTo(expected.toByteArray());
    }

    @Test
    void aFileOfWholeReadsEndsCleanly() throws IOException {
        Path path = dir.resolve("whole");

        sealedReadsBackWhole(writer.open(path), path, 2 * DirectFileInput.READ_BYTES);
    }

    @Test
    void aFileThatCannotBeCreatedFailsItsSealAndEveryLaterWriteNamingIt() throws IOException {
        Path taken = Files.writeString(dir.resolve("taken"), "someone else's");
        WriteAheadFileOutput out = writer.open(taken);
        DataOutputSerializer block = WriteAheadFileOutput.newBlock();
        block.writeInt(1);

        assertThatThrownBy(() -> out.seal(block))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Could not write the write-ahead file " + taken);
        WriteAheadFileOutput other = writer.open(dir.resolve("b"));
        assertThatThrownBy(() -> other.write(WriteAheadFileOutput.newBlock()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(taken.toString());
        assertThat(Files.readString(taken)).as("left as it was").isEqualTo("someone else's");
    }

    @Test
    void anAbandonedFileIsDeletedBeforeTheThreadEnds() throws IOException {
        Path path = dir.resolve("unfinished");
        WriteAheadFileOutput out = writer.open(path);
        DataOutputSerializer block = WriteAheadFileOutput.newBlock();
        block.write(new byte[WriteAheadFileOutput.BLOCK_BYTES + 1]);
        out.write(block);

        out.abandon();
        writer.close();
        writer = null;

        assertThat(path).doesNotExist();
    }

    @Test
    void aFileWrittenThroughAStreamReadsBackWithDirectIoToItsUnalignedEnd() throws IOException {
        Path path = dir.resolve("streamed");

        sealedReadsBackWhole(
                new StreamFileOutput(new org.apache.flink.core.fs.Path(path.toUri())),
                path,
                3 * 4096 + 123);
    }

    /**
     * Seals one block of {@code size} random bytes into {@code out}: a file of just those bytes,
     * without padding, that reads back whole.
     */
    private static void sealedReadsBackWhole(WriteAheadFileOutput out, Path path, int size)
            throws IOException {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        DataOutputSerializer block = WriteAheadFileOutput.newBlock();
        block.write(bytes);

        long length = out.seal(block);

        assertThat(Files.size(path)).isEqualTo(length).isEqualTo(bytes.length);
        assertThat(readDirectly(path, length)).isEqualTo(bytes);
    }

    @Test
    void aDirectoryThatCannotBeMadeLeavesTheFilesToThePageCache() throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");

        assertThat(DirectFileWriter.start(notADirectory.resolve("sub"), "test")).isNull();
    }

    /**
     * The file's first {@code length} bytes, as the committer reads them; the reading thread has
     * ended once the input is closed.
     */
    private static byte[] readDirectly(Path path, long length) throws IOException {
        byte[] all;
        try (InputStream in = DirectFileInput.open(path)) {
            all = in.readAllBytes();
            assertThat(in.read()).as("still at the end").isEqualTo(-1);
        }
        assertThat(threadsNamed(DirectFileInput.threadName(path)))
                .as("the reading thread")
                .isZero();
        assertThat((long) all.length).isGreaterThanOrEqualTo(length);
        byte[] data = new byte[(int) length];
        System.arraycopy(all, 0, data, 0, data.length);
        return data;
    }

    /** Names this test's writer, whose thread is named after it. */
    private String owner() {
        return "test in " + dir.getFileName();
    }

    private static long threadsNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name))
                .count();
    }
}

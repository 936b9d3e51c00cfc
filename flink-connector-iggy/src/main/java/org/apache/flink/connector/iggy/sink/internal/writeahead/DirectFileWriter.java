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

import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataOutputSerializer;

import com.sun.nio.file.ExtendedOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Writes one writer's write-ahead files on a local disk with direct I/O ({@code O_DIRECT}), on a
 * thread of its own. The task thread encodes messages into blocks and hands each full block over;
 * this thread writes it, so the task thread neither waits for the disk nor pays the kernel for
 * copying every byte into the page cache. A write-ahead file is written once and read once, by the
 * committer, which reads it with direct I/O too ({@link DirectFileInput}): keeping its pages cached
 * would only push out memory that others use. The seal pads the file's end to the disk's block size
 * and syncs it; the committable records the length without the padding.
 *
 * <p>At most {@value #MAX_QUEUED_BLOCKS} blocks wait for the disk: a task thread that has filled
 * more waits, so a slow disk back-pressures the writer, and memory stays bounded by the blocks
 * queued and one block per open file.
 *
 * <p>Threads: the task thread calls {@link #start}, {@link #open}, the {@link Output}'s methods and
 * {@link #close}; the thread {@value #THREAD_NAME} owns every file's channel, position and
 * unwritten tail, and the aligned buffer. Blocks, seals and abandons go to it through {@link
 * #commands}; emptied blocks come back through {@link #emptyBlocks}; {@link #failure} is written by
 * it and read by the task thread.
 */
@Internal
final class DirectFileWriter {

    private static final Logger LOG = LoggerFactory.getLogger(DirectFileWriter.class);

    static final String THREAD_NAME = "iggy-sink-write-ahead";

    /** What one write to the disk takes at most, of blocks queued one after another. */
    static final int WRITE_BYTES = 1024 * 1024;

    /** Blocks waiting for the disk: room for one write to gather while the one before it runs. */
    static final int MAX_QUEUED_BLOCKS = 2 * WRITE_BYTES / WriteAheadFileOutput.BLOCK_BYTES;

    /** How long {@link #close} waits for the thread to end: it has at most the queued blocks. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final int alignment;
    private final LinkedBlockingQueue<Command> commands = new LinkedBlockingQueue<>();
    private final Semaphore queuedBlocks = new Semaphore(MAX_QUEUED_BLOCKS);
    private final ConcurrentLinkedQueue<DataOutputSerializer> emptyBlocks =
            new ConcurrentLinkedQueue<>();
    private final Thread thread;

    /** The first failure of a write or seal; every later one fails with it. */
    @Nullable private volatile IOException failure;

    /** Owned by the writing thread; grows for large messages. */
    @Nullable private ByteBuffer aligned;

    private DirectFileWriter(int alignment, String owner) {
        this.alignment = alignment;
        this.thread = new Thread(this::run, THREAD_NAME + " (" + owner + ")");
        this.thread.setDaemon(true);
    }

    /**
     * Starts a writer for files in {@code directory} (created if missing), or returns {@code null}
     * if its file system cannot write with direct I/O (a memory file system, say): then the files
     * go through the page cache instead, which works everywhere.
     *
     * @param owner names the writer in the thread's name
     */
    @Nullable
    static DirectFileWriter start(Path directory, String owner) {
        int alignment;
        try {
            Files.createDirectories(directory);
            alignment = alignment(directory);
            Path probe = Files.createTempFile(directory, "direct-io-probe", ".tmp");
            try (FileChannel channel =
                    FileChannel.open(probe, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
                channel.write(alignedBuffer(alignment, alignment), 0);
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException | RuntimeException e) {
            LOG.info(
                    "Write-ahead files in {} are written through the page cache: direct I/O is"
                            + " not available there ({})",
                    directory,
                    e.toString());
            return null;
        }
        DirectFileWriter writer = new DirectFileWriter(alignment, owner);
        writer.thread.start();
        return writer;
    }

    /**
     * Whether {@code path} is on a local file system, where write-ahead files are written and read
     * with direct I/O if it allows.
     */
    static boolean isLocal(org.apache.flink.core.fs.Path path) {
        return "file".equals(path.toUri().getScheme());
    }

    /**
     * What direct reads and writes of files at {@code path} align their buffers, positions and
     * lengths to: the block size of its file store, at least 4 KiB.
     */
    static int alignment(Path path) throws IOException {
        return Math.max(4096, Math.toIntExact(Files.getFileStore(path).getBlockSize()));
    }

    /** A new file at {@code path}, created when its first block is written; it must not exist. */
    Output open(Path path) {
        return new Output(new FileState(path, alignment));
    }

    /**
     * Ends the thread once it has done what was handed to it, files abandoned before included,
     * waiting at most {@link #CLOSE_TIMEOUT}. Not cut short by an interrupt, which stays set.
     */
    void close() {
        commands.add(Stop.STOP);
        boolean interrupted = false;
        long deadline = System.nanoTime() + CLOSE_TIMEOUT.toNanos();
        while (thread.isAlive() && deadline - System.nanoTime() > 0) {
            try {
                thread.join(
                        Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (thread.isAlive()) {
            LOG.warn("The thread writing write-ahead files did not end within {}", CLOSE_TIMEOUT);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** One file as the task thread sees it. */
    final class Output implements WriteAheadFileOutput {
        private final FileState file;

        private Output(FileState file) {
            this.file = file;
        }

        @Override
        public DataOutputSerializer write(DataOutputSerializer block) throws IOException {
            hand(block);
            DataOutputSerializer empty = emptyBlocks.poll();
            return empty != null ? empty : WriteAheadFileOutput.newBlock();
        }

        @Override
        public long seal(DataOutputSerializer last) throws IOException {
            hand(last);
            CompletableFuture<Long> length = new CompletableFuture<>();
            commands.add(new Seal(file, length));
            try {
                return length.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(
                        "Interrupted while syncing the write-ahead file " + file.path);
            } catch (ExecutionException e) {
                throw new IOException(e.getCause().getMessage(), e.getCause());
            }
        }

        @Override
        public void abandon() {
            commands.add(new Abandon(file));
        }

        private void hand(DataOutputSerializer block) throws IOException {
            IOException failed = failure;
            if (failed != null) {
                throw new IOException(failed.getMessage(), failed);
            }
            try {
                queuedBlocks.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(
                        "Interrupted while waiting to write the write-ahead file " + file.path);
            }
            commands.add(new Write(file, block));
        }
    }

    private sealed interface Command permits Write, Seal, Abandon, Stop {}

    private record Write(FileState file, DataOutputSerializer block) implements Command {}

    private record Seal(FileState file, CompletableFuture<Long> length) implements Command {}

    private record Abandon(FileState file) implements Command {}

    private enum Stop implements Command {
        STOP
    }

    /** One file. Its path is final; the rest is owned by the writing thread. */
    private static final class FileState {
        final Path path;
        @Nullable FileChannel channel;

        /** Where the next aligned write goes: what was written, a multiple of the alignment. */
        long position;

        /** The bytes after {@link #position}, fewer than the alignment, held for the next write. */
        final byte[] tail;

        int tailLength;

        /** The bytes the blocks held. */
        long length;

        FileState(Path path, int alignment) {
            this.path = path;
            this.tail = new byte[alignment];
        }
    }

    private void run() {
        while (true) {
            Command command;
            try {
                command = commands.take();
            } catch (InterruptedException e) {
                // nobody interrupts this thread; if something does, the queue still decides
                continue;
            }
            if (command instanceof Write) {
                List<DataOutputSerializer> blocks = blocksToWrite((Write) command);
                FileState file = ((Write) command).file();
                try {
                    if (failure == null) {
                        append(file, blocks);
                    }
                } catch (IOException | RuntimeException e) {
                    fail(file, e);
                } finally {
                    for (DataOutputSerializer block : blocks) {
                        if (!WriteAheadFileOutput.oversized(block)) {
                            block.clear();
                            emptyBlocks.offer(block);
                        }
                    }
                    queuedBlocks.release(blocks.size());
                }
            } else if (command instanceof Seal) {
                seal((Seal) command);
            } else if (command instanceof Abandon) {
                abandon(((Abandon) command).file());
            } else {
                return;
            }
        }
    }

    /**
     * The block of {@code first} and those of the writes to the same file queued right after it, up
     * to {@link #WRITE_BYTES}: one large write keeps a disk busier than several small ones.
     */
    private List<DataOutputSerializer> blocksToWrite(Write first) {
        List<DataOutputSerializer> blocks = new ArrayList<>();
        blocks.add(first.block());
        long bytes = first.block().length();
        while (bytes < WRITE_BYTES) {
            Command next = commands.peek();
            if (!(next instanceof Write) || ((Write) next).file() != first.file()) {
                break;
            }
            commands.poll();
            blocks.add(((Write) next).block());
            bytes += ((Write) next).block().length();
        }
        return blocks;
    }

    private void append(FileState file, List<DataOutputSerializer> blocks) throws IOException {
        if (file.channel == null) {
            file.channel =
                    FileChannel.open(
                            file.path,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.CREATE_NEW,
                            ExtendedOpenOption.DIRECT);
        }
        int bytes = 0;
        for (DataOutputSerializer block : blocks) {
            bytes += block.length();
        }
        ByteBuffer buffer = buffer(file.tailLength + bytes);
        buffer.put(file.tail, 0, file.tailLength);
        for (DataOutputSerializer block : blocks) {
            buffer.put(block.getSharedBuffer(), 0, block.length());
        }
        writeAligned(file, buffer, false);
        file.length += bytes;
    }

    private void seal(Seal seal) {
        FileState file = seal.file();
        try {
            IOException failed = failure;
            if (failed != null) {
                throw failed;
            }
            ByteBuffer buffer = buffer(alignment);
            buffer.put(file.tail, 0, file.tailLength);
            writeAligned(file, buffer, true);
            file.channel.force(true);
            file.channel.close();
            file.channel = null;
            seal.length().complete(file.length);
        } catch (IOException | RuntimeException e) {
            fail(file, e);
            seal.length().completeExceptionally(failure);
        }
    }

    /**
     * Writes what {@code buffer} holds up to the last whole aligned block, or all of it padded with
     * zeros to a whole block if {@code pad}; keeps the rest as the file's tail.
     */
    private void writeAligned(FileState file, ByteBuffer buffer, boolean pad) throws IOException {
        int filled = buffer.position();
        int whole = filled - filled % alignment;
        if (pad && whole < filled) {
            whole += alignment;
            while (buffer.position() < whole) {
                buffer.put((byte) 0);
            }
        }
        buffer.flip();
        buffer.limit(whole);
        while (buffer.hasRemaining()) {
            file.position += file.channel.write(buffer, file.position);
        }
        file.tailLength = Math.max(0, filled - whole);
        buffer.limit(filled);
        buffer.get(file.tail, 0, file.tailLength);
    }

    /** The aligned buffer, cleared, with room for {@code bytes}: grown or shrunk as needed. */
    private ByteBuffer buffer(int bytes) {
        int usual =
                WRITE_BYTES
                        + WriteAheadFileOutput.BLOCK_BYTES
                        + WriteAheadFileOutput.BLOCK_SLACK_BYTES
                        + alignment;
        ByteBuffer buffer = aligned;
        if (buffer == null
                || buffer.capacity() < bytes
                || (buffer.capacity() > 2 * usual && bytes <= usual)) {
            buffer = alignedBuffer(Math.max(usual, bytes), alignment);
            aligned = buffer;
        }
        buffer.clear();
        return buffer;
    }

    private static ByteBuffer alignedBuffer(int bytes, int alignment) {
        int rounded = (bytes + alignment - 1) / alignment * alignment;
        return ByteBuffer.allocateDirect(rounded + alignment).alignedSlice(alignment);
    }

    private void abandon(FileState file) {
        try {
            if (file.channel != null) {
                file.channel.close();
                file.channel = null;
            }
            Files.deleteIfExists(file.path);
        } catch (IOException e) {
            LOG.warn("Could not delete the unfinished write-ahead file {}", file.path, e);
        }
    }

    private void fail(FileState file, Exception e) {
        if (failure == null) {
            failure =
                    new IOException(
                            "Could not write the write-ahead file " + file.path + ": " + e, e);
        }
    }
}

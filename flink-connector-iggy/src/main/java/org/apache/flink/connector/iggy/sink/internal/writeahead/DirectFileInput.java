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

import com.sun.nio.file.ExtendedOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads a local write-ahead file with direct I/O ({@code O_DIRECT}), in aligned reads of {@link
 * #READ_BYTES}: the file was written once and is read once, so its pages need not be cached (see
 * {@link DirectFileWriter}). While the caller takes the bytes of one read, a thread of this input
 * reads the next, so the caller seldom waits for the disk. Reads past what the writer wrote (the
 * padding of its last block) are the caller's to ignore: it reads as many messages as the
 * committable counts.
 *
 * <p>Threads: the caller (the committer's task thread) owns the buffer it takes bytes from; the
 * thread {@value #THREAD_NAME} fills the other, handed over through {@link #ahead}.
 */
@Internal
final class DirectFileInput extends InputStream {

    static final String THREAD_NAME = "iggy-sink-write-ahead-read";

    /** What one read from the disk asks for: large reads keep a disk busy. */
    static final int READ_BYTES = 1024 * 1024;

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private static final Logger LOG = LoggerFactory.getLogger(DirectFileInput.class);

    private final Path path;
    private final FileChannel channel;
    private final int alignment;
    private final ExecutorService reads;

    /**
     * The thread of {@link #reads}, made by its factory during the constructor's first read: {@link
     * #close} waits for it to end, not only for its last task.
     */
    private Thread readingThread;

    /** The caller's buffer, and the one being read into. */
    private ByteBuffer current;

    private ByteBuffer next;

    /** The read into {@link #next}, giving the bytes read; null at the end of the file. */
    @Nullable private Future<Integer> ahead;

    /** Where the read after {@link #ahead} starts. */
    private long position;

    /**
     * @param size the file's size: a small file gets buffers of its size, as a committer reads one
     *     file per partition and checkpoint
     */
    private DirectFileInput(Path path, FileChannel channel, long size, int alignment)
            throws IOException {
        this.path = path;
        this.channel = channel;
        this.alignment = alignment;
        int bytes =
                (int)
                        ((Math.min(READ_BYTES, Math.max(1, size)) + alignment - 1)
                                / alignment
                                * alignment);
        this.current = ByteBuffer.allocateDirect(bytes + alignment).alignedSlice(alignment);
        this.current.limit(0);
        this.next = ByteBuffer.allocateDirect(bytes + alignment).alignedSlice(alignment);
        this.reads =
                Executors.newSingleThreadExecutor(
                        task -> {
                            readingThread = new Thread(task, threadName(path));
                            readingThread.setDaemon(true);
                            return readingThread;
                        });
        this.ahead = readAhead();
    }

    /** The name of the thread that reads {@code path}. */
    static String threadName(Path path) {
        return THREAD_NAME + " (" + path.getFileName() + ")";
    }

    /**
     * Opens {@code path} for direct reads and starts reading it.
     *
     * @throws IOException if the file cannot be opened, or not with direct I/O
     * @throws UnsupportedOperationException if the platform has no direct I/O
     */
    static DirectFileInput open(Path path) throws IOException {
        int alignment = DirectFileWriter.alignment(path);
        FileChannel channel =
                FileChannel.open(path, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
        try {
            return new DirectFileInput(path, channel, channel.size(), alignment);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] target, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (!current.hasRemaining()) {
            if (!takeAhead()) {
                return -1;
            }
        }
        int n = Math.min(length, current.remaining());
        current.get(target, offset, n);
        return n;
    }

    /** Waits for the read ahead, makes it the caller's and starts the next; false at the end. */
    private boolean takeAhead() throws IOException {
        if (ahead == null) {
            return false;
        }
        int read;
        try {
            read = ahead.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while reading " + path);
        } catch (ExecutionException e) {
            ahead = null;
            throw new IOException("Could not read " + path + ": " + e.getCause(), e.getCause());
        }
        ByteBuffer filled = next;
        next = current;
        current = filled;
        current.flip();
        // a read short of a whole buffer ended at the file's end: no direct read may follow it
        ahead = read == current.capacity() ? readAhead() : null;
        return true;
    }

    /** Starts reading the next {@link #READ_BYTES} into {@link #next}. */
    private Future<Integer> readAhead() {
        ByteBuffer buffer = next;
        long from = position;
        position += buffer.capacity();
        return reads.submit(
                () -> {
                    buffer.clear();
                    long at = from;
                    while (buffer.hasRemaining()) {
                        int n = channel.read(buffer, at);
                        if (n <= 0) {
                            break;
                        }
                        at += n;
                        if (n % alignment != 0) {
                            break; // the file's end
                        }
                    }
                    return buffer.position();
                });
    }

    /** Ends the reading thread, at most {@link #CLOSE_TIMEOUT} later, and closes the file. */
    @Override
    public void close() throws IOException {
        reads.shutdownNow();
        boolean interrupted = false;
        try {
            readingThread.join(CLOSE_TIMEOUT.toMillis());
            if (readingThread.isAlive()) {
                LOG.warn("The thread reading {} did not end within {}", path, CLOSE_TIMEOUT);
            }
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            channel.close();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

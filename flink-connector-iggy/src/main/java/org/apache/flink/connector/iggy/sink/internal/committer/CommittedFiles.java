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

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriteAheadFile;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Deletes the write-ahead files of committed committables in a thread of its own: deleting a large
 * file can take seconds, during which a waiting task would complete no checkpoint and send nothing.
 * A file's name is gone as soon as its deletion starts, which is all a writer waiting for its
 * committer looks for (see {@code CommitBacklog}).
 *
 * <p>The committer's task thread calls every method; the deleting thread, started on the first
 * deletion, only runs the deletions handed to it, each a committed {@link IggyCommittable}.
 */
@Internal
final class CommittedFiles implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CommittedFiles.class);

    /** How long {@link #close} waits for the deletions handed over. */
    private static final Duration CLOSE_WAIT = Duration.ofMinutes(1);

    private final ExecutorService deleting;
    private final Deletion deletion;

    /** Deletes one file; {@link WriteAheadFile#discard} but in tests. */
    @FunctionalInterface
    interface Deletion {
        void delete(WriteAheadFile file) throws IOException;
    }

    /**
     * @param threadName the deleting thread's name
     */
    CommittedFiles(String threadName, Deletion deletion) {
        this.deleting = Executors.newSingleThreadExecutor(new ExecutorThreadFactory(threadName));
        this.deletion = deletion;
    }

    /** Deletes the committed committable's write-ahead file soon. */
    void discard(IggyCommittable committed) {
        deleting.execute(() -> discardNow(committed));
    }

    private void discardNow(IggyCommittable committed) {
        try {
            deletion.delete(committed.file());
        } catch (Exception e) {
            LOG.warn(
                    "Could not delete the write-ahead messages of the committed {}; the file stays"
                            + " until the job's write-ahead directory is removed",
                    committed,
                    e);
        }
    }

    /**
     * Waits up to {@link #CLOSE_WAIT} for the deletions handed over, which go on in the background
     * after that.
     */
    @Override
    public void close() {
        deleting.shutdown();
        try {
            if (!deleting.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn(
                        "Still deleting the write-ahead files of committed checkpoints after {};"
                                + " the deletions go on in the background",
                        CLOSE_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

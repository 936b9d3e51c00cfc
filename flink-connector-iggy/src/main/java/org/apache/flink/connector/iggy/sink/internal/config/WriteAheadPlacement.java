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
package org.apache.flink.connector.iggy.sink.internal.config;

import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.Path;

import javax.annotation.Nullable;

import java.io.Serializable;

/**
 * Where an exactly-once sink keeps its write-ahead files: the directory set on the sink, as given;
 * else the subdirectory {@value #SUBDIRECTORY} of the job's checkpoint directory. There is no third
 * place: the committer that sends a checkpoint's files may run on another TaskManager after a
 * failover, and a lost host takes its own disk along, so a job with neither directory is refused
 * when it is built ({@code ExactlyOnceJobCheck}).
 *
 * <p>The checkpoint directory is known only when the job is built: {@link #resolve} takes it while
 * the sink is added to the job graph, before the sink is shipped to its tasks. The field it sets is
 * written by that thread only, and read by the tasks after they got the sink.
 */
@Internal
public final class WriteAheadPlacement implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The subdirectory of the checkpoint directory that holds the files. */
    public static final String SUBDIRECTORY = "iggy-sink-write-ahead";

    @Nullable private final String directory;

    /** Set by {@link #resolve} on the thread building the job graph. */
    @Nullable private volatile String checkpointDirectory;

    /**
     * @param directory the write-ahead directory set on the sink, or {@code null} for the default
     */
    public WriteAheadPlacement(@Nullable String directory) {
        this.directory = directory;
    }

    /**
     * Takes the job's checkpoint directory, when the sink joins a job.
     *
     * @param checkpointDirectory the job's checkpoint directory, or {@code null} if it names none
     * @return whether the files have a directory
     */
    public boolean resolve(@Nullable String checkpointDirectory) {
        this.checkpointDirectory = checkpointDirectory;
        return hasDirectory();
    }

    /**
     * The directory of the files.
     *
     * @throws IllegalStateException if there is none: the sink did not join a job through {@code
     *     sinkTo}, which refuses a job without one
     */
    public String directory() {
        if (directory != null) {
            return directory;
        }
        String checkpoints = checkpointDirectory;
        if (checkpoints == null) {
            throw new IllegalStateException(
                    "An exactly-once Iggy sink has no write-ahead directory: add it to a job with"
                            + " sinkTo, which takes the job's checkpoint directory, or set one on"
                            + " the sink");
        }
        return new Path(new Path(checkpoints), SUBDIRECTORY).toString();
    }

    private boolean hasDirectory() {
        return directory != null || checkpointDirectory != null;
    }

    /**
     * What is wrong with a write-ahead directory a user set, or {@code null} if nothing: it must be
     * an absolute path or a URI, since every TaskManager resolves it on its own.
     */
    @Nullable
    public static String checkDirectory(String directory) {
        if (directory.isBlank()) {
            return "is blank";
        }
        Path path;
        try {
            path = new Path(directory);
        } catch (IllegalArgumentException e) {
            return "is not a path or URI: " + e.getMessage();
        }
        if (!path.isAbsolute()) {
            return "must be absolute or a URI (e.g. s3://bucket/iggy-wal): every TaskManager"
                    + " resolves it on its own";
        }
        return null;
    }

    /** For messages: where the files go. */
    @Override
    public String toString() {
        return hasDirectory()
                ? "write-ahead files in " + directory()
                : "no write-ahead directory (neither set on the sink nor a checkpoint directory)";
    }
}

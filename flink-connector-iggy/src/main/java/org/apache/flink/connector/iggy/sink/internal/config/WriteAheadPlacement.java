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
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.Path;

import javax.annotation.Nullable;

import java.io.File;
import java.io.Serializable;

/**
 * Where an exactly-once sink keeps its write-ahead files: the directory set on the sink, as given;
 * else the subdirectory {@value #SUBDIRECTORY} of the job's checkpoint directory; else that
 * subdirectory of the temporary directory of the TaskManager the writer runs on, which a lost
 * machine takes with it.
 *
 * <p>The checkpoint directory is known only when the job is built: {@link #resolve} reads it from
 * the job's configuration while the sink is added to the job graph, before the sink is shipped to
 * its tasks. The field it sets is written by that thread only, and read by the tasks after they got
 * the sink.
 */
@Internal
public final class WriteAheadPlacement implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The subdirectory of the checkpoint or temporary directory that holds the files. */
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

    /** Reads the checkpoint directory from the job's configuration, when the sink joins a job. */
    public void resolve(ReadableConfig job) {
        checkpointDirectory =
                job.getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY).orElse(null);
    }

    /** The directory of the files, as the writer that calls this sees it. */
    public String directory() {
        if (directory != null) {
            return directory;
        }
        String checkpoints = checkpointDirectory;
        if (checkpoints != null) {
            return new Path(new Path(checkpoints), SUBDIRECTORY).toString();
        }
        return new File(System.getProperty("java.io.tmpdir"), SUBDIRECTORY)
                .getAbsoluteFile()
                .toURI()
                .toString();
    }

    /** Whether the files go to each TaskManager's temporary directory. */
    public boolean onLocalDisk() {
        return directory == null && checkpointDirectory == null;
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
        return onLocalDisk()
                ? "write-ahead files on each TaskManager's local disk (the subdirectory "
                        + SUBDIRECTORY
                        + " of its java.io.tmpdir)"
                : "write-ahead files in " + directory();
    }
}

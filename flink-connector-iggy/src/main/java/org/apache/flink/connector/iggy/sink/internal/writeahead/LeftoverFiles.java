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
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Deletes the write-ahead files that earlier writers of a subtask left and that no restorable
 * committable refers to: those of a checkpoint that never completed, or never began, before the job
 * failed. Run by a new writer before its first file, best effort.
 *
 * <p>The rule. A writer restored from checkpoint {@code m} numbers its checkpoints from {@code m +
 * 1}, one per checkpoint it took part in, so a file's number never exceeds the id of the checkpoint
 * that took it. Every committable of checkpoint {@code m} was made at or before its barrier, so its
 * file's number is at most {@code m}: a file numbered above {@code m} is in no committable the
 * restored job has, and is deleted. A file numbered {@code m} or less is kept: its committable may
 * be pending, and the committer deletes it once committed.
 *
 * <p>Only the writer directories of earlier writers of the same subtask are looked at (for a new
 * parallelism, of the old subtasks that map to this one: old index modulo new parallelism), and of
 * the same job and operator: all of them have stopped before this writer starts, whereas writers of
 * other subtasks may still run after a failover of this subtask's region alone.
 */
@Internal
final class LeftoverFiles {

    private static final Logger LOG = LoggerFactory.getLogger(LeftoverFiles.class);

    private static final Pattern WRITER_DIRECTORY = Pattern.compile("r(\\d+)-s(\\d+)-[0-9a-f]{16}");
    private static final Pattern FILE = Pattern.compile("(\\d+)-\\d+");

    private final FileSystem fs;
    private final Path operatorDirectory;
    private final WriterIdentity writer;
    private final String ownDirectory;

    LeftoverFiles(
            FileSystem fs, Path operatorDirectory, WriterIdentity writer, String ownDirectory) {
        this.fs = fs;
        this.operatorDirectory = operatorDirectory;
        this.writer = writer;
        this.ownDirectory = ownDirectory;
    }

    /** Deletes what it may; a failure is logged and leaves the rest for the next writer. */
    void remove() {
        int deleted = 0;
        try {
            for (FileStatus directory : WriteAheadDirectory.list(fs, operatorDirectory)) {
                if (isEarlierWriterOfThisSubtask(directory.getPath().getName())) {
                    deleted += removeFrom(directory.getPath());
                }
            }
        } catch (IOException e) {
            LOG.warn(
                    "Could not delete the write-ahead files left in {}; the next writer tries again",
                    operatorDirectory,
                    e);
        }
        if (deleted > 0) {
            LOG.info(
                    "Deleted {} write-ahead files of checkpoints after {} that earlier writers left"
                            + " in {}",
                    deleted,
                    writer.restoredCheckpointId(),
                    operatorDirectory);
        }
    }

    boolean isEarlierWriterOfThisSubtask(String name) {
        Matcher m = WRITER_DIRECTORY.matcher(name);
        return m.matches()
                && !name.equals(ownDirectory)
                && Long.parseLong(m.group(2)) % writer.parallelism() == writer.subtask();
    }

    private int removeFrom(Path directory) throws IOException {
        List<FileStatus> files = WriteAheadDirectory.list(fs, directory);
        int deleted = 0;
        for (FileStatus file : files) {
            Matcher m = FILE.matcher(file.getPath().getName());
            if (m.matches() && Long.parseLong(m.group(1)) > writer.restoredCheckpointId()) {
                fs.delete(file.getPath(), false);
                deleted++;
            }
        }
        if (deleted == files.size()) {
            fs.delete(directory, false);
        }
        return deleted;
    }
}

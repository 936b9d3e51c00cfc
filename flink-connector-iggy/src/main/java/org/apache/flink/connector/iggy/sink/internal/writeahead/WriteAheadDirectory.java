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

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes each checkpoint's messages to files of a durable directory (any Flink file system), one
 * file per writer, checkpoint and partition: {@code <dir>/<job id>/<operator id>/r<restored
 * checkpoint>-s<subtask>-<writer id>/<checkpoint>-<n>}. A file is flushed, synced and closed when
 * the writer hands it to the checkpoint, so a checkpoint completes only once its messages are
 * durable, and the checkpoint stores only the file's handle ({@link WriteAheadFile}). The committer
 * reads the file when it commits and deletes it afterwards.
 *
 * <p>A writer holds one block of {@link PartitionLog#BLOCK_BYTES} per open file: bounded memory,
 * whatever the volume.
 */
@Internal
public final class WriteAheadDirectory {

    private static final Logger LOG = LoggerFactory.getLogger(WriteAheadDirectory.class);

    private final String directory;

    /**
     * @param directory a URI or path of a durable file system every TaskManager reaches
     */
    public WriteAheadDirectory(String directory) {
        this.directory = directory;
    }

    /** The files of one writer; nothing slow or fallible happens here (the task is starting). */
    public WriterLog open(WriterIdentity writer) {
        return new WriterLog(writer);
    }

    /** The directory of one operator's writers. */
    private Path operatorDirectory(WriterIdentity writer) {
        return operatorDirectory(directory, writer.jobId(), writer.operatorId());
    }

    /** The directory of one operator of one job under the write-ahead directory {@code root}. */
    public static Path operatorDirectory(String root, String jobId, String operatorId) {
        return new Path(new Path(new Path(root), jobId), operatorId);
    }

    /** The directory of one writer's files: {@code r<restored checkpoint>-s<subtask>-<id>}. */
    Path writerDirectory(WriterIdentity writer) {
        return new Path(operatorDirectory(writer), writerDirectoryName(writer));
    }

    private static String writerDirectoryName(WriterIdentity writer) {
        return String.format(
                "r%d-s%d-%016x",
                writer.restoredCheckpointId(), writer.subtask(), writer.writerId());
    }

    /** The files and directories in {@code directory}; none if it does not exist. */
    public static List<FileStatus> list(FileSystem fs, Path directory) throws IOException {
        try {
            FileStatus[] files = fs.listStatus(directory);
            return files == null ? List.of() : List.of(files);
        } catch (FileNotFoundException e) {
            return List.of();
        }
    }

    @Override
    public String toString() {
        return "WriteAheadDirectory{" + directory + '}';
    }

    /**
     * One writer's files. Before its first file it deletes what earlier writers of its subtask left
     * over (see {@link LeftoverFiles}). Confined to the writer's task thread.
     */
    public final class WriterLog {

        private final WriterIdentity writer;
        private final List<PartitionLog> started = new ArrayList<>();
        private boolean leftoversRemoved;

        private WriterLog(WriterIdentity writer) {
            this.writer = writer;
        }

        /**
         * Starts the file of one checkpoint's messages for one partition.
         *
         * @param index the file's number among those of this writer and checkpoint, from 0
         */
        public PartitionLog start(long checkpointId, int index) throws IOException {
            Path path = new Path(writerDirectory(writer), checkpointId + "-" + index);
            // the committable names the file with its file system, whatever the default is there
            FileSystem fs = path.getFileSystem();
            if (!leftoversRemoved) {
                leftoversRemoved = true;
                new LeftoverFiles(
                                fs, operatorDirectory(writer), writer, writerDirectoryName(writer))
                        .remove();
            }
            started.removeIf(PartitionLog::isSealed);
            Path qualified = path.makeQualified(fs);
            PartitionLog log = new PartitionLog(qualified);
            started.add(log);
            return log;
        }

        /** Deletes what was started and never handed to a checkpoint; best effort. */
        public void close() {
            for (PartitionLog log : started) {
                log.abandon();
            }
            started.clear();
            Path own = writerDirectory(writer);
            try {
                FileSystem fs = own.getFileSystem();
                if (fs.exists(own) && list(fs, own).isEmpty()) {
                    fs.delete(own, false);
                }
            } catch (IOException e) {
                LOG.debug("Could not delete the empty write-ahead directory {}", own, e);
            }
        }
    }
}

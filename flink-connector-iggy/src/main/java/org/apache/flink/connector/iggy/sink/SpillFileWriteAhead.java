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

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes each checkpoint's messages to files of a durable directory (any Flink file system), one
 * file per writer, checkpoint and partition: {@code <dir>/<job id>/<operator id>/r<restored
 * checkpoint>-s<subtask>-<writer id>/<checkpoint>-<n>}. A file is flushed, synced and closed when
 * the writer hands it to the checkpoint, so a checkpoint completes only once its messages are
 * durable, and the checkpoint stores only the file's handle ({@link SpillFile}). The committer
 * reads the file when it commits and deletes it afterwards.
 *
 * <p>A writer holds one write buffer of {@link #WRITE_BUFFER_BYTES} per open file, whatever the
 * volume.
 */
@Internal
final class SpillFileWriteAhead implements WriteAheadStorage {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(SpillFileWriteAhead.class);

    static final int WRITE_BUFFER_BYTES = 64 * 1024;

    private final String directory;

    /**
     * @param directory a URI or path of a durable file system every TaskManager reaches
     */
    SpillFileWriteAhead(String directory) {
        this.directory = directory;
    }

    String directory() {
        return directory;
    }

    @Override
    public long memoryBound() {
        return Long.MAX_VALUE;
    }

    @Override
    public WriterLog open(WriterIdentity writer) {
        return new SpillWriterLog(writer);
    }

    /** The directory of one operator's writers. */
    private Path operatorDirectory(WriterIdentity writer) {
        return new Path(new Path(new Path(directory), writer.jobId()), writer.operatorId());
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

    @Override
    public String describe() {
        return "write-ahead files in " + directory;
    }

    @Override
    public String toString() {
        return "SpillFileWriteAhead{" + directory + '}';
    }

    /**
     * One writer's files. Before its first file it deletes what earlier writers of its subtask left
     * over (see {@link LeftoverFiles}). Confined to the writer's task thread.
     */
    private final class SpillWriterLog implements WriterLog {

        private final WriterIdentity writer;
        private final List<FileLog> started = new ArrayList<>();
        private boolean leftoversRemoved;

        SpillWriterLog(WriterIdentity writer) {
            this.writer = writer;
        }

        @Override
        public PartitionLog start(long checkpointId, byte[] tag, int index) throws IOException {
            Path path = new Path(writerDirectory(writer), checkpointId + "-" + index);
            // the committable names the file with its file system, whatever the default is there
            FileSystem fs = path.getFileSystem();
            if (!leftoversRemoved) {
                leftoversRemoved = true;
                new LeftoverFiles(
                                fs, operatorDirectory(writer), writer, writerDirectoryName(writer))
                        .remove();
            }
            started.removeIf(FileLog::isSealed);
            FileLog log = new FileLog(path.makeQualified(fs));
            started.add(log);
            return log;
        }

        @Override
        public void close() {
            for (FileLog log : started) {
                log.abandon();
            }
            started.clear();
            Path own = writerDirectory(writer);
            try {
                FileSystem fs = own.getFileSystem();
                FileStatus[] left = fs.exists(own) ? fs.listStatus(own) : null;
                if (left != null && left.length == 0) {
                    fs.delete(own, false);
                }
            } catch (IOException e) {
                LOG.debug("Could not delete the empty write-ahead directory {}", own, e);
            }
        }
    }

    /** One file, created on the first message. Confined to the writer's task thread. */
    private static final class FileLog implements PartitionLog {

        private final Path path;
        private FSDataOutputStream stream;
        private DataOutputStream out;
        private int count;

        FileLog(Path path) {
            this.path = path;
        }

        @Override
        public void append(OutgoingMessage message) throws IOException {
            if (out == null) {
                open();
            }
            WriteAheadMessageCodec.write(out, message);
            count++;
        }

        private void open() throws IOException {
            FileSystem fs = path.getFileSystem();
            stream = fs.create(path, FileSystem.WriteMode.NO_OVERWRITE);
            out = new DataOutputStream(new BufferedOutputStream(stream, WRITE_BUFFER_BYTES));
            out.writeInt(SpillFile.MAGIC);
            out.writeInt(SpillFile.FORMAT_VERSION);
        }

        @Override
        public WriteAheadMessages seal() throws IOException {
            if (out == null) {
                open();
            }
            out.flush();
            stream.sync();
            long length = stream.getPos();
            out.close();
            out = null;
            return new SpillFile(path, count, length);
        }

        boolean isSealed() {
            return out == null && stream != null;
        }

        void abandon() {
            if (out == null) {
                return;
            }
            try {
                out.close();
                path.getFileSystem().delete(path, false);
            } catch (IOException e) {
                LOG.warn("Could not delete the unfinished write-ahead file {}", path, e);
            }
        }
    }
}

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
package org.apache.flink.connector.iggy.sink.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.memory.DataOutputSerializer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

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
public final class SpillFileWriteAhead implements WriteAheadStorage {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(SpillFileWriteAhead.class);

    static final int WRITE_BUFFER_BYTES = 64 * 1024;

    /** Room beyond a full block for the message that fills it, so it seldom grows. */
    private static final int BLOCK_SLACK_BYTES = 16 * 1024;

    private final String directory;

    /**
     * @param directory a URI or path of a durable file system every TaskManager reaches
     */
    public SpillFileWriteAhead(String directory) {
        this.directory = directory;
    }

    String directory() {
        return directory;
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

    /**
     * One file, created on the first message. Messages are encoded into a block in memory, which
     * goes to the file in one call once it holds {@link #WRITE_BUFFER_BYTES}: no lock and no call
     * per field. Confined to the writer's task thread.
     */
    private static final class FileLog implements PartitionLog {

        private final Path path;
        private FSDataOutputStream stream;
        @Nullable private DataOutputSerializer block;
        private int count;

        FileLog(Path path) {
            this.path = path;
        }

        @Override
        public void append(OutgoingMessage message) throws IOException {
            if (block == null) {
                open();
            }
            WriteAheadMessageCodec.write(block, message);
            count++;
            if (block.length() >= WRITE_BUFFER_BYTES) {
                writeBlock();
            }
        }

        private void open() throws IOException {
            FileSystem fs = path.getFileSystem();
            stream = fs.create(path, FileSystem.WriteMode.NO_OVERWRITE);
            block = new DataOutputSerializer(WRITE_BUFFER_BYTES + BLOCK_SLACK_BYTES);
            block.writeInt(SpillFile.MAGIC);
            block.writeInt(SpillFile.FORMAT_VERSION);
        }

        private void writeBlock() throws IOException {
            stream.write(block.getSharedBuffer(), 0, block.length());
            if (block.getSharedBuffer().length > 2 * WRITE_BUFFER_BYTES) {
                // back to the usual size after a large message
                block = new DataOutputSerializer(WRITE_BUFFER_BYTES + BLOCK_SLACK_BYTES);
            } else {
                block.clear();
            }
        }

        @Override
        public WriteAheadMessages seal() throws IOException {
            if (block == null) {
                open();
            }
            writeBlock();
            stream.flush();
            stream.sync();
            long length = stream.getPos();
            stream.close();
            block = null;
            return new SpillFile(path, count, length);
        }

        boolean isSealed() {
            return block == null && stream != null;
        }

        void abandon() {
            if (block == null) {
                return;
            }
            block = null;
            try {
                stream.close();
                path.getFileSystem().delete(path, false);
            } catch (IOException e) {
                LOG.warn("Could not delete the unfinished write-ahead file {}", path, e);
            }
        }
    }
}

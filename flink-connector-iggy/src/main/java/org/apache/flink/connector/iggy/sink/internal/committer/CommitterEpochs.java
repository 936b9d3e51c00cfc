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
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriteAheadDirectory;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The epochs of the committers of one exactly-once sink operator in one job, and the connections
 * each opened: empty files in one directory of the write-ahead directory, written through Flink's
 * {@link FileSystem}, so that they hold on object stores too, which offer neither appending nor an
 * atomic rename. Every write creates a new file; listing the directory reads them all.
 *
 * <p>A committer that starts takes an epoch higher than every epoch listed and writes it ({@code
 * epoch-<number>-<random>-s<subtask>-p<parallelism>}; the random part orders two committers that
 * took the same number). It then owes a wait to every connection recorded ({@code conn-<its
 * epoch>-c<client id>}) by an earlier epoch of its subtask, or by an earlier epoch of a different
 * parallelism: Flink gives a committer its own subtask's committables unless the parallelism
 * changed, and after a change any committer may hold those of any earlier subtask. Committers of
 * its own parallelism and other subtasks are its live siblings; it never waits on them.
 *
 * <p>A committer records each connection it opens before it sends on it, then lists the epochs
 * again, and gives the connection up unsent if a later epoch of its subtask or of another
 * parallelism exists: a newer committer started, which either listed this connection (and waits for
 * it) or started before this listing saw it. Either way the older one's sends on a connection
 * opened after the newer one listed are never made.
 *
 * <p>Confined to the committer's task thread.
 */
@Internal
final class CommitterEpochs {

    private static final Logger LOG = LoggerFactory.getLogger(CommitterEpochs.class);

    /** The subdirectory of an operator's directory that holds the files. */
    static final String SUBDIRECTORY = "committer-epochs";

    /** An epoch's file, or a connection's with its client id. */
    private static final Pattern FILE =
            Pattern.compile("(?:epoch|conn)-(\\d{19})-([0-9a-f]{16})-s(\\d+)-p(\\d+)(?:-c(\\d+))?");

    private final Path directory;
    private final int subtask;
    private final int parallelism;

    /** This committer's epoch once {@link #start} wrote it. */
    private Epoch own;

    /** The files of what this committer waits for, deleted once it no longer has to. */
    private final List<Path> owed = new ArrayList<>();

    /** The files of this committer's own connections. */
    private final List<Path> recorded = new ArrayList<>();

    /**
     * @param directory the directory of the operator's epochs (see {@link #directory})
     */
    CommitterEpochs(Path directory, int subtask, int parallelism) {
        this.directory = directory;
        this.subtask = subtask;
        this.parallelism = parallelism;
    }

    /** Where the committers of {@code operatorId} in {@code jobId} keep their epochs. */
    static Path directory(String writeAheadDirectory, String jobId, String operatorId) {
        return new Path(
                WriteAheadDirectory.operatorDirectory(writeAheadDirectory, jobId, operatorId),
                SUBDIRECTORY);
    }

    /**
     * Writes this committer's epoch, after every epoch listed.
     *
     * @return the client ids of the connections of earlier committers this one must outlast
     * @throws IggyConnectorException if a later committer of its subtask started meanwhile
     */
    Set<Long> start() throws IOException {
        FileSystem fs = directory.getFileSystem();
        long highest = 0;
        for (FileStatus file : WriteAheadDirectory.list(fs, directory)) {
            Epoch epoch = epochOf(file.getPath().getName());
            if (epoch != null) {
                highest = Math.max(highest, epoch.number);
            }
        }
        own =
                new Epoch(
                        highest + 1,
                        String.format("%016x", new SecureRandom().nextLong()),
                        subtask,
                        parallelism);
        create(fs, new Path(directory, own.fileName()));
        Set<Long> earlier = new HashSet<>();
        for (FileStatus file : checkCurrent(fs)) {
            String name = file.getPath().getName();
            Epoch epoch = epochOf(name);
            if (epoch == null || epoch.compareTo(own) >= 0 || !own.supersedes(epoch)) {
                continue;
            }
            owed.add(file.getPath());
            if (name.startsWith("conn-")) {
                earlier.add(Long.parseLong(name.substring(name.lastIndexOf("-c") + 2)));
            }
        }
        LOG.info(
                "Exactly-once Iggy committer {} of {} started epoch {}; earlier connections to"
                        + " outlast: {}",
                subtask,
                parallelism,
                own.number,
                earlier);
        return earlier;
    }

    /**
     * Records a connection this committer opened, before anything is sent on it.
     *
     * @throws IggyConnectorException if a later committer of its subtask started: nothing may be
     *     sent on the connection
     */
    void record(long clientId) throws IOException {
        FileSystem fs = directory.getFileSystem();
        Path file =
                new Path(directory, own.fileName().replace("epoch-", "conn-") + "-c" + clientId);
        create(fs, file);
        recorded.add(file);
        checkCurrent(fs);
    }

    /**
     * The connections {@link #start} returned are gone: their files and the superseded epochs' go,
     * best effort.
     */
    void outlasted() {
        delete(owed);
    }

    /**
     * This committer's connections all ended with nothing unanswered: none of them can append
     * anything, so their files go, best effort. Its epoch's file stays, so that later epochs keep
     * counting above every earlier one.
     */
    void closedCleanly() {
        delete(recorded);
    }

    private static void delete(List<Path> files) {
        for (Path file : files) {
            try {
                file.getFileSystem().delete(file, false);
            } catch (IOException e) {
                LOG.debug("Could not delete {}", file, e);
            }
        }
        files.clear();
    }

    /** The files listed, after checking that no later epoch supersedes this committer's. */
    private List<FileStatus> checkCurrent(FileSystem fs) throws IOException {
        List<FileStatus> files = WriteAheadDirectory.list(fs, directory);
        for (FileStatus file : files) {
            Epoch epoch = epochOf(file.getPath().getName());
            if (epoch != null
                    && file.getPath().getName().startsWith("epoch-")
                    && epoch.compareTo(own) > 0
                    && epoch.supersedes(own)) {
                throw new IggyConnectorException(
                        String.format(
                                "A newer exactly-once Iggy committer (epoch %d, subtask %d of %d)"
                                        + " started after this one (epoch %d, subtask %d of %d),"
                                        + " as after a failover: this one sends nothing more.",
                                epoch.number,
                                epoch.subtask,
                                epoch.parallelism,
                                own.number,
                                own.subtask,
                                own.parallelism));
            }
        }
        return files;
    }

    private static void create(FileSystem fs, Path file) throws IOException {
        fs.create(file, FileSystem.WriteMode.NO_OVERWRITE).close();
    }

    /** The epoch a file of the directory names, or null for a file of something else. */
    private static Epoch epochOf(String name) {
        Matcher m = FILE.matcher(name);
        if (!m.matches()) {
            return null;
        }
        return new Epoch(
                Long.parseLong(m.group(1)),
                m.group(2),
                Integer.parseInt(m.group(3)),
                Integer.parseInt(m.group(4)));
    }

    /** This committer's epoch number, for tests; 0 before {@link #start}. */
    @VisibleForTesting
    long number() {
        return own == null ? 0 : own.number;
    }

    /** One committer's epoch. */
    private record Epoch(long number, String random, int subtask, int parallelism)
            implements Comparable<Epoch> {

        String fileName() {
            return String.format("epoch-%019d-%s-s%d-p%d", number, random, subtask, parallelism);
        }

        /** Whether {@code earlier}'s connections may have sent what this committer holds. */
        boolean supersedes(Epoch earlier) {
            return earlier.subtask == subtask || earlier.parallelism != parallelism;
        }

        @Override
        public int compareTo(Epoch other) {
            int byNumber = Long.compare(number, other.number);
            return byNumber != 0 ? byNumber : random.compareTo(other.random);
        }
    }
}

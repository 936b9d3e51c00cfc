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

import java.io.File;

/**
 * Write-ahead files on the local disk of each TaskManager, in the subdirectory {@value
 * WriteAheadPlacement#SUBDIRECTORY} of its temporary directory ({@code java.io.tmpdir}): the
 * write-ahead storage of a sink with neither a write-ahead directory nor a checkpoint directory.
 * The directory is looked up where the writer runs, not where the job was built. Files are named
 * per job, operator and writer as in any write-ahead directory (see {@link SpillFileWriteAhead}),
 * so jobs never share one.
 *
 * <p>A file outlives a restart of its task or of its TaskManager's process, but not the loss of the
 * machine or of its disk: a committer that then finds it missing fails, naming the file and the fix
 * (see {@link SpillFile}). The writer's committer runs in the same slot, and so on the same
 * TaskManager, as long as both keep their parallelism.
 */
@Internal
final class LocalDiskWriteAhead implements WriteAheadStorage {

    private static final long serialVersionUID = 1L;

    /** The directory on this machine: {@code <java.io.tmpdir>/iggy-sink-write-ahead}. */
    static String directory() {
        return new File(System.getProperty("java.io.tmpdir"), WriteAheadPlacement.SUBDIRECTORY)
                .getAbsoluteFile()
                .toURI()
                .toString();
    }

    @Override
    public WriterLog open(WriterIdentity writer) {
        return new SpillFileWriteAhead(directory()).open(writer);
    }

    @Override
    public String describe() {
        return "write-ahead files on each TaskManager's local disk (the subdirectory "
                + WriteAheadPlacement.SUBDIRECTORY
                + " of its java.io.tmpdir)";
    }

    @Override
    public String toString() {
        return "LocalDiskWriteAhead";
    }
}

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
package org.apache.flink.connector.iggy.common.shim;

import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.state.filesystem.AbstractFileStateBackend;
import org.apache.flink.runtime.state.storage.FileSystemCheckpointStorage;
import org.apache.flink.runtime.state.storage.JobManagerCheckpointStorage;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import javax.annotation.Nullable;

/**
 * The checkpoint directory a Flink 1.20 job sets in code, which its configuration does not show: a
 * state backend that is its own checkpoint storage ({@code FsStateBackend}), which Flink prefers,
 * else {@code getCheckpointConfig().setCheckpointStorage(...)}. Flink 2 sets checkpoint storage
 * only through the configuration.
 */
@Internal
public final class CheckpointStorageInCode {

    private CheckpointStorageInCode() {}

    /** The directory of the checkpoint storage set in code, or {@code null} if none names one. */
    @Nullable
    @SuppressWarnings("deprecation")
    public static String directory(StreamExecutionEnvironment env) {
        Path path = path(env.getStateBackend());
        if (path == null) {
            path = path(env.getCheckpointConfig().getCheckpointStorage());
        }
        return path == null ? null : path.toString();
    }

    @Nullable
    private static Path path(@Nullable Object storage) {
        if (storage instanceof FileSystemCheckpointStorage) {
            return ((FileSystemCheckpointStorage) storage).getCheckpointPath();
        }
        if (storage instanceof JobManagerCheckpointStorage) {
            return ((JobManagerCheckpointStorage) storage).getCheckpointPath();
        }
        if (storage instanceof AbstractFileStateBackend) {
            return ((AbstractFileStateBackend) storage).getCheckpointPath();
        }
        return null;
    }
}

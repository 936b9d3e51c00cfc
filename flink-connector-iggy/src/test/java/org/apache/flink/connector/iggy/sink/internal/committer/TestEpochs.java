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

import java.nio.file.Path;

/** Committer epochs for tests: every committer a test makes in one directory is subtask 0 of 1. */
final class TestEpochs {

    private TestEpochs() {}

    /** The epochs of subtask 0 of 1 under {@code dir}. */
    static CommitterEpochs in(Path dir) {
        return in(dir, 0, 1);
    }

    static CommitterEpochs in(Path dir, int subtask, int parallelism) {
        return new CommitterEpochs(
                new org.apache.flink.core.fs.Path(dir.resolve("epochs").toUri()),
                subtask,
                parallelism);
    }
}

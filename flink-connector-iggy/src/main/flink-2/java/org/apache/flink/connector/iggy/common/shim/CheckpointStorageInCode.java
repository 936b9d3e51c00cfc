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
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import javax.annotation.Nullable;

/**
 * The checkpoint directory a job sets in code apart from its configuration: none on Flink 2, which
 * sets checkpoint storage only through the configuration ({@code execution.checkpointing.dir}, also
 * when given in code to {@code getExecutionEnvironment(configuration)} or {@code configure}). Flink
 * 1.20's variant reads {@code setCheckpointStorage(...)}.
 */
@Internal
public final class CheckpointStorageInCode {

    private CheckpointStorageInCode() {}

    /** Always {@code null}: the configuration names any checkpoint directory. */
    @Nullable
    public static String directory(StreamExecutionEnvironment env) {
        return null;
    }
}

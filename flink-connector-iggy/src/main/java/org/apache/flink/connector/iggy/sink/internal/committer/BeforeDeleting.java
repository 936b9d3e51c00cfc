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
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;

import java.io.IOException;
import java.util.Set;

/**
 * What the committer does with the partitions of committed committables before it deletes their
 * write-ahead files, the only copy of those messages outside the server: nothing, or {@link
 * FsyncPartitions}. Chosen once per committer from {@link IggyWriterConfig#fsyncBeforeDelete}.
 */
@Internal
@FunctionalInterface
interface BeforeDeleting {

    /** Deletes at once: an acknowledgement is taken as durable. */
    BeforeDeleting NOTHING = (client, partitions) -> {};

    /**
     * Runs on the committer's task thread once every message of the committables was acknowledged;
     * a failure leaves their files in place.
     *
     * @param client the connection that sent them, connecting again if it was given up
     * @param partitions each partition once
     */
    void run(Connection client, Set<IggyTopicPartition> partitions) throws IOException;

    /** The committer's connection: opening one records it in the committer's epoch first. */
    @FunctionalInterface
    interface Connection {
        IggyServerClient get() throws IOException;
    }

    /** The behaviour the sink's configuration asks for. */
    static BeforeDeleting of(IggyWriterConfig config) {
        return config.fsyncBeforeDelete() ? new FsyncPartitions() : NOTHING;
    }
}

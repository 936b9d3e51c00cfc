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

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Makes committed messages durable before their write-ahead files go: asks the server to write each
 * partition's unsaved messages to disk and fsync them (Iggy's FLUSH_UNSAVED_BUFFER with fsync), all
 * partitions at once, and waits for every answer. Iggy 0.8 acknowledges a send while the messages
 * may still be in its memory only; without this, a crash of the server process could lose
 * acknowledged messages whose files the committer had deleted.
 *
 * <p>Stateless.
 */
@Internal
final class FsyncPartitions implements BeforeDeleting {

    @Override
    public void run(Connection connection, Set<IggyTopicPartition> partitions) throws IOException {
        IggyServerClient client = connection.get();
        List<CompletableFuture<Void>> flushes = new ArrayList<>(partitions.size());
        for (IggyTopicPartition partition : partitions) {
            flushes.add(client.flushAndSync(partition));
        }
        Iterator<CompletableFuture<Void>> flush = flushes.iterator();
        for (IggyTopicPartition partition : partitions) {
            client.await(flush.next(), "flush and fsync " + partition);
        }
    }
}

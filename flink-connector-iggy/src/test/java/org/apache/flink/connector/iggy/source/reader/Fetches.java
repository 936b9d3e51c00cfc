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
package org.apache.flink.connector.iggy.source.reader;

import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.iggy.source.IggyMessage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** What the split reader tests read: fetches until a condition holds, within a deadline. */
final class Fetches {

    private Fetches() {}

    /**
     * Fetches until {@code done}, adding each payload (as UTF-8) to {@code payloads} and the
     * finished splits to {@code finished}; fails once {@code deadline} has passed.
     */
    static void fetchUntil(
            IggyPartitionSplitReader reader,
            BooleanSupplier done,
            Duration deadline,
            Collection<String> payloads,
            Collection<String> finished)
            throws IOException {
        long end = System.nanoTime() + deadline.toNanos();
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as("deadline passed, read " + payloads).isLessThan(end);
            RecordsWithSplitIds<IggyMessage> records = reader.fetch();
            while (records.nextSplit() != null) {
                IggyMessage message;
                while ((message = records.nextRecordFromSplit()) != null) {
                    payloads.add(new String(message.payload(), StandardCharsets.UTF_8));
                }
            }
            finished.addAll(records.finishedSplits());
        }
    }
}

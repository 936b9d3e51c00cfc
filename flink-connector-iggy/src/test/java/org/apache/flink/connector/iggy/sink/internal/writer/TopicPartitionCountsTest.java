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
package org.apache.flink.connector.iggy.sink.internal.writer;

import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.connector.base.sink.writer.TestSinkInitContext;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Partition counts per topic: described once, then again in the background after five minutes. */
class TopicPartitionCountsTest {

    private static final IggySinkTarget TOPIC = IggySinkTarget.of("s", "t");

    private final IggySinkWriterTest.ScriptedSender sender =
            new IggySinkWriterTest.ScriptedSender(3);
    private final MailboxExecutor mailbox = new TestSinkInitContext().getMailboxExecutor();
    private final AtomicLong now = new AtomicLong();
    private final TopicPartitionCounts counts =
            new TopicPartitionCounts(() -> sender, mailbox, now::get);

    @Test
    void aTopicIsDescribedOnceAndAgainAfterFiveMinutesWhileTheOldCountIsUsed() throws Exception {
        assertThat(counts.of(TOPIC)).isEqualTo(3);
        sender.topicPartitions.put(TOPIC, 5);
        now.addAndGet(TopicPartitionCounts.MAX_AGE.toNanos() - 1);
        assertThat(counts.of(TOPIC)).isEqualTo(3);
        assertThat(sender.described).hasSize(1);

        now.addAndGet(1);
        assertThat(counts.of(TOPIC)).as("the old count until the answer arrives").isEqualTo(3);
        assertThat(counts.of(TOPIC)).isEqualTo(3);
        assertThat(sender.described).as("one refresh at a time").hasSize(2);
        runMails();
        assertThat(counts.of(TOPIC)).isEqualTo(5);
        assertThat(sender.described).hasSize(2);
    }

    @Test
    void aFailedRefreshKeepsTheOldCountAndAMissingTopicFailsItsFirstRecord() throws Exception {
        assertThat(counts.of(TOPIC)).isEqualTo(3);
        sender.missingTopics.add(TOPIC);
        now.addAndGet(TopicPartitionCounts.MAX_AGE.toNanos());
        assertThat(counts.of(TOPIC)).isEqualTo(3);
        runMails();
        assertThat(counts.of(TOPIC)).isEqualTo(3);

        IggySinkTarget missing = IggySinkTarget.of("s", "missing");
        sender.missingTopics.add(missing);
        assertThatThrownBy(() -> counts.of(missing))
                .isInstanceOf(IggyConfigurationException.class)
                .hasMessageContaining("topic 'missing' of stream 's'");
    }

    private void runMails() throws InterruptedException {
        while (mailbox.tryYield()) {
            // each call runs one mail
        }
    }
}

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
package org.apache.flink.connector.iggy.sink.internal.batching;

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.base.sink.writer.TestSinkInitContext;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggySinkBuilderTest;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.writer.IggySinkWriterTest;
import org.apache.flink.connector.iggy.sink.internal.writer.IggySinkWriterTest.ScriptedSender;
import org.apache.flink.connector.iggy.sink.internal.writer.IggySinkWriterTest.Send;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AtLeastOnceDelivery} on its own: batches cut by bytes, several of one partition in flight,
 * acknowledgements awaited at a checkpoint (but with {@code NONE} only at the end), counted when
 * acknowledged.
 */
class AtLeastOnceDeliveryTest {

    private static final IggyTopicPartition P0 = IggyTopicPartition.of("s", "t", 0);

    /** Three 1-byte messages: 3 × (64 + 1) bytes. */
    private static final long THREE_MESSAGES = 3 * 65;

    private final ScriptedSender sender = new ScriptedSender(1);
    private final TestSinkInitContext context = new TestSinkInitContext();

    @Test
    void cutsBatchesByBytesAndKeepsSeveralOfOnePartitionInFlight() throws Exception {
        sender.autoComplete = false;
        AtLeastOnceDelivery delivery = delivery(DeliveryGuarantee.AT_LEAST_ONCE);
        for (String m : List.of("a", "b", "c", "d", "e", "f", "g")) {
            delivery.add(P0, message(m));
        }
        assertThat(sender.sends)
                .as("two full batches sent without waiting for each other")
                .extracting(Send::payloads)
                .containsExactly(List.of("a", "b", "c"), List.of("d", "e", "f"));
        assertThat(delivery.pendingBatches()).isEqualTo(2);
        assertThat(delivery.bufferedRecords()).isOne();
        delivery.close();
    }

    @Test
    void flushSendsTheRestAndWaitsForEveryAcknowledgement() throws Exception {
        sender.autoComplete = false;
        AtLeastOnceDelivery delivery = delivery(DeliveryGuarantee.AT_LEAST_ONCE);
        for (String m : List.of("a", "b", "c", "d")) {
            delivery.add(P0, message(m));
        }
        assertThat(sender.sends).hasSize(1);
        acknowledgeEverySendInAMail();
        delivery.flush(false);
        assertThat(sender.sends)
                .extracting(Send::payloads)
                .containsExactly(List.of("a", "b", "c"), List.of("d"));
        assertThat(delivery.pendingBatches()).isZero();
        assertThat(context.metricGroup().getNumRecordsSendCounter().getCount()).isEqualTo(4);
        assertThat(context.metricGroup().getNumBytesSendCounter().getCount()).isEqualTo(4 * 65);
        assertThat(delivery.prepareCommit()).as("nothing for a committer").isEmpty();
        delivery.close();
    }

    @Test
    void noneWaitsForAcknowledgementsOnlyAtTheEndOfInput() throws Exception {
        sender.autoComplete = false;
        AtLeastOnceDelivery delivery = delivery(DeliveryGuarantee.NONE);
        delivery.add(P0, message("a"));
        delivery.flush(false);
        assertThat(sender.sends).hasSize(1);
        assertThat(delivery.pendingBatches()).as("a checkpoint does not wait").isOne();
        assertThat(context.metricGroup().getNumRecordsSendCounter().getCount())
                .as("counted when acknowledged")
                .isZero();
        acknowledgeEverySendInAMail();
        delivery.flush(true);
        assertThat(delivery.pendingBatches()).isZero();
        assertThat(context.metricGroup().getNumRecordsSendCounter().getCount()).isOne();
        delivery.close();
    }

    /** Queues a mail that acknowledges every send so far: a waiting flush runs it. */
    private void acknowledgeEverySendInAMail() {
        context.getMailboxExecutor()
                .execute(
                        () -> sender.sends.forEach(s -> s.result.complete(null)),
                        "acknowledge every send");
    }

    private AtLeastOnceDelivery delivery(DeliveryGuarantee guarantee) {
        IggyWriterConfig config =
                IggySinkBuilderTest.<String>sinkTo("s", "t")
                        .setRecordSerializer(IggySinkWriterTest.byFirstChar())
                        .setDeliveryGuarantee(guarantee)
                        .setMaxBatchBytes(THREE_MESSAGES)
                        .setLinger(Duration.ofHours(1))
                        .build()
                        .writerConfig();
        return new AtLeastOnceDelivery(config, () -> sender, context);
    }

    private static OutgoingMessage message(String payload) {
        return new OutgoingMessage(
                payload.getBytes(StandardCharsets.UTF_8), IggyHeaders.empty(), null, 0);
    }
}

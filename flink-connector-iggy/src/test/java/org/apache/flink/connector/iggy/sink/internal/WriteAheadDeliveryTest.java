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

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.base.sink.writer.TestSinkInitContext;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggySinkBuilderTest;
import org.apache.flink.connector.iggy.sink.WriteAheadTesting;
import org.apache.flink.connector.iggy.sink.internal.IggySinkWriterTest.ScriptedSender;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link WriteAheadDelivery} on its own: it holds messages and sends nothing, reads the end offsets
 * at flush, and hands the held messages to the checkpoint.
 */
class WriteAheadDeliveryTest {

    private static final IggyTopicPartition P0 = IggyTopicPartition.of("s", "t", 0);
    private static final IggyTopicPartition OTHER = IggyTopicPartition.of("s", "u", 1);

    private final ScriptedSender sender = new ScriptedSender(2);
    private final TestSinkInitContext context = new TestSinkInitContext();
    private int sendersOpened;

    @TempDir Path writeAheadDir;

    @Test
    void holdsTheMessagesAndHandsThemToTheCheckpointWithTheEndOffsets() throws Exception {
        WriteAheadDelivery delivery = delivery();
        sender.endOffset = 42;
        delivery.add(P0, message("a"), false);
        delivery.add(OTHER, message("b"), false);
        delivery.add(P0, message("c"), false);
        assertThat(context.metricGroup().getNumRecordsSendCounter().getCount())
                .as("counted when taken")
                .isEqualTo(3);
        assertThat(context.metricGroup().getNumBytesSendCounter().getCount()).isEqualTo(3 * 65);
        delivery.flush(false);
        assertThat(sender.sends).as("nothing is sent by the writer").isEmpty();

        List<IggyCommittable> committables = new ArrayList<>(delivery.prepareCommit());
        assertThat(committables)
                .extracting(c -> c.topic().name() + "/" + c.partition() + "@" + c.readFrom())
                .containsExactlyInAnyOrder("t/0@42", "u/1@42");
        IggyCommittable p0 =
                committables.stream().filter(c -> c.partition() == 0).findFirst().orElseThrow();
        assertThat(payloads(p0)).containsExactly("a", "c");
        assertThat(delivery.prepareCommit()).as("the next checkpoint starts empty").isEmpty();
        delivery.close();
    }

    @Test
    void anIntervalWithoutMessagesNeverConnects() throws Exception {
        WriteAheadDelivery delivery = delivery();
        delivery.flush(false);
        assertThat(delivery.prepareCommit()).isEmpty();
        assertThat(sendersOpened).isZero();
        delivery.close();
    }

    @Test
    void refusesAMessageWithAnIdOfItsOwn() {
        WriteAheadDelivery delivery = delivery();
        assertThatThrownBy(() -> delivery.add(P0, message("a"), true))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("chooses every message id itself");
        delivery.close();
    }

    private WriteAheadDelivery delivery() {
        IggyWriterConfig config =
                IggySinkBuilderTest.<String>sinkTo("s", "t")
                        .setRecordSerializer(IggySinkWriterTest.byFirstChar())
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .setExactlyOnceWriteAheadDir(writeAheadDir.toString())
                        .build()
                        .writerConfig();
        return new WriteAheadDelivery(
                config,
                () -> {
                    sendersOpened++;
                    return sender;
                },
                context);
    }

    private static OutgoingMessage message(String payload) {
        return new OutgoingMessage(
                payload.getBytes(StandardCharsets.UTF_8), IggyHeaders.empty(), null, 0);
    }

    private static List<String> payloads(IggyCommittable committable) {
        return WriteAheadTesting.messages(committable).stream()
                .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }
}

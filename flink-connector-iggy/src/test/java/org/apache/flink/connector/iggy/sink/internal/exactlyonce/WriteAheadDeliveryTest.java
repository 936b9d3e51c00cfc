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
package org.apache.flink.connector.iggy.sink.internal.exactlyonce;

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.base.sink.writer.TestSinkInitContext;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggySinkBuilderTest;
import org.apache.flink.connector.iggy.sink.WriteAheadTesting;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writer.IggySinkWriterTest;
import org.apache.flink.connector.iggy.sink.internal.writer.IggySinkWriterTest.ScriptedSender;
import org.apache.flink.connector.iggy.testutils.Conditions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link WriteAheadDelivery} on its own: it holds messages and sends nothing, asks for the end
 * offsets without waiting for them, and hands the held messages to the checkpoint.
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
        delivery.add(P0, message("a"));
        delivery.add(OTHER, message("b"));
        delivery.add(P0, message("c"));
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

    /**
     * The server answers the end offsets slowly: the checkpoint takes its committable at once, to
     * be read back from the partition's start if its commit is retried, and a later one takes the
     * answer once it came; a failed answer fails nothing and leaves the last one in force.
     */
    @Test
    void aSlowOrFailedEndOffsetAnswerNeverHoldsUpACheckpoint() throws Exception {
        sender.answerEnds = false;
        WriteAheadDelivery delivery = delivery();
        delivery.add(P0, message("a"));
        delivery.flush(false);
        assertThat(delivery.prepareCommit())
                .as("taken while the answer is outstanding")
                .singleElement()
                .extracting(IggyCommittable::readFrom)
                .isEqualTo(0L);
        assertThat(sender.heldEnds).as("asked when the first message came").hasSize(1);

        delivery.add(P0, message("b"));
        assertThat(sender.heldEnds).as("not again while unanswered").hasSize(1);
        sender.heldEnds.get(0).complete(Map.of(0L, 42L, 1L, 7L));
        delivery.flush(false);
        assertThat(delivery.prepareCommit())
                .singleElement()
                .extracting(IggyCommittable::readFrom)
                .isEqualTo(42L);

        delivery.add(P0, message("c"));
        assertThat(sender.heldEnds).as("asked again in the next checkpoint").hasSize(2);
        sender.heldEnds.get(1).completeExceptionally(new IggyConnectorException("timed out"));
        delivery.flush(false);
        assertThat(delivery.prepareCommit())
                .singleElement()
                .extracting(IggyCommittable::readFrom)
                .as("the last answer")
                .isEqualTo(42L);
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
        OutgoingMessage withId =
                new OutgoingMessage(
                        "a".getBytes(StandardCharsets.UTF_8), IggyHeaders.empty(), new byte[16], 0);
        assertThatThrownBy(() -> delivery.add(P0, withId))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("chooses every message id itself");
        delivery.close();
    }

    @Test
    void aWriterFarAheadOfItsCommitterWaitsUntilTheOldestCheckpointIsCommitted() throws Exception {
        byte[] mebibyte = new byte[1 << 20];
        OutgoingMessage large = new OutgoingMessage(mebibyte, IggyHeaders.empty(), null, 0);
        CompletableFuture<IggyCommittable> oldest = new CompletableFuture<>();
        CompletableFuture<Void> lastMessage = new CompletableFuture<>();
        // the mailbox belongs to the thread that made it: the writer runs there
        Thread task =
                new Thread(
                        () -> {
                            try {
                                WriteAheadDelivery delivery = delivery(new TestSinkInitContext());
                                sender.endOffset = 0;
                                delivery.add(P0, message("a"));
                                delivery.flush(false);
                                oldest.complete(delivery.prepareCommit().iterator().next());
                                for (long i = 0; i <= CommitBacklog.MIN_AHEAD_BYTES >> 20; i++) {
                                    delivery.add(P0, large);
                                }
                                delivery.flush(false);
                                delivery.prepareCommit();
                                delivery.add(P0, message("waits"));
                                lastMessage.complete(null);
                                delivery.close();
                            } catch (Throwable e) {
                                oldest.completeExceptionally(e);
                                lastMessage.completeExceptionally(e);
                            }
                        });
        task.start();
        IggyCommittable committable = oldest.get(30, TimeUnit.SECONDS);
        Conditions.waitUntil(
                "the writer waits: "
                        + CommitBacklog.MIN_AHEAD_BYTES
                        + " bytes ahead of "
                        + committable,
                Duration.ofSeconds(30),
                () -> waitsForItsCommitter(task) || lastMessage.isDone());
        assertThat(lastMessage).as("waiting for the oldest checkpoint's commit").isNotDone();

        committable.file().discard();
        lastMessage.get(30, TimeUnit.SECONDS);
        task.join();
    }

    private static boolean waitsForItsCommitter(Thread task) {
        return Arrays.stream(task.getStackTrace())
                .anyMatch(
                        frame ->
                                frame.getClassName().equals(CommitBacklog.class.getName())
                                        && frame.getMethodName().equals("beforeMessage"));
    }

    private WriteAheadDelivery delivery() {
        return delivery(context);
    }

    private WriteAheadDelivery delivery(TestSinkInitContext context) {
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

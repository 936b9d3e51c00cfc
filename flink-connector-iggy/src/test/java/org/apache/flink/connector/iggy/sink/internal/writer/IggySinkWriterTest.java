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

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.base.sink.writer.TestSinkInitContext;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.IggyRecordSerializationSchema;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.IggySinkBuilderTest;
import org.apache.flink.connector.iggy.sink.IggySinkContext;
import org.apache.flink.connector.iggy.sink.IggySinkRecord;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.sink.internal.batching.AtLeastOnceDelivery;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.IggyBatchSender;
import org.apache.flink.connector.iggy.sink.internal.send.WireFormat;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Batching, linger, in-flight bound and failure surfacing, against a scripted sender. */
public class IggySinkWriterTest {

    private final ScriptedSender sender = new ScriptedSender(3);
    private final TestSinkInitContext context = new TestSinkInitContext();
    private AtLeastOnceDelivery delivery;

    @Test
    void sendsAFullBatchPerPartitionAtOnce() throws Exception {
        IggySinkWriter<String> writer = writer(config(3, Duration.ofHours(1), 5), byFirstChar());
        write(writer, "0a", "1a", "0b", "1b", "0c");
        assertThat(sender.sends).hasSize(1);
        assertThat(sender.sends.get(0).partition).isZero();
        assertThat(sender.sends.get(0).payloads()).containsExactly("0a", "0b", "0c");
        assertThat(delivery.bufferedRecords()).isEqualTo(2);
    }

    @Test
    void theSchemaSeesTheWritersSubtaskAndPartitionsAndEachRecordsTimestamp() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        IggyRecordSerializationSchema<String> schema =
                new IggyRecordSerializationSchema<>() {
                    @Override
                    public void open(
                            SerializationSchema.InitializationContext initContext,
                            IggySinkContext sinkContext) {
                        seen.add(
                                "open "
                                        + sinkContext.subtaskId()
                                        + "/"
                                        + sinkContext.parallelism());
                        assertThatThrownBy(sinkContext::partitionCount)
                                .isInstanceOf(IllegalStateException.class)
                                .hasMessageContaining("first record");
                    }

                    @Override
                    public IggySinkRecord serialize(String element, IggySinkContext context) {
                        seen.add(
                                element
                                        + " "
                                        + context.partitionCount()
                                        + " "
                                        + context.timestamp());
                        return IggySinkRecord.of(0, new byte[0], 0);
                    }
                };
        IggySinkWriter<String> writer = writer(config(100, Duration.ZERO, 5), schema);
        writer.write("a", recordAt(77L));
        writer.write("b", recordAt(null));
        assertThat(seen).containsExactly("open 0/1", "a 3 77", "b 3 null");
    }

    @Test
    void theTopicIsDescribedOnceWhenItsFirstRecordArrives() throws Exception {
        IggySinkWriter<String> writer = writer(config(100, Duration.ZERO, 5), byFirstChar());
        assertThat(sender.described).isEmpty();
        write(writer, "0a", "1a", "2a");
        assertThat(sender.described)
                .containsExactly(new IggySinkTarget(IggyId.of("s"), IggyId.of(7)));
        assertThat(sender.sends)
                .extracting(send -> send.target)
                .containsExactlyInAnyOrder(
                        new IggyTopicPartition(IggyId.of("s"), IggyId.of(7), 0),
                        new IggyTopicPartition(IggyId.of("s"), IggyId.of(7), 1),
                        new IggyTopicPartition(IggyId.of("s"), IggyId.of(7), 2));
    }

    @Test
    void routedRecordsAreBatchedPerTopicAndPartitionedByTheirTopicsPartitionCount()
            throws Exception {
        IggySinkTarget a = IggySinkTarget.of("s", "a");
        IggySinkTarget b = IggySinkTarget.of("other", "b");
        sender.topicPartitions.put(a, 2);
        sender.topicPartitions.put(b, 5);
        IggySinkWriter<String> writer =
                writer(config(100, Duration.ofHours(1), 5), routedByPrefix(a, b));
        List<String> records = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            records.add((i % 3 == 0 ? "a" : i % 3 == 1 ? "b" : "t") + "-" + i);
        }
        write(writer, records.toArray(new String[0]));
        writer.flush(false);
        assertThat(sender.described)
                .containsExactlyInAnyOrder(a, b, new IggySinkTarget(IggyId.of("s"), IggyId.of(7)));
        Map<String, IggyTopicPartition> sentTo = new HashMap<>();
        for (Send send : sender.sends) {
            assertThat(send.payloads()).allSatisfy(p -> sentTo.put(p, send.target));
        }
        assertThat(sentTo).hasSize(records.size());
        for (String record : records) {
            IggySinkTarget topic =
                    record.startsWith("a")
                            ? a
                            : record.startsWith("b")
                                    ? b
                                    : new IggySinkTarget(IggyId.of("s"), IggyId.of(7));
            int partitions = sender.topicPartitions.getOrDefault(topic, 3);
            assertThat(sentTo.get(record))
                    .as(record)
                    .isEqualTo(
                            topic.partition(
                                    IggyPartitioner.partitionForKey(
                                            record.getBytes(StandardCharsets.UTF_8), partitions)));
        }
        // one batch per (stream, topic, partition) with records
        assertThat(sender.sends).hasSize(new java.util.HashSet<>(sentTo.values()).size());
    }

    @Test
    void aRecordWithoutTopicFailsWhenTheSinkHasNoneOfItsOwn() throws Exception {
        IggyWriterConfig config =
                IggySink.<String>builder()
                        .setConnection(IggySinkBuilderTest.CONNECTION)
                        .setStream("s")
                        .setRecordSerializer(byFirstChar())
                        .build()
                        .writerConfig();
        IggySinkWriter<String> writer = writer(config, byFirstChar());
        assertThatThrownBy(() -> write(writer, "0a"))
                .isInstanceOf(IggyConfigurationException.class)
                .hasMessageContaining("A record names no topic")
                .hasMessageContaining("stream 's'")
                .hasMessageContaining("setTopic");
    }

    @Test
    void aMissingTopicFailsTheFirstWriteWithTheSendersMessage() throws Exception {
        sender.missingTopics.add(new IggySinkTarget(IggyId.of("s"), IggyId.of(7)));
        IggySinkWriter<String> writer = writer(config(100, Duration.ZERO, 5), byFirstChar());
        assertThatThrownBy(() -> write(writer, "0a"))
                .isInstanceOf(IggyConfigurationException.class)
                .hasMessageContaining("topic #7 of stream 's'");
        assertThat(sender.sends).isEmpty();
    }

    @Test
    void lingerTimerSendsAnIdleBuffer() throws Exception {
        context.getTestProcessingTimeService().setCurrentTime(1_000);
        IggySinkWriter<String> writer =
                writer(config(100, Duration.ofMillis(50), 5), byFirstChar());
        write(writer, "0a");
        context.getTestProcessingTimeService().setCurrentTime(1_020);
        write(writer, "1a");
        assertThat(sender.sends).isEmpty();
        context.getTestProcessingTimeService().setCurrentTime(1_050);
        assertThat(sender.sends).hasSize(1);
        assertThat(sender.sends.get(0).payloads()).containsExactly("0a");
        context.getTestProcessingTimeService().setCurrentTime(1_070);
        assertThat(sender.sends).hasSize(2);
        assertThat(sender.sends.get(1).payloads()).containsExactly("1a");
    }

    @Test
    void zeroLingerSendsARecordAtOnceWhenItsPartitionIsIdle() throws Exception {
        IggySinkWriter<String> writer = writer(config(100, Duration.ZERO, 5), byFirstChar());
        write(writer, "0a");
        runMails();
        write(writer, "0b");
        assertThat(sender.sends)
                .extracting(Send::payloads)
                .containsExactly(List.of("0a"), List.of("0b"));
    }

    @Test
    void boundsTheBatchesSentOrWaiting() throws Exception {
        sender.autoComplete = false;
        IggySinkWriter<String> writer = writer(config(1, Duration.ofHours(1), 2), byFirstChar());
        write(writer, "0a", "1b");
        assertThat(sender.sends).hasSize(2);
        int[] sendsWhenASlotFreed = {-1};
        context.getMailboxExecutor()
                .execute(
                        () -> {
                            sendsWhenASlotFreed[0] = sender.sends.size();
                            sender.sends.get(0).result.complete(null);
                        },
                        "acknowledge the first batch");
        // The third batch runs the task's mails until one of the two in flight is answered.
        write(writer, "2c");
        assertThat(sendsWhenASlotFreed[0]).isEqualTo(2);
        assertThat(sender.sends).hasSize(3);
        assertThat(sender.sends.get(2).payloads()).containsExactly("2c");
        assertThat(delivery.pendingBatches()).isEqualTo(2);
    }

    @Test
    void aBusyPartitionKeepsFillingItsNextBatchAndSendsItOnAcknowledgement() throws Exception {
        sender.autoComplete = false;
        IggySinkWriter<String> writer = writer(config(10, Duration.ZERO, 5), byFirstChar());
        write(writer, "0a", "0b", "0c", "1a");
        // "0a" is in flight, so "0b" and "0c" wait for it; partition 1 is independent.
        assertThat(sender.sends)
                .extracting(Send::payloads)
                .containsExactly(List.of("0a"), List.of("1a"));
        sender.sends.get(0).result.complete(null);
        runMails();
        assertThat(sender.sends)
                .extracting(Send::payloads)
                .containsExactly(List.of("0a"), List.of("1a"), List.of("0b", "0c"));
    }

    @Test
    void fullBatchesOfOnePartitionAreSentWithoutWaitingForEachOther() throws Exception {
        sender.autoComplete = false;
        IggySinkWriter<String> writer = writer(config(2, Duration.ofHours(1), 5), byFirstChar());
        write(writer, "0a", "0b", "0c", "0d", "0e", "0f");
        // The sender appends a partition's batches in call order, so they may all be in flight.
        assertThat(sender.sends)
                .extracting(Send::payloads)
                .containsExactly(List.of("0a", "0b"), List.of("0c", "0d"), List.of("0e", "0f"));
    }

    @Test
    void aBatchWithMessageIdsWaitsUntilItsPartitionHasNothingInFlight() throws Exception {
        sender.autoComplete = false;
        IggyRecordSerializationSchema<String> withIds =
                IggySinkBuilderTest.<String>sinkTo("s", "t")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .setPartitioner((record, key, payload, context) -> record.charAt(0) - '0')
                        .setMessageIdFunction(r -> BigInteger.valueOf(r.charAt(1)))
                        .build()
                        .recordSerializer();
        IggySinkWriter<String> writer = writer(config(2, Duration.ofHours(1), 5), withIds);
        write(writer, "0a", "0b", "0c", "0d", "1a", "1b");
        // [0c, 0d] must not be appended before [0a, 0b] is: were [0a, 0b] lost, its replay
        // would land behind [0c, 0d], whose own replay deduplication drops.
        assertThat(sender.sends)
                .extracting(Send::payloads)
                .containsExactly(List.of("0a", "0b"), List.of("1a", "1b"));
        assertThat(delivery.pendingBatches()).isEqualTo(3);
        sender.sends.get(0).result.complete(null);
        runMails();
        assertThat(sender.sends)
                .extracting(Send::payloads)
                .containsExactly(List.of("0a", "0b"), List.of("1a", "1b"), List.of("0c", "0d"));
    }

    @Test
    void aFailedBatchStopsTheLaterBatches() throws Exception {
        sender.autoComplete = false;
        IggySinkWriter<String> writer = writer(config(10, Duration.ZERO, 5), byFirstChar());
        write(writer, "0a", "0b");
        sender.sends.get(0).result.completeExceptionally(new IllegalStateException("refused"));
        runMails();
        assertThatThrownBy(() -> writer.flush(false)).hasMessageContaining("refused");
        assertThat(sender.sends).hasSize(1);
        assertThatThrownBy(() -> write(writer, "1a")).hasMessageContaining("refused");
        assertThat(sender.sends).hasSize(1);
    }

    @Test
    void atLeastOnceFlushRunsTheMailsUntilEveryBatchIsAcknowledged() throws Exception {
        sender.autoComplete = false;
        IggySinkWriter<String> writer = writer(config(10, Duration.ofHours(1), 5), byFirstChar());
        write(writer, "0a", "1a", "2a");
        assertThat(sender.sends).isEmpty();
        // Answers arrive on another thread, as the client's would, once flush has sent all three.
        CompletableFuture<Void> server =
                CompletableFuture.runAsync(
                        () -> {
                            waitUntilUnchecked("three sends", () -> sender.sends.size() == 3);
                            sender.sends.get(0).result.complete(null);
                            sender.sends.get(2).result.complete(null);
                            sender.sends.get(1).result.complete(null);
                        });
        writer.flush(false);
        // Counted in the completion mails, which only flush runs here: all three ran.
        assertThat(delivery.pendingBatches()).isZero();
        assertThat(context.getNumRecordsOutCounter().getCount()).isEqualTo(3);
        assertThat(context.getNumBytesOutCounter().getCount()).isEqualTo(3 * (64 + 2));
        assertThat(context.getCurrentSendTimeGauge()).isPresent();
        server.get(10, TimeUnit.SECONDS);
    }

    @Test
    void noneFlushSendsButDoesNotWait() throws Exception {
        sender.autoComplete = false;
        IggySinkWriter<String> writer =
                writer(config(10, Duration.ofHours(1), 5, DeliveryGuarantee.NONE), byFirstChar());
        write(writer, "0a");
        writer.flush(false);
        assertThat(sender.sends).hasSize(1);
        assertThat(delivery.pendingBatches()).isOne();
    }

    @Test
    void failedSendFailsTheNextWriteWithTheCause() throws Exception {
        sender.autoComplete = false;
        IggySinkWriter<String> writer = writer(config(1, Duration.ofHours(1), 5), byFirstChar());
        write(writer, "2a");
        sender.sends.get(0).result.completeExceptionally(new IllegalStateException("disk full"));
        runMails();
        assertThatThrownBy(() -> write(writer, "0b"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("partition 2")
                .hasMessageContaining("disk full")
                .hasRootCauseInstanceOf(IllegalStateException.class);
        assertThat(context.metricGroup().getNumRecordsSendErrorsCounter().getCount()).isOne();
    }

    @Test
    void failedSendFailsFlush() throws Exception {
        sender.autoComplete = false;
        IggySinkWriter<String> writer = writer(config(10, Duration.ofHours(1), 5), byFirstChar());
        write(writer, "1a");
        CompletableFuture<Void> server =
                CompletableFuture.runAsync(
                        () -> {
                            waitUntilUnchecked("one send", () -> sender.sends.size() == 1);
                            sender.sends
                                    .get(0)
                                    .result
                                    .completeExceptionally(new IllegalStateException("gone"));
                        });
        assertThatThrownBy(() -> writer.flush(false)).hasMessageContaining("gone");
        server.get(10, TimeUnit.SECONDS);
    }

    @Test
    void aSendThatNeverAnswersFailsFlushAfterTheRequestTimeout() throws Exception {
        sender.autoComplete = false;
        IggyWriterConfig config =
                IggySink.<String>builder()
                        .setConnection(
                                IggyConnectionConfig.builder()
                                        .setAddress("127.0.0.1:8090")
                                        .setCredentials("iggy", "iggy")
                                        .setRequestTimeout(Duration.ofMillis(100))
                                        .build())
                        .setStream("s")
                        .setTopic("t")
                        .setRecordSerializer(byFirstChar())
                        .build()
                        .writerConfig();
        IggySinkWriter<String> writer = writer(config, byFirstChar());
        write(writer, "0a");
        assertThatThrownBy(() -> writer.flush(false))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Timed out after PT0.1S")
                .hasMessageContaining("partition 0");
    }

    /** A message the server would refuse (error 4017) fails its write; nothing is sent. */
    @Test
    void userHeadersAboveTheServersLimitFailTheWriteBeforeSending() throws Exception {
        IggyRecordSerializationSchema<String> bigHeaders =
                IggySinkBuilderTest.<String>sinkTo("s", "t")
                        .setValueSerializationSchema(new SimpleStringSchema())
                        .setPartition(2)
                        .setHeadersFunction(r -> headersOfSize(Integer.parseInt(r)))
                        .build()
                        .recordSerializer();
        IggySinkWriter<String> writer = writer(config(100, Duration.ZERO, 5), bigHeaders);
        write(writer, "100000"); // exactly at the limit is fine
        assertThatThrownBy(() -> write(writer, "100001"))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("partition 2 of topic")
                .hasMessageContaining("100,001 bytes of user headers")
                .hasMessageContaining("at most 100,000 bytes")
                .hasMessageContaining("error 4017");
        assertThat(sender.sends).hasSize(1);
        assertThat(delivery.bufferedRecords()).isZero();
    }

    /**
     * Headers whose encoded size (per header 10 bytes of kinds and lengths, then key and value) is
     * {@code size}: Iggy takes at most 255 bytes per key and value.
     */
    private static IggyHeaders headersOfSize(int size) {
        IggyHeaders.Builder headers = IggyHeaders.builder();
        int left = size;
        for (int i = 0; left > 0; i++) {
            int value = Math.min(255, left - 14);
            headers.put(String.format("h%03d", i), IggyHeaderValue.ofRaw(new byte[value]));
            left -= 14 + value;
        }
        return headers.build();
    }

    @Test
    void aWriterOpensItsSenderOnTheFirstRecordOnly() throws Exception {
        int[] opened = {0};
        RecordWriter<String> writer =
                new RecordWriter<>(
                        config(2, Duration.ZERO, 5),
                        byFirstChar(),
                        () -> {
                            opened[0]++;
                            return sender;
                        },
                        this::atLeastOnce,
                        context);
        writer.flush(false);
        assertThat(opened[0]).as("no record, no connection").isZero();
        write(writer, "0a", "1a", "2a");
        assertThat(opened[0]).isEqualTo(1);
        writer.close();
    }

    @Test
    void messagesCarryIdAndOriginTimestamp() {
        BigInteger id = BigInteger.ONE.shiftLeft(127).add(BigInteger.valueOf(0x0102));
        OutgoingMessage m =
                WireFormat.message(
                        new IggySinkRecord(1, "x".getBytes(), IggyHeaders.empty(), id, 42));
        byte[] wire = new byte[16];
        wire[0] = 0x02;
        wire[1] = 0x01;
        wire[15] = (byte) 0x80;
        assertThat(m.wireId()).containsExactly(wire);
        assertThat(m.originTimestampMicros()).isEqualTo(42);
        assertThat(m.payload().length).isEqualTo(1);
        OutgoingMessage serverId = WireFormat.message(IggySinkRecord.of(1, new byte[0], 0));
        assertThat(serverId.wireId()).as("the server generates the id").isNull();
    }

    /** Runs the send-completion callbacks the writer queued in the task's mailbox. */
    private void runMails() throws InterruptedException {
        while (context.getMailboxExecutor().tryYield()) {
            // each call runs one mail
        }
    }

    private IggySinkWriter<String> writer(
            IggyWriterConfig config, IggyRecordSerializationSchema<String> schema)
            throws IOException {
        return new RecordWriter<>(config, schema, () -> sender, this::atLeastOnce, context);
    }

    /** The delivery of the writer made last, which the tests watch. */
    private AtLeastOnceDelivery atLeastOnce(
            IggyWriterConfig config, Supplier<IggyBatchSender> sender, WriterInitContext context) {
        delivery = new AtLeastOnceDelivery(config, sender, context);
        return delivery;
    }

    private static IggyWriterConfig config(int batch, Duration linger, int inFlight) {
        return config(batch, linger, inFlight, DeliveryGuarantee.AT_LEAST_ONCE);
    }

    private static IggyWriterConfig config(
            int batch, Duration linger, int inFlight, DeliveryGuarantee guarantee) {
        return IggySink.<String>builder()
                .setConnection(IggySinkBuilderTest.CONNECTION)
                .setStream(IggyId.of("s"))
                .setTopic(IggyId.of(7))
                .setBatchSize(batch)
                .setLinger(linger)
                .setMaxInFlightRequests(inFlight)
                .setDeliveryGuarantee(guarantee)
                .setRecordSerializer(byFirstChar())
                .build()
                .writerConfig();
    }

    /**
     * Records starting with "a" go to {@code a}, with "b" to {@code b}, others to the sink's topic;
     * partitioned by key (the whole record).
     */
    public static IggyRecordSerializationSchema<String> routedByPrefix(
            IggySinkTarget a, IggySinkTarget b) {
        return IggySinkBuilderTest.<String>sinkTo("s", "t")
                .setValueSerializationSchema(new SimpleStringSchema())
                .setKeySerializationSchema(new SimpleStringSchema())
                .setPartitionByKey()
                .setTopicSelector(
                        (record, context) ->
                                record.startsWith("a") ? a : record.startsWith("b") ? b : null)
                .build()
                .recordSerializer();
    }

    /** Partition = the record's first character as a digit. */
    public static IggyRecordSerializationSchema<String> byFirstChar() {
        return IggySinkBuilderTest.<String>sinkTo("s", "t")
                .setValueSerializationSchema(new SimpleStringSchema())
                .setPartitioner((record, key, payload, context) -> record.charAt(0) - '0')
                .build()
                .recordSerializer();
    }

    public static void write(SinkWriter<String> writer, String... records)
            throws IOException, InterruptedException {
        for (String r : records) {
            writer.write(r, recordAt(null));
        }
    }

    private static SinkWriter.Context recordAt(Long timestamp) {
        return new SinkWriter.Context() {
            @Override
            public long currentWatermark() {
                return 0;
            }

            @Override
            public Long timestamp() {
                return timestamp;
            }
        };
    }

    private static void waitUntilUnchecked(String what, BooleanSupplier condition) {
        try {
            waitUntil(what, Duration.ofSeconds(10), condition::getAsBoolean);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    public static final class Send {
        public final IggyTopicPartition target;
        public final long partition;
        public final List<OutgoingMessage> messages;
        public final CompletableFuture<Void> result = new CompletableFuture<>();

        Send(IggyTopicPartition target, List<OutgoingMessage> messages) {
            this.target = target;
            this.partition = target.partition();
            this.messages = messages;
        }

        public List<String> payloads() {
            return messages.stream()
                    .map(m -> new String(m.payload(), StandardCharsets.UTF_8))
                    .collect(Collectors.toList());
        }
    }

    /**
     * Answers sends as the test says; every topic has the same partitions, except those given in
     * {@link #topicPartitions}, and topics named in {@link #missingTopics} do not exist.
     */
    public static final class ScriptedSender implements IggyBatchSender {
        public final List<Send> sends = new CopyOnWriteArrayList<>();
        public final List<IggySinkTarget> described = new CopyOnWriteArrayList<>();
        public final Map<IggySinkTarget, Integer> topicPartitions = new ConcurrentHashMap<>();
        public final Set<IggySinkTarget> missingTopics = ConcurrentHashMap.newKeySet();
        public final int partitions;
        public volatile boolean autoComplete = true;
        public volatile long endOffset;

        /** Whether end offsets are answered at once; if not, the test answers {@link #heldEnds}. */
        public volatile boolean answerEnds = true;

        public final List<CompletableFuture<Map<Long, Long>>> heldEnds =
                new CopyOnWriteArrayList<>();

        public ScriptedSender(int partitions) {
            this.partitions = partitions;
        }

        @Override
        public CompletableFuture<Integer> partitionCount(IggySinkTarget topic) {
            described.add(topic);
            if (missingTopics.contains(topic)) {
                return CompletableFuture.failedFuture(
                        new IggyConfigurationException("Iggy " + topic + " does not exist"));
            }
            return CompletableFuture.completedFuture(
                    topicPartitions.getOrDefault(topic, partitions));
        }

        @Override
        public CompletableFuture<Void> send(
                IggyTopicPartition target, List<OutgoingMessage> messages) {
            Send send = new Send(target, messages);
            sends.add(send);
            if (autoComplete) {
                send.result.complete(null);
            }
            return send.result;
        }

        @Override
        public CompletableFuture<Map<Long, Long>> endOffsets(IggySinkTarget topic) {
            Map<Long, Long> ends = new HashMap<>();
            for (long p = 0; p < topicPartitions.getOrDefault(topic, partitions); p++) {
                ends.put(p, endOffset);
            }
            if (answerEnds) {
                return CompletableFuture.completedFuture(ends);
            }
            CompletableFuture<Map<Long, Long>> held = new CompletableFuture<>();
            heldEnds.add(held);
            return held;
        }

        @Override
        public void close() {}
    }
}

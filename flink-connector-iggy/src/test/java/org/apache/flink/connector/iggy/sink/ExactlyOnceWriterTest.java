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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.base.sink.writer.TestSinkInitContext;
import org.apache.flink.connector.iggy.common.IggyConnectorException;

import io.netty.buffer.ByteBufUtil;
import org.apache.iggy.message.Message;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The writer side of exactly-once: write-ahead, committables and the bound on held bytes. */
class ExactlyOnceWriterTest {

    private final IggySinkWriterTest.ScriptedSender sender =
            new IggySinkWriterTest.ScriptedSender(3);
    private final TestSinkInitContext context = new TestSinkInitContext();

    @Test
    void nothingIsSentBeforeTheCheckpointTakesTheMessages() throws Exception {
        IggySinkWriter<String> writer = writer(1_000_000);
        sender.endOffset = 17;
        IggySinkWriterTest.write(writer, "0a", "1a", "0b", "0c");
        writer.flush(false);
        assertThat(sender.sends).isEmpty();

        List<IggyCommittable> first = new ArrayList<>(writer.prepareCommit());
        assertThat(first).hasSize(2);
        IggyCommittable p0 = first.get(0);
        assertThat(p0.partition()).isZero();
        assertThat(p0.readFrom()).isEqualTo(17);
        assertThat(p0.checkpointId()).isEqualTo(1);
        assertThat(payloads(p0)).containsExactly("0a", "0b", "0c");
        for (int i = 0; i < 3; i++) {
            assertThat(p0.sequenceOf(wireId(p0.messages().get(i)))).isEqualTo(i);
        }
        assertThat(payloads(first.get(1))).containsExactly("1a");
        assertThat(sender.sends).isEmpty();

        IggySinkWriterTest.write(writer, "2a");
        writer.flush(false);
        List<IggyCommittable> second = new ArrayList<>(writer.prepareCommit());
        assertThat(second).singleElement().extracting(IggyCommittable::checkpointId).isEqualTo(2L);
        assertThat(p0.sequenceOf(wireId(second.get(0).messages().get(0))))
                .as("another checkpoint's id")
                .isEqualTo(-1);

        writer.flush(false);
        assertThat(writer.prepareCommit()).as("an empty interval").isEmpty();
        assertThat(sender.sends).isEmpty();
    }

    @Test
    void theCommittablesOfOneCheckpointCoverEveryTopicWithItsOwnEndOffsets() throws Exception {
        IggySinkTarget a = IggySinkTarget.of("s", "a");
        IggySinkTarget b = IggySinkTarget.of("other", "b");
        sender.topicPartitions.put(a, 1);
        sender.topicPartitions.put(b, 1);
        sender.endOffset = 9;
        IggySinkWriter<String> writer =
                new RecordWriter<>(
                        IggySinkBuilderTest.<String>sinkTo("s", "t")
                                .setRecordSerializer(IggySinkWriterTest.byFirstChar())
                                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                                .build()
                                .writerConfig(),
                        IggySinkWriterTest.routedByPrefix(a, b),
                        () -> sender,
                        context);
        IggySinkWriterTest.write(writer, "a1", "b1", "a2", "b2", "b3");
        writer.flush(false);
        List<IggyCommittable> committables = new ArrayList<>(writer.prepareCommit());
        assertThat(committables)
                .extracting(c -> c.stream() + "/" + c.topic() + "/" + c.partition())
                .containsExactlyInAnyOrder("'s'/'a'/0", "'other'/'b'/0");
        for (IggyCommittable c : committables) {
            assertThat(c.readFrom()).isEqualTo(9);
            assertThat(payloads(c))
                    .containsExactlyElementsOf(
                            c.topic().name().equals("a")
                                    ? List.of("a1", "a2")
                                    : List.of("b1", "b2", "b3"));
        }
        assertThat(sender.sends).isEmpty();
    }

    @Test
    void twoWritersOfOneSinkNeverShareAnId() throws Exception {
        IggySinkWriter<String> first = writer(1_000_000);
        IggySinkWriter<String> second = writer(1_000_000);
        IggySinkWriterTest.write(first, "0a");
        IggySinkWriterTest.write(second, "0a");
        first.flush(false);
        second.flush(false);
        IggyCommittable a = first.prepareCommit().iterator().next();
        IggyCommittable b = second.prepareCommit().iterator().next();
        assertThat(a.checkpointId()).isEqualTo(b.checkpointId());
        assertThat(wireId(a.messages().get(0))).isNotEqualTo(wireId(b.messages().get(0)));
        assertThat(a.sequenceOf(wireId(b.messages().get(0)))).isEqualTo(-1);
    }

    @Test
    void anIntervalBeyondTheBoundFailsNamingTheOptionAndKeepsWhatItHolds() throws Exception {
        // 64 bytes of header plus 2 of payload per message: three fit, the fourth does not
        IggySinkWriter<String> writer = writer(3 * 66);
        IggySinkWriterTest.write(writer, "0a", "0b", "0c");
        assertThatThrownBy(() -> IggySinkWriterTest.write(writer, "0d"))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("198 bytes")
                .hasMessageContaining("setExactlyOnceMaxBufferedBytes")
                .hasMessageContaining("'sink.exactly-once.max-buffered-bytes'")
                .hasMessageContaining("Checkpoint more often");
        writer.flush(false);
        assertThat(payloads(writer.prepareCommit().iterator().next()))
                .containsExactly("0a", "0b", "0c");

        // the bound is per interval: the next one may hold as much again
        IggySinkWriterTest.write(writer, "1a", "1b", "1c");
        writer.flush(false);
        assertThat(payloads(writer.prepareCommit().iterator().next()))
                .containsExactly("1a", "1b", "1c");
        assertThat(sender.sends).isEmpty();
    }

    @Test
    void theBufferGaugesShowTheBytesHeldAgainstTheBound() throws Exception {
        MetricRecordingInitContext recording = new MetricRecordingInitContext();
        IggySinkWriter<String> writer = writer(10 * 66, recording);
        assertThat(recording.metrics().gaugeValue("exactlyOnceBufferBound")).isEqualTo(660L);
        assertThat(recording.metrics().gaugeValue("exactlyOnceBufferedBytes")).isEqualTo(0L);

        // 64 bytes of header plus 2 of payload per message
        IggySinkWriterTest.write(writer, "0a", "1a", "0b");
        assertThat(recording.metrics().gaugeValue("exactlyOnceBufferedBytes")).isEqualTo(3 * 66L);

        writer.flush(false);
        writer.prepareCommit();
        assertThat(recording.metrics().gaugeValue("exactlyOnceBufferedBytes"))
                .as("the checkpoint took them")
                .isEqualTo(0L);
    }

    private IggySinkWriter<String> writer(long maxBufferedBytes) throws IOException {
        return writer(maxBufferedBytes, context);
    }

    private IggySinkWriter<String> writer(long maxBufferedBytes, TestSinkInitContext context)
            throws IOException {
        IggyWriterConfig config =
                IggySinkBuilderTest.<String>sinkTo("s", "t")
                        .setRecordSerializer(IggySinkWriterTest.byFirstChar())
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .setExactlyOnceMaxBufferedBytes(maxBufferedBytes)
                        .build()
                        .writerConfig();
        return new RecordWriter<>(config, IggySinkWriterTest.byFirstChar(), () -> sender, context);
    }

    /** The id as the wire carries it. */
    static byte[] wireId(Message message) {
        return ByteBufUtil.getBytes(message.header().id().toBytes());
    }

    private static List<String> payloads(IggyCommittable committable) {
        return committable.messages().stream()
                .map(Message::payload)
                .map(p -> new String(p, StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }
}

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

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.WriteAheadTesting;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.IggyClientBatchSender;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.TestCommittables;
import org.apache.flink.connector.iggy.sink.testutils.IggySinkExternalContext;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.TcpProxy;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How the committer's read-back is bounded in time and in the bytes of one poll. */
class ReadBackITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private final String stream = IGGY.uniqueName("read-back");

    @TempDir Path dir;

    @Test
    void findsTheCommittablesMessagesAmongOthers() {
        IggyWriterConfig config = config(1000);
        IggyCommittable committable = committable(5);
        IGGY.send(stream, "t", 0, payloads(30));
        sendWithIds(config, committable, 3);
        SimpleCounter read = new SimpleCounter();
        IggyServerClient client =
                IggyServerClient.connect(config.connection(), new SimpleCounter());
        try {
            BitSet present =
                    new ReadBack(config, Duration.ofSeconds(30), read)
                            .present(client, committable, 5, 33);
            assertThat(present.cardinality()).isEqualTo(3);
            assertThat(present.nextClearBit(0)).isEqualTo(3);
            assertThat(read.getCount()).as("the whole range: two are missing").isEqualTo(33);
        } finally {
            client.close();
        }
    }

    @Test
    void aPollWithoutAnAnswerInTimeFailsNamingWhereTheReadBackStopped() {
        IggyWriterConfig direct = config(1000);
        IggyCommittable committable = committable(5);
        IGGY.send(stream, "t", 0, payloads(30));
        SimpleCounter read = new SimpleCounter();
        TcpProxy proxy = TcpProxy.start(IGGY.host(), IGGY.port());
        IggyServerClient client =
                IggyServerClient.connect(config(direct, proxy).connection(), new SimpleCounter());
        try {
            // The poll reaches no server: its answer can never come in time.
            proxy.stopForwarding();
            ReadBack expired = new ReadBack(direct, Duration.ofMillis(200), read);
            assertThatThrownBy(() -> expired.present(client, committable, 5, 30))
                    .isInstanceOf(IggyConnectorException.class)
                    .hasMessageContaining("Reading back the 5 messages of checkpoint 4")
                    .hasMessageContaining("stopped at offset 0 of 30 (started at 0)")
                    .hasMessageContaining("Timed out")
                    .hasMessageContaining("The commit is tried again and resumes there");
            assertThat(read.getCount()).isZero();
        } finally {
            client.close();
            proxy.close();
        }
    }

    /**
     * 100,000 messages of other producers lie between the recorded offset and the committable's
     * messages. Each poll has its own request timeout, so the read-back finishes; and when its
     * connection is cut half-way, the next read-back resumes where the first stopped: every message
     * is read once.
     */
    @Test
    void aReadBackOverALargeForeignBacklogFinishesAndResumesAfterAFailure() {
        IggyWriterConfig direct = config(1000);
        IggyCommittable committable = committable(5);
        for (int i = 0; i < 10; i++) {
            IGGY.send(stream, "t", 0, payloads(10_000));
        }
        sendWithIds(direct, committable, 3);
        long end = 100_003;
        try (TcpProxy proxy = TcpProxy.start(IGGY.host(), IGGY.port())) {
            IggyWriterConfig config = config(direct, proxy);
            Counter read =
                    new SimpleCounter() {
                        @Override
                        public void inc() {
                            super.inc();
                            if (getCount() == 50_000) {
                                proxy.closeOnNextRequest();
                            }
                        }
                    };
            ReadBack readBack = new ReadBack(config, config.connection().requestTimeout(), read);
            IggyServerClient first =
                    IggyServerClient.connect(config.connection(), new SimpleCounter());
            try {
                assertThatThrownBy(() -> readBack.present(first, committable, 5, end))
                        .isInstanceOf(IggyConnectorException.class)
                        .hasMessageContaining("resumes there");
            } finally {
                first.close();
            }
            assertThat(proxy.connectionsClosedWithARequest()).isOne();
            assertThat(read.getCount()).isBetween(50_000L, 51_000L);

            IggyServerClient second =
                    IggyServerClient.connect(config.connection(), new SimpleCounter());
            try {
                BitSet present = readBack.present(second, committable, 5, end);
                assertThat(present.cardinality()).isEqualTo(3);
                assertThat(present.nextClearBit(0)).isEqualTo(3);
            } finally {
                second.close();
            }
            assertThat(read.getCount()).as("every message read once").isEqualTo(end);
        }
    }

    @Test
    void aPollAsksForAboutTheBatchByteBound() {
        assertThat(ReadBack.pollSize(1024 * 1024, 1000, 10 * 1024, 5000)).isEqualTo(102);
        assertThat(ReadBack.pollSize(4 * 1024 * 1024, 1000, 164, 5000)).isEqualTo(1000);
        assertThat(ReadBack.pollSize(4 * 1024 * 1024, 1000, 164, 7)).isEqualTo(7);
        assertThat(ReadBack.pollSize(1000, 1000, 64_000_000, 10)).as("at least one").isEqualTo(1);
    }

    private IggyWriterConfig config(int batchMessages) {
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
        return IggySink.<String>builder()
                .setConnection(IggySinkExternalContext.connection(IGGY))
                .setStream(stream)
                .setTopic("t")
                .setValueSerializationSchema(new SimpleStringSchema())
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setBatchSize(batchMessages)
                .build()
                .writerConfig();
    }

    /** {@code config} through {@code proxy}. */
    private IggyWriterConfig config(IggyWriterConfig config, TcpProxy proxy) {
        return IggySink.<String>builder()
                .setConnection(
                        IggyConnectionConfig.builder()
                                .setAddress(proxy.address())
                                .setCredentials(IGGY.username(), IGGY.password())
                                .build())
                .setStream(stream)
                .setTopic("t")
                .setValueSerializationSchema(new SimpleStringSchema())
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setBatchSize(config.batchSize())
                .build()
                .writerConfig();
    }

    /** Sends the first {@code n} messages of {@code committable}, with their ids. */
    private static void sendWithIds(IggyWriterConfig config, IggyCommittable committable, int n) {
        try (IggyClientBatchSender sender =
                IggyClientBatchSender.open(config, new SimpleCounter())) {
            sender.send(
                            new IggyTopicPartition(committable.stream(), committable.topic(), 0),
                            WriteAheadTesting.messages(committable).subList(0, n))
                    .join();
        }
    }

    private IggyCommittable committable(int n) {
        byte[] tag = IggyCommittable.tag(0x5EED, 4);
        List<OutgoingMessage> messages = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            messages.add(new OutgoingMessage(payload(i), IggyHeaders.empty(), null, 0));
        }
        return TestCommittables.written(
                dir, IggyId.of(stream), IggyId.of("t"), 0, 4, tag, 0, messages);
    }

    private static byte[] payload(int i) {
        return ("m" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static List<byte[]> payloads(int n) {
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            payloads.add(("other" + i).getBytes(StandardCharsets.UTF_8));
        }
        return payloads;
    }
}

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
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.IggyClientBatchSender;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.TcpProxy;
import org.apache.flink.metrics.SimpleCounter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The exactly-once writer's end offsets against a real server that answers late. */
class EndOffsetsITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @TempDir Path writeAhead;

    /**
     * The writer's request for the end offsets is delivered only long after its request timeout, as
     * by a stalled server or a congested network: the checkpoint takes its committable at once all
     * the same (reading the offsets at the barrier failed it after the timeout), with a read-back
     * start no later than the partition's end.
     */
    @Test
    void aCheckpointDoesNotWaitForAHeldEndOffsetAnswer() throws Exception {
        String stream = IGGY.uniqueName("end-offsets");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
        IGGY.send(stream, "t", 0, List.of(bytes("other"), bytes("producers")));
        IggyTopicPartition partition = IggyTopicPartition.of(stream, "t", 0);
        try (TcpProxy proxy = TcpProxy.start(IGGY.host(), IGGY.port())) {
            IggyWriterConfig config = config(stream, proxy);
            IggyClientBatchSender sender = IggyClientBatchSender.open(config, new SimpleCounter());
            WriteAheadDelivery delivery =
                    new WriteAheadDelivery(config, () -> sender, new TestSinkInitContext());
            try {
                delivery.add(partition, message("first checkpoint"));
                delivery.flush(false);
                assertThat(delivery.prepareCommit()).hasSize(1);

                proxy.holdNextRequest(Duration.ofSeconds(10));
                delivery.add(partition, message("second checkpoint"));
                delivery.flush(false);
                Collection<IggyCommittable> taken = delivery.prepareCommit();

                assertThat(taken)
                        .singleElement()
                        .extracting(IggyCommittable::readFrom)
                        .as("at most the partition's end, where its first message goes")
                        .satisfies(from -> assertThat(from).isBetween(0L, 2L));
            } finally {
                delivery.close();
                sender.close();
            }
        }
    }

    private IggyWriterConfig config(String stream, TcpProxy proxy) {
        return IggySink.<String>builder()
                .setConnection(
                        IggyConnectionConfig.builder()
                                .setAddress(proxy.address())
                                .setCredentials(IGGY.username(), IGGY.password())
                                .setRequestTimeout(Duration.ofSeconds(1))
                                .build())
                .setStream(stream)
                .setTopic("t")
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setExactlyOnceWriteAheadDir(writeAhead.toString())
                .setValueSerializationSchema(text -> bytes(text))
                .build()
                .writerConfig();
    }

    private static OutgoingMessage message(String text) {
        return new OutgoingMessage(bytes(text), IggyHeaders.empty(), null, 0);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

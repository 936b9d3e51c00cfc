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
package org.apache.flink.connector.iggy.sink.internal.send;

import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.IggySinkBuilder;
import org.apache.flink.connector.iggy.sink.IggySinkBuilderTest;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.writer.IggySinkWriterTest;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a send request ends: by bytes first, by messages only when a cap is set. */
class OpenBatchTest {

    /** A 100-byte payload is 164 bytes on the wire: 64 of header. */
    private static final int WIRE_100 = 164;

    @Test
    void theDefaultsCutBatchesByBytesAlone() {
        OpenBatch batch = new OpenBatch(config(builder()));
        long bound = IggyWriterConfig.DEFAULT_MAX_BATCH_BYTES;
        int fitting = (int) ((bound + WIRE_100 - 1) / WIRE_100);
        for (int i = 1; i < fitting; i++) {
            batch.add(message(100));
            assertThat(batch.isFull()).as("after %d messages", i).isFalse();
        }
        batch.add(message(100));
        assertThat(batch.isFull()).isTrue();
        assertThat(batch.size())
                .as("far more than the 1,000 messages of the old default")
                .isEqualTo(fitting)
                .isGreaterThan(6000);
        assertThat(batch.bytes()).isEqualTo((long) fitting * WIRE_100);
    }

    @Test
    void largeMessagesMakeFewPerRequest() {
        OpenBatch batch = new OpenBatch(config(builder().setMaxBatchBytes(10_000)));
        batch.add(message(4000));
        batch.add(message(4000));
        assertThat(batch.isFull()).isFalse();
        batch.add(message(4000));
        assertThat(batch.isFull()).as("the message that reaches the bound is included").isTrue();
        assertThat(batch.bytes()).isEqualTo(3 * (64 + 4000));
    }

    @Test
    void bytesCountHeadersPayloadAndUserHeaders() {
        OutgoingMessage withHeaders =
                new OutgoingMessage(
                        new byte[10],
                        IggyHeaders.of("k", IggyHeaderValue.ofRaw(new byte[5])),
                        null,
                        0);
        OpenBatch batch = new OpenBatch(config(builder()));
        batch.add(withHeaders);
        // 64-byte header, payload, one user header: kinds and lengths (10), key and value
        assertThat(batch.bytes()).isEqualTo(64 + 10 + 10 + 1 + 5).isEqualTo(withHeaders.wireSize());
    }

    @Test
    void aMessageCapEndsARequestBeforeItsBytesDo() {
        OpenBatch batch = new OpenBatch(config(builder().setBatchSize(3)));
        batch.add(message(1));
        batch.add(message(1));
        assertThat(batch.isFull()).isFalse();
        batch.add(message(1));
        assertThat(batch.isFull()).isTrue();
    }

    @Test
    void takeHandsTheMessagesOverAndStartsAnEmptyBatch() {
        OpenBatch batch = new OpenBatch(config(builder().setMaxBatchBytes(200)));
        batch.add(message(100));
        batch.add(message(100));
        assertThat(batch.isFull()).isTrue();
        List<OutgoingMessage> taken = batch.take();
        assertThat(taken).hasSize(2);
        assertThat(batch.isEmpty()).isTrue();
        assertThat(batch.bytes()).isZero();
        assertThat(batch.isFull()).isFalse();
        batch.add(message(100));
        assertThat(taken).as("the taken list is not reused").hasSize(2);
    }

    private static IggySinkBuilder<String> builder() {
        return IggySink.<String>builder()
                .setConnection(IggySinkBuilderTest.CONNECTION)
                .setStream(IggyId.of("s"))
                .setTopic(IggyId.of("t"))
                .setRecordSerializer(IggySinkWriterTest.byFirstChar());
    }

    private static IggyWriterConfig config(IggySinkBuilder<String> builder) {
        return builder.build().writerConfig();
    }

    private static OutgoingMessage message(int payloadBytes) {
        return new OutgoingMessage(new byte[payloadBytes], IggyHeaders.empty(), null, 0);
    }
}

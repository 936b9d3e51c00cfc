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

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.metrics.SimpleCounter;

import org.apache.iggy.message.MessageHeader;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Decoding, timestamps, offsets and counting of {@link IggyRecordEmitter}. */
class IggyRecordEmitterTest {

    private final SimpleCounter bytesIn = new SimpleCounter();
    private final SimpleCounter skipped = new SimpleCounter();
    private final RecordingOutput output = new RecordingOutput();
    private final IggyPartitionSplitState state =
            new IggyPartitionSplitState(
                    new IggyPartitionSplit(
                            IggyId.of("s"),
                            IggyId.of("t"),
                            3,
                            5,
                            IggyPartitionSplit.NO_STOPPING_OFFSET));

    /** A message as {@link FakeTopicRequests} stamps it: offset o at 1,000,000 + o micros. */
    private static IggyMessage message(long offset, String payload) {
        return IggyMessage.builder()
                .setStream(IggyId.of("s"))
                .setTopic(IggyId.of("t"))
                .setPartition(3)
                .setOffset(offset)
                .setTimestampMicros(1_000_000L + offset)
                .setPayload(payload.getBytes(StandardCharsets.UTF_8))
                .build();
    }

    private IggyRecordEmitter<String> emitter(boolean skipUndecodable) {
        return new IggyRecordEmitter<>(
                IggyRecordDeserializationSchema.valueOnly(new FailingOnBadSchema()),
                skipUndecodable,
                bytesIn,
                skipped);
    }

    @Test
    void emitsWithTheServerTimestampInMillisAndAdvancesTheOffset() throws Exception {
        IggyRecordEmitter<String> emitter = emitter(false);
        emitter.emitRecord(message(5, "five"), output, state);
        emitter.emitRecord(message(6, "six"), output, state);

        assertThat(output.records).containsExactly("five", "six");
        // FakeTopicRequests stamps offset o at 1,000,000 + o microseconds.
        assertThat(output.timestamps).containsExactly(1000L, 1000L);
        assertThat(state.nextOffset()).isEqualTo(7);
        assertThat(bytesIn.getCount()).isEqualTo(2L * MessageHeader.SIZE + "fivesix".length());
        assertThat(skipped.getCount()).isZero();
    }

    @Test
    void anUndecodableMessageFailsNamingWhereItIsAndTheFix() throws Exception {
        IggyRecordEmitter<String> emitter = emitter(false);
        assertThatThrownBy(() -> emitter.emitRecord(message(5, "bad"), output, state))
                .hasMessageContaining("offset 5 of partition 3 of topic 't' in stream 's'")
                .hasMessageContaining("'scan.skip-undecodable-records' = 'true'")
                .hasMessageContaining("setSkipUndecodableRecords(true)");
        assertThat(state.nextOffset()).as("not consumed").isEqualTo(5);
    }

    @Test
    void skipsAndCountsUndecodableMessagesWhenTold() throws Exception {
        IggyRecordEmitter<String> emitter = emitter(true);
        emitter.emitRecord(message(5, "bad"), output, state);
        emitter.emitRecord(message(6, "good"), output, state);

        assertThat(output.records).containsExactly("good");
        assertThat(skipped.getCount()).isEqualTo(1);
        assertThat(state.nextOffset()).as("skipped, not re-read").isEqualTo(7);
    }

    /** Decodes UTF-8, failing on the payload "bad". */
    private static final class FailingOnBadSchema extends SimpleStringSchema {
        @Override
        public String deserialize(byte[] message) {
            String text = super.deserialize(message);
            if (text.equals("bad")) {
                throw new IllegalArgumentException("cannot decode 'bad'");
            }
            return text;
        }
    }

    private static final class RecordingOutput implements SourceOutput<String> {
        final List<String> records = new ArrayList<>();
        final List<Long> timestamps = new ArrayList<>();

        @Override
        public void collect(String record) {
            collect(record, Long.MIN_VALUE);
        }

        @Override
        public void collect(String record, long timestamp) {
            records.add(record);
            timestamps.add(timestamp);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}
    }
}

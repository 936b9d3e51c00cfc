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

import org.apache.flink.connector.iggy.common.client.TopicDescription.TopicSummary;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** How many messages a poll asks for, from what topic descriptions report. */
class PollSizeTest {

    /** A description reporting {@code bytes} stored in {@code messages} messages. */
    private static TopicSummary stored(String bytes, long messages) {
        return new TopicSummary(1L, "t", BigInteger.ONE, 1L, BigInteger.valueOf(messages), bytes);
    }

    @Test
    void followsTheAverageMessageSizeToAboutOneMebibyteAPoll() {
        PollSize size = new PollSize(0);

        // 1 KiB payloads: 1,088 bytes a message with its header.
        size.described(stored(Long.toString(1088L * 5000), 5000));
        assertThat(size.messages()).isEqualTo(963);

        // 100 B payloads: 164 bytes a message.
        size.described(stored(Long.toString(164L * 5000), 5000));
        assertThat(size.messages()).isEqualTo(6393);
    }

    @Test
    void staysBetweenOneAndTenThousandMessages() {
        PollSize size = new PollSize(0);

        size.described(stored(Long.toString(64_000_064L * 3), 3));
        assertThat(size.messages()).as("messages larger than the target").isEqualTo(1);

        size.described(stored("65", 1));
        assertThat(size.messages()).as("tiny messages").isEqualTo(PollSize.MAX_MESSAGES);

        size.described(stored("10", 1_000));
        assertThat(size.messages())
                .as("more messages than bytes reported")
                .isEqualTo(PollSize.MAX_MESSAGES);
    }

    @Test
    void keepsWhatItKnewWhenADescriptionSaysNothingAboutSizes() {
        PollSize size = new PollSize(0);
        assertThat(size.messages()).isEqualTo(PollSize.BEFORE_SIZE_KNOWN);

        size.described(stored("0", 0));
        assertThat(size.messages()).as("an empty topic").isEqualTo(PollSize.BEFORE_SIZE_KNOWN);

        size.described(stored(Long.toString(1088L * 10), 10));
        size.described(stored("12 KiB", 10));
        assertThat(size.messages()).as("a size that is not a number of bytes").isEqualTo(963);

        size.described(stored("0", 0));
        assertThat(size.messages()).as("a topic emptied since").isEqualTo(963);
    }

    @Test
    void aFixedCountIgnoresDescriptions() {
        PollSize size = new PollSize(20);

        size.described(stored(Long.toString(1088L * 10), 10));

        assertThat(size.messages()).isEqualTo(20);
    }
}

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

import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.sink.internal.committer.InFlightSends.Attempt;
import org.apache.flink.connector.iggy.sink.internal.send.IggyBatchSender;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriteAheadFile;
import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.SimpleCounter;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which batches the committer hands to the SDK while others are unanswered. */
class InFlightSendsTest {

    private final RecordingSender sender = new RecordingSender();
    private final SimpleCounter committed = new SimpleCounter();
    private final InFlightSends inFlight = new InFlightSends(Duration.ofMinutes(1), committed);

    /**
     * The server answers batch k of a partition with an error while the committer has batch k+1 of
     * the same partition ready: k+1 never reaches the SDK, so it cannot be appended ahead of k's
     * retry.
     */
    @Test
    void aBatchWaitsForTheAnswerToTheBatchBeforeItOfItsPartition() throws Exception {
        Attempt attempt = new Attempt(committable(0));
        inFlight.awaitRoom(4, attempt);
        inFlight.send(sender, attempt, batch());
        sender.answers.get(0).completeExceptionally(new IggyConnectorException("refused"));

        assertThatThrownBy(() -> inFlight.awaitRoom(4, attempt))
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("refused");
        assertThat(sender.sent).as("only batch k reached the SDK").hasSize(1);
        assertThat(committed.getCount()).isZero();
    }

    @Test
    void batchesOfOtherPartitionsGoWhileOneIsUnanswered() throws Exception {
        Attempt first = new Attempt(committable(0));
        Attempt second = new Attempt(committable(1));
        inFlight.awaitRoom(4, first);
        inFlight.send(sender, first, batch());
        inFlight.awaitRoom(4, second);
        inFlight.send(sender, second, batch());
        assertThat(sender.sent).containsExactly(0L, 1L);

        sender.answers.forEach(answer -> answer.complete(null));
        inFlight.awaitRoom(4, first);
        inFlight.send(sender, first, batch());
        assertThat(sender.sent).containsExactly(0L, 1L, 0L);
        assertThat(committed.getCount()).as("acknowledgements taken up to partition 0's").isOne();
    }

    private static IggyCommittable committable(long partition) {
        return new IggyCommittable(
                IggyId.of("s"),
                IggyId.of("t"),
                partition,
                1,
                IggyCommittable.tag(7, 1),
                0,
                new WriteAheadFile(new Path("/unused"), 1, 0));
    }

    private static List<OutgoingMessage> batch() {
        return List.of(new OutgoingMessage(new byte[1], IggyHeaders.empty(), null, 0));
    }

    /** Records the partition of each batch handed to it; the test answers them. */
    private static final class RecordingSender implements IggyBatchSender {
        final List<Long> sent = new ArrayList<>();
        final List<CompletableFuture<Void>> answers = new ArrayList<>();

        @Override
        public CompletableFuture<Void> send(
                IggyTopicPartition target, List<OutgoingMessage> messages) {
            sent.add(target.partition());
            CompletableFuture<Void> answer = new CompletableFuture<>();
            answers.add(answer);
            return answer;
        }

        @Override
        public CompletableFuture<Integer> partitionCount(IggySinkTarget topic) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Map<Long, Long>> endOffsets(IggySinkTarget topic) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {}
    }
}

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

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.internal.send.IggyBatchSender;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.metrics.Counter;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The batches the committer sent and the server has not acknowledged yet, oldest first: at most one
 * per partition.
 *
 * <p>A batch goes to the SDK only once the batch before it of the same partition was acknowledged,
 * so a batch the server refuses (an error answer) never has a later batch of its partition appended
 * ahead of its retry. Batches of different partitions are unanswered together; the SDK sends one
 * request at a time per connection anyway. Acknowledgements are taken oldest first; a batch
 * unanswered after the request timeout fails (the SDK never enforces it). The first failure is
 * thrown, and the committer then closes the connection and gives up the rest: its retry reads back
 * what reached the partition.
 *
 * <p>Confined to the committer's task thread.
 */
@Internal
final class InFlightSends {

    /** One committable's commit attempt: how many of its messages are to send and acknowledged. */
    static final class Attempt {
        final IggyCommittable committable;
        private int toSend;
        private int acknowledged;
        private boolean allSent;

        Attempt(IggyCommittable committable) {
            this.committable = committable;
        }

        /** Every message that had to be sent was sent and acknowledged. */
        boolean isDone() {
            return allSent && acknowledged == toSend;
        }

        /** Whether the attempt had anything to send. */
        boolean sentAny() {
            return toSend > 0;
        }
    }

    private record Sent(Attempt attempt, int messages, CompletableFuture<Void> acknowledged) {}

    private final ArrayDeque<Sent> unanswered = new ArrayDeque<>();
    private final Duration timeout;
    private final Counter messagesCommitted;

    /**
     * @param messagesCommitted counts every message acknowledged
     */
    InFlightSends(Duration timeout, Counter messagesCommitted) {
        this.timeout = timeout;
        this.messagesCommitted = messagesCommitted;
    }

    /**
     * Takes acknowledgements until fewer than {@code window} batches are unanswered and none of
     * {@code attempt}'s partition.
     */
    void awaitRoom(int window, Attempt attempt) throws InterruptedException {
        while (unanswered.size() >= window || hasUnanswered(attempt.committable)) {
            awaitOldest();
        }
    }

    private boolean hasUnanswered(IggyCommittable committable) {
        for (Sent sent : unanswered) {
            if (sent.attempt().committable.target().equals(committable.target())) {
                return true;
            }
        }
        return false;
    }

    /** Sends a batch of {@code attempt}'s committable; call {@link #awaitRoom} first. */
    void send(IggyBatchSender sender, Attempt attempt, List<OutgoingMessage> batch) {
        attempt.toSend += batch.size();
        CompletableFuture<Void> acknowledged;
        try {
            acknowledged = sender.send(attempt.committable.target(), batch);
        } catch (RuntimeException e) {
            acknowledged = CompletableFuture.failedFuture(e);
        }
        unanswered.add(
                new Sent(
                        attempt,
                        batch.size(),
                        acknowledged.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)));
    }

    /** {@code attempt} sends nothing more. */
    void sentAll(Attempt attempt) {
        attempt.allSent = true;
    }

    /** Takes every acknowledgement. */
    void awaitAll() throws InterruptedException {
        while (!unanswered.isEmpty()) {
            awaitOldest();
        }
    }

    /** Whether no batch is unanswered. */
    boolean isEmpty() {
        return unanswered.isEmpty();
    }

    /** Gives up the unanswered batches after a failure: they count as not acknowledged. */
    void abandon() {
        unanswered.clear();
    }

    private void awaitOldest() throws InterruptedException {
        Sent oldest = unanswered.peek();
        try {
            oldest.acknowledged().get();
        } catch (ExecutionException e) {
            throw describe(oldest, e.getCause());
        }
        unanswered.poll();
        oldest.attempt().acknowledged += oldest.messages();
        messagesCommitted.inc(oldest.messages());
    }

    private IggyConnectorException describe(Sent sent, Throwable cause) {
        String what = "send " + sent.messages() + " of the " + sent.attempt().committable;
        if (cause instanceof TimeoutException) {
            return IggyClients.asRootCause(
                    "Timed out after " + timeout + " waiting to " + what, cause);
        }
        RuntimeException failure = IggyClients.asRuntime(cause);
        return failure instanceof IggyConnectorException known
                ? known
                : new IggyConnectorException(
                        "Failed to " + what + ": " + failure.getMessage(), failure);
    }
}

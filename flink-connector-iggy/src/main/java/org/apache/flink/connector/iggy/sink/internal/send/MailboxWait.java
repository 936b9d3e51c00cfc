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

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.operators.MailboxExecutor;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

/** Waits on the task thread for a future, running the task's mails meanwhile. */
@Internal
public final class MailboxWait {

    private MailboxWait() {}

    /**
     * Runs the task's mails until {@code future} is done, then returns its value.
     *
     * @throws CompletionException with the future's failure as the cause
     */
    public static <T> T await(MailboxExecutor mailbox, CompletableFuture<T> future, String what)
            throws InterruptedException {
        future.whenComplete(
                (ok, error) -> {
                    try {
                        // wakes the task thread, which may be yielding for a mail
                        mailbox.execute(() -> {}, what);
                    } catch (RejectedExecutionException e) {
                        // The task is shutting down.
                    }
                });
        while (!future.isDone()) {
            mailbox.yield();
        }
        return future.join();
    }
}

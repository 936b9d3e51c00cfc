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
package org.apache.flink.connector.iggy.testutils;

import org.apache.flink.annotation.Internal;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The one way tests wait: check a condition every few milliseconds until it holds, and fail with a
 * message naming what was awaited when the deadline passes. Never spins: the calling thread sleeps
 * between checks, so a waiting test leaves the (shared, few) cores to the code it waits for.
 */
@Internal
public final class Conditions {

    /** Between two checks by default; short against the deadlines, long against a check. */
    private static final Duration PAUSE = Duration.ofMillis(10);

    /** A condition to wait for; it may throw, which ends the wait with that failure. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    private Conditions() {}

    /**
     * Waits until {@code condition} holds.
     *
     * @param what what is awaited, completing "Timed out after 10 s waiting until ..."
     * @throws AssertionError when {@code timeout} passes first, or the condition throws
     */
    public static void waitUntil(String what, Duration timeout, Condition condition)
            throws InterruptedException {
        waitUntil(what, timeout, condition, () -> "");
    }

    /**
     * Waits until {@code condition} holds; on timeout, the message ends with {@code details} (the
     * state that explains why, e.g. what was seen so far), computed only then.
     *
     * @throws AssertionError when {@code timeout} passes first, or the condition throws
     */
    public static void waitUntil(
            String what, Duration timeout, Condition condition, Supplier<String> details)
            throws InterruptedException {
        waitUntil(what, timeout, PAUSE, condition, details);
    }

    /**
     * Waits until {@code condition} holds, checking it every {@code pause}: longer than the default
     * for a check that is itself costly (a REST call to a cluster, a query of its processes).
     *
     * @throws AssertionError when {@code timeout} passes first, or the condition throws
     */
    public static void waitUntil(
            String what,
            Duration timeout,
            Duration pause,
            Condition condition,
            Supplier<String> details)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!holds(what, condition)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(
                        "Timed out after " + timeout + " waiting until " + what + details.get());
            }
            Thread.sleep(pause.toMillis());
        }
    }

    private static boolean holds(String what, Condition condition) throws InterruptedException {
        try {
            return condition.holds();
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError("Could not check whether " + what + ": " + e, e);
        }
    }
}

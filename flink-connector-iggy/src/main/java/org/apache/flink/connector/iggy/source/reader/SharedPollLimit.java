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

import java.util.concurrent.Semaphore;

/**
 * Bounds the polls in flight of all the source readers in one JVM (per class loader): each answer
 * holds memory, and readers sharing the cores gain nothing from more requests than the cores
 * answer. Each reader may always have {@link #OWN_POLLS} poll in flight, so that none waits for
 * another; each further poll takes one of {@link #SHARED_POLLS} permits, without blocking.
 *
 * <p>Thread-safe; each reader uses it from its fetcher thread.
 */
final class SharedPollLimit {

    static final int OWN_POLLS = 1;

    static final int SHARED_POLLS = 15;

    static final SharedPollLimit JVM = new SharedPollLimit(SHARED_POLLS);

    private final Semaphore permits;

    SharedPollLimit(int shared) {
        this.permits = new Semaphore(shared);
    }

    boolean tryAcquire() {
        return permits.tryAcquire();
    }

    void release(int count) {
        permits.release(count);
    }

    int available() {
        return permits.availablePermits();
    }
}

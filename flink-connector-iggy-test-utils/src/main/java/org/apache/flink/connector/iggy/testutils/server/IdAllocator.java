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
package org.apache.flink.connector.iggy.testutils.server;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Hands out 0-based ids the way the real server's slabs do: a freed id is reused before a new one
 * is taken, and the most recently freed id comes first.
 *
 * <p>Example: allocate 0, 1, 2; free 0 then 2; the next allocations return 2, 0, then 3.
 */
final class IdAllocator {
    private final Deque<Integer> freed = new ArrayDeque<>();
    private int next;

    int allocate() {
        Integer reused = freed.pollFirst();
        return reused != null ? reused : next++;
    }

    void free(int id) {
        freed.addFirst(id);
    }
}

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

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remembers recently appended message ids of one partition, like the server's {@code
 * system.message_deduplication}: at most {@code maxEntries} ids, each for {@code expiry}. Not
 * thread-safe: the partition calls it under its append lock.
 */
final class MessageDeduplicator {
    private final int maxEntries;
    private final long expiryMicros;
    private final LinkedHashMap<MessageIdKey, Long> seenAt = new LinkedHashMap<>();

    MessageDeduplicator(int maxEntries, long expiryMicros) {
        this.maxEntries = maxEntries;
        this.expiryMicros = expiryMicros;
    }

    /** Records the id and returns true, or returns false if it was seen within the window. */
    boolean recordIfNew(long idLow, long idHigh, long nowMicros) {
        evictExpired(nowMicros);
        MessageIdKey key = new MessageIdKey(idLow, idHigh);
        if (seenAt.containsKey(key)) {
            return false;
        }
        seenAt.put(key, nowMicros);
        if (seenAt.size() > maxEntries) {
            Iterator<MessageIdKey> eldest = seenAt.keySet().iterator();
            eldest.next();
            eldest.remove();
        }
        return true;
    }

    private void evictExpired(long nowMicros) {
        if (expiryMicros <= 0) {
            return;
        }
        Iterator<Map.Entry<MessageIdKey, Long>> entries = seenAt.entrySet().iterator();
        while (entries.hasNext() && nowMicros - entries.next().getValue() >= expiryMicros) {
            entries.remove();
        }
    }

    private record MessageIdKey(long low, long high) {}
}

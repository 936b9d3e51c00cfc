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

import org.apache.commons.codec.digest.XXHash32;

import java.nio.charset.StandardCharsets;

/** The consumer of a poll or an offset command: a single consumer or a consumer group. */
record ConsumerRef(boolean isGroup, EntityId id) {

    /**
     * The key under which a single consumer's offsets are kept: its numeric id, or XXH32 (seed 0)
     * of its name, as the real server does. So a named and a numeric consumer can share offsets.
     */
    long offsetKey() {
        if (id.isNumeric()) {
            return id.numeric();
        }
        return xxh32(id.name().getBytes(StandardCharsets.UTF_8));
    }

    static long xxh32(byte[] bytes) {
        XXHash32 hash = new XXHash32(0);
        hash.update(bytes, 0, bytes.length);
        return hash.getValue();
    }
}

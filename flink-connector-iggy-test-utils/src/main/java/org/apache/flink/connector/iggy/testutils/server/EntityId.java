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

import java.util.Map;
import java.util.function.Function;

/**
 * An Iggy identifier as sent on the wire: either a numeric id or a name. Streams, topics, consumer
 * groups, consumers and users are all addressed this way.
 */
record EntityId(long numeric, String name) {

    static EntityId ofNumeric(long id) {
        return new EntityId(id, null);
    }

    static EntityId ofName(String name) {
        return new EntityId(-1, name);
    }

    boolean isNumeric() {
        return name == null;
    }

    /**
     * The entity this id names: by key in {@code byId} when numeric, else the first whose name
     * matches; null when there is none.
     */
    <T> T find(Map<Integer, T> byId, Function<T, String> nameOf) {
        if (isNumeric()) {
            return numeric > Integer.MAX_VALUE ? null : byId.get((int) numeric);
        }
        for (T entity : byId.values()) {
            if (nameOf.apply(entity).equals(name)) {
                return entity;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return isNumeric() ? Long.toString(numeric) : '"' + name + '"';
    }
}

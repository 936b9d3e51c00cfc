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
package org.apache.flink.connector.iggy.common;

import org.apache.flink.annotation.PublicEvolving;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.Objects;

/**
 * A stream or topic named either by its name or by its numeric id, as Iggy allows both. Unlike the
 * SDK's identifiers it is serializable, so it can travel inside sources, sinks and splits.
 */
@PublicEvolving
public final class IggyId implements Serializable {

    private static final long serialVersionUID = 1L;

    @Nullable private final String name;
    private final long numericId;

    private IggyId(@Nullable String name, long numericId) {
        this.name = name;
        this.numericId = numericId;
    }

    public static IggyId of(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("An Iggy name must not be empty");
        }
        if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 255) {
            throw new IllegalArgumentException(
                    "An Iggy name is at most 255 bytes, but '" + name + "' is longer");
        }
        return new IggyId(name, -1);
    }

    public static IggyId of(long numericId) {
        if (numericId < 0 || numericId > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(
                    "An Iggy numeric id is an unsigned 32-bit number, but is " + numericId);
        }
        return new IggyId(null, numericId);
    }

    public boolean isNumeric() {
        return name == null;
    }

    /** The name; only for a named identifier ({@link #isNumeric()} false). */
    public String name() {
        if (name == null) {
            throw new IllegalStateException("Iggy id " + this + " is numeric and has no name");
        }
        return name;
    }

    /** The numeric id; only for a numeric identifier ({@link #isNumeric()} true). */
    public long numericId() {
        if (name != null) {
            throw new IllegalStateException("Iggy id " + this + " is a name, not a numeric id");
        }
        return numericId;
    }

    /** The name, or the numeric id in decimal: how metadata (e.g. a table column) shows it. */
    public String asText() {
        return name != null ? name : Long.toString(numericId);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IggyId that
                && numericId == that.numericId
                && Objects.equals(name, that.name);
    }

    @Override
    public int hashCode() {
        // Without Objects.hash's array and boxed long: the sink hashes two ids per record.
        return 31 * Objects.hashCode(name) + Long.hashCode(numericId);
    }

    /** The name in quotes, or the numeric id after '#': as messages show it. */
    @Override
    public String toString() {
        return name != null ? "'" + name + "'" : "#" + numericId;
    }
}

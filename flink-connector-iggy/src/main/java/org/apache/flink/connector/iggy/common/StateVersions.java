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

import org.apache.flink.annotation.Internal;

import java.io.IOException;

/** The version check of the connector's state serializers: each reads exactly its own version. */
@Internal
public final class StateVersions {

    private StateVersions() {}

    /** Fails unless {@code version} is {@code current}, naming {@code what} and the fix. */
    public static void check(int version, int current, String what) throws IOException {
        if (version != current) {
            throw new IOException(
                    String.format(
                            "Unknown version %d of %s; this connector reads version %d. Restore"
                                    + " with the connector version that wrote it.",
                            version, what, current));
        }
    }
}

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

import org.apache.iggy.exception.IggyServerException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Assertions on the errors the SDK raises for server error replies. */
public final class IggyErrors {
    private IggyErrors() {}

    /** The call fails with exactly {@code type} carrying the server's numeric {@code code}. */
    public static void assertServerError(
            ThrowingCallable call, Class<? extends IggyServerException> type, int code) {
        assertThatThrownBy(call)
                .isExactlyInstanceOf(type)
                .satisfies(
                        e ->
                                org.assertj.core.api.Assertions.assertThat(
                                                ((IggyServerException) e).getRawErrorCode())
                                        .as("server error code")
                                        .isEqualTo(code));
    }
}

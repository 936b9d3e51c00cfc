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
package org.apache.flink.connector.iggy.common.client;

import org.apache.flink.annotation.Internal;

import org.apache.iggy.exception.IggyException;

import java.util.ArrayList;
import java.util.List;

/**
 * Another failure as text (class name, message, stack trace, its causes described), holding none of
 * them: the SDK's exceptions cannot be serialized, and a job's failure that cannot reaches the
 * client as Flink's stand-in, which loses its type. Attached in their place, a copy prints as the
 * original did.
 */
@Internal
public final class FailureCopy extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String originalClassName;

    private FailureCopy(String originalClassName, String message) {
        super(message);
        this.originalClassName = originalClassName;
    }

    /**
     * A copy of {@code original}, its causes described in the message ({@code "…; from Class:
     * message"}), with the innermost one's stack trace.
     */
    public static FailureCopy of(Throwable original) {
        List<String> parts = new ArrayList<>();
        if (original.getMessage() != null) {
            parts.add(original.getMessage());
        }
        Throwable innermost = original;
        for (Throwable c = original.getCause(); c != null && c != innermost; c = c.getCause()) {
            parts.add("from " + c);
            innermost = c;
        }
        FailureCopy copy =
                new FailureCopy(
                        original.getClass().getName(),
                        parts.isEmpty() ? null : String.join("; ", parts));
        copy.setStackTrace(innermost.getStackTrace());
        return copy;
    }

    /** {@code failure}, or its copy if it or a cause is an SDK exception: for a job's failure. */
    public static Throwable serializable(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause()) {
            if (c instanceof IggyException) {
                return of(failure);
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return failure;
    }

    @Override
    public String toString() {
        String message = getLocalizedMessage();
        return message == null ? originalClassName : originalClassName + ": " + message;
    }
}

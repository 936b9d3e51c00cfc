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
 * Another failure as text: its class name, message and stack trace, and the descriptions of its
 * causes, without holding any of them.
 *
 * <p>The SDK's exceptions cannot be serialized (they hold {@code Optional} fields), and a job's
 * failure that cannot be serialized reaches the client as Flink's stand-in, which loses its type
 * and prints the class name twice ({@code IggyConnectorException: IggyConnectorException: Cannot
 * log in …}). Attached in place of the SDK's exception, this copy keeps the failure serializable
 * and prints as the original did.
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
     * A copy of {@code original} without causes: they are described in its message ({@code "…; from
     * Class: message"}), and its stack trace is the innermost one's, where the failure arose.
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

    /**
     * {@code failure} itself, or its copy if it or one of its causes is an SDK exception: what to
     * attach as the cause of a failure that may end a job.
     */
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

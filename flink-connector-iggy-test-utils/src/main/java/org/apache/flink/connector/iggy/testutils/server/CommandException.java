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

/**
 * A command failed with an Iggy error code; the connection answers {@code status=code, length=0}.
 *
 * <p>Thrown on ordinary paths such as "stream not found", so it carries no stack trace: it is
 * control flow, not a bug report.
 */
final class CommandException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int code;

    CommandException(int code, String reason) {
        super(reason, null, false, false);
        this.code = code;
    }

    static CommandException of(int code, String reason) {
        return new CommandException(code, reason);
    }

    int code() {
        return code;
    }

    @Override
    public String toString() {
        return "error " + code + ": " + getMessage();
    }
}

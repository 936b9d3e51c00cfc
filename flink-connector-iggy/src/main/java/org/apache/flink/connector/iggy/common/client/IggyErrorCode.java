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

import org.apache.iggy.exception.IggyServerException;

import java.util.Arrays;
import java.util.Optional;

/**
 * The error codes of Iggy server 0.8 that the connector reacts to, by name, with the server's wire
 * numbers: the SDK's own table numbers some differently. {@link #toString()} gives {@code 3007
 * (PARTITION_NOT_FOUND)}, for messages.
 */
@Internal
public enum IggyErrorCode {
    /** Among others, an unknown personal access token at login. */
    RESOURCE_NOT_FOUND(20),
    /** The user lacks the permission for the request (the server checks it per request). */
    UNAUTHORIZED(41),
    INVALID_CREDENTIALS(42),
    INVALID_USERNAME(43),
    INVALID_PASSWORD(44),
    USER_INACTIVE(47),
    PERSONAL_ACCESS_TOKEN_EXPIRED(54),
    STREAM_ID_NOT_FOUND(1009),
    STREAM_NAME_ALREADY_EXISTS(1012),
    TOPIC_ID_NOT_FOUND(2010),
    TOPIC_NAME_ALREADY_EXISTS(2013),
    PARTITION_NOT_FOUND(3007),
    TOO_BIG_USER_HEADERS(4017),
    TOO_BIG_MESSAGE_PAYLOAD(4022);

    private final int code;

    IggyErrorCode(int code) {
        this.code = code;
    }

    /** The number the server sends. */
    public int code() {
        return code;
    }

    /** The error with the server's number {@code code}, if it is one the connector knows. */
    public static Optional<IggyErrorCode> fromCode(int code) {
        return Arrays.stream(values()).filter(error -> error.code == code).findFirst();
    }

    /** The known error the server answered, carried by {@code failure} or one of its causes. */
    public static Optional<IggyErrorCode> of(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause()) {
            if (c instanceof IggyServerException) {
                return fromCode(((IggyServerException) c).getRawErrorCode());
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return Optional.empty();
    }

    /** Whether {@code failure} or one of its causes is the server's answer with this error. */
    public boolean isCauseOf(Throwable failure) {
        return of(failure).filter(this::equals).isPresent();
    }

    @Override
    public String toString() {
        return code + " (" + name() + ")";
    }
}

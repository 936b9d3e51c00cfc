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
 * Byte positions inside one encoded message: a 64-byte header, then the payload, then the user
 * headers. The layout is the same in SendMessages and in PollMessages.
 */
final class MessageLayout {
    static final int HEADER_SIZE = 64;
    static final int CHECKSUM = 0;
    static final int ID = 8;
    static final int OFFSET = 24;
    static final int TIMESTAMP = 32;
    static final int ORIGIN_TIMESTAMP = 40;
    static final int USER_HEADERS_LENGTH = 48;
    static final int PAYLOAD_LENGTH = 52;

    static final long MAX_PAYLOAD_SIZE = 64_000_000L;
    static final long MAX_USER_HEADERS_SIZE = 100_000L;

    private MessageLayout() {}
}

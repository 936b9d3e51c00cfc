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
 * The numeric error codes of Iggy server 0.8.0 that this server can answer with.
 *
 * <p>These are the server's numbers. The Java SDK's own table is out of step with the server in
 * places, but SDK users see the server numbers against a real server, so we send those.
 */
final class ErrorCodes {
    /** The server's generic "Error", used here only for unexpected internal failures. */
    static final int ERROR = 1;

    static final int INVALID_COMMAND = 3;
    static final int INVALID_FORMAT = 4;
    static final int FEATURE_UNAVAILABLE = 5;
    static final int INVALID_IDENTIFIER = 6;
    static final int RESOURCE_NOT_FOUND = 20;
    static final int UNAUTHENTICATED = 40;
    static final int UNAUTHORIZED = 41;
    static final int INVALID_CREDENTIALS = 42;
    static final int INVALID_USERNAME = 43;
    static final int INVALID_PASSWORD = 44;
    static final int USER_ALREADY_EXISTS = 46;
    static final int USER_INACTIVE = 47;
    static final int CANNOT_DELETE_USER = 48;
    static final int CANNOT_CHANGE_PERMISSIONS = 49;
    static final int INVALID_PAT_NAME = 50;
    static final int PAT_ALREADY_EXISTS = 51;
    static final int PAT_LIMIT_REACHED = 52;
    static final int PAT_EXPIRED = 54;
    static final int INVALID_CLIENT_ID = 101;
    static final int STREAM_ID_NOT_FOUND = 1009;
    static final int STREAM_NAME_ALREADY_EXISTS = 1012;
    static final int INVALID_TOPIC_SIZE = 1019;
    static final int TOPIC_ID_NOT_FOUND = 2010;
    static final int TOPIC_NAME_ALREADY_EXISTS = 2013;
    static final int TOO_MANY_PARTITIONS = 2015;
    static final int INVALID_PARTITIONS_COUNT = 2019;
    static final int PARTITION_NOT_FOUND = 3007;
    static final int CONSUMER_OFFSET_NOT_FOUND = 3021;
    static final int NOT_RESOLVED_CONSUMER = 3022;
    static final int INVALID_MESSAGES_COUNT = 4009;
    static final int TOO_BIG_USER_HEADERS = 4017;
    static final int TOO_BIG_MESSAGE_PAYLOAD = 4022;
    static final int NON_ZERO_OFFSET = 4031;
    static final int NON_ZERO_TIMESTAMP = 4032;
    static final int MISSING_INDEX = 4033;
    static final int INVALID_MESSAGES_SIZE = 4036;
    static final int INVALID_OFFSET = 4100;
    static final int CONSUMER_GROUP_ID_NOT_FOUND = 5000;
    static final int CONSUMER_GROUP_NAME_ALREADY_EXISTS = 5004;
    static final int CONSUMER_GROUP_MEMBER_NOT_FOUND = 5006;
    static final int CANNOT_READ_INDEX_POSITION = 10011;

    private ErrorCodes() {}
}

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
 * The command codes of Iggy's binary protocol that the server answers: those SDK 0.8.0 sends over
 * TCP, and those other clients of Iggy 0.8 send (snapshot, cluster metadata, flush, delete
 * segments, delete offset, purges).
 */
final class CommandCodes {
    static final int PING = 1;
    static final int GET_STATS = 10;
    static final int GET_SNAPSHOT = 11;
    static final int GET_CLUSTER_METADATA = 12;
    static final int GET_ME = 20;
    static final int GET_CLIENT = 21;
    static final int GET_CLIENTS = 22;
    static final int GET_USER = 31;
    static final int GET_USERS = 32;
    static final int CREATE_USER = 33;
    static final int DELETE_USER = 34;
    static final int UPDATE_USER = 35;
    static final int UPDATE_PERMISSIONS = 36;
    static final int CHANGE_PASSWORD = 37;
    static final int LOGIN_USER = 38;
    static final int LOGOUT_USER = 39;
    static final int GET_PATS = 41;
    static final int CREATE_PAT = 42;
    static final int DELETE_PAT = 43;
    static final int LOGIN_WITH_PAT = 44;
    static final int POLL_MESSAGES = 100;
    static final int SEND_MESSAGES = 101;
    static final int FLUSH_UNSAVED_BUFFER = 102;
    static final int GET_CONSUMER_OFFSET = 120;
    static final int STORE_CONSUMER_OFFSET = 121;
    static final int DELETE_CONSUMER_OFFSET = 122;
    static final int GET_STREAM = 200;
    static final int GET_STREAMS = 201;
    static final int CREATE_STREAM = 202;
    static final int DELETE_STREAM = 203;
    static final int UPDATE_STREAM = 204;
    static final int PURGE_STREAM = 205;
    static final int GET_TOPIC = 300;
    static final int GET_TOPICS = 301;
    static final int CREATE_TOPIC = 302;
    static final int DELETE_TOPIC = 303;
    static final int UPDATE_TOPIC = 304;
    static final int PURGE_TOPIC = 305;
    static final int CREATE_PARTITIONS = 402;
    static final int DELETE_PARTITIONS = 403;
    static final int DELETE_SEGMENTS = 503;
    static final int GET_CONSUMER_GROUP = 600;
    static final int GET_CONSUMER_GROUPS = 601;
    static final int CREATE_CONSUMER_GROUP = 602;
    static final int DELETE_CONSUMER_GROUP = 603;
    static final int JOIN_CONSUMER_GROUP = 604;
    static final int LEAVE_CONSUMER_GROUP = 605;

    private CommandCodes() {}
}

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

import org.apache.flink.annotation.Internal;

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.client.blocking.tcp.IggyTcpClientBuilder;
import org.apache.iggy.exception.IggyNotConnectedException;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/** The SDK's blocking clients, logged in for tests and the test server's jar. */
@Internal
public final class TestClients {

    /** How long {@link #buildAndLogin} waits for the SDK to mark a login done. */
    private static final Duration LOGIN_MARK_WAIT = Duration.ofSeconds(10);

    private static final Duration LOOK_AGAIN = Duration.ofMillis(1);

    private TestClients() {}

    /**
     * {@code builder.buildAndLogin()}, then waits until the SDK has marked the client logged in.
     * SDK 0.8.0 sets that mark in a callback that can run after the login returned, and a request
     * sent in between fails with "Not authenticated, call login first".
     */
    public static IggyTcpClient buildAndLogin(IggyTcpClientBuilder builder) {
        IggyTcpClient client = builder.buildAndLogin();
        long deadline = System.nanoTime() + LOGIN_MARK_WAIT.toNanos();
        while (true) {
            try {
                client.system().getMe();
                return client;
            } catch (IggyNotConnectedException e) {
                if (System.nanoTime() - deadline >= 0) {
                    client.close();
                    throw e;
                }
                LockSupport.parkNanos(LOOK_AGAIN.toNanos());
            }
        }
    }
}

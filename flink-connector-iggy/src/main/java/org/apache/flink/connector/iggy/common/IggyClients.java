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

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.client.async.tcp.AsyncIggyTcpClientBuilder;
import org.apache.iggy.exception.IggyAuthenticationException;
import org.apache.iggy.exception.IggyServerException;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Opens logged-in SDK clients and waits on SDK futures with a deadline.
 *
 * <p>The SDK accepts a request timeout but does not enforce it, so every blocking wait in the
 * connector goes through {@link #await} with the configured request timeout: an unresponsive server
 * fails the task instead of hanging it.
 */
@Internal
public final class IggyClients {

    private IggyClients() {}

    /**
     * Connects and logs in, or fails within the connect timeout with a message naming the address,
     * the principal and the fix. The caller owns (and must {@link #closeQuietly close}) the client.
     */
    public static AsyncIggyTcpClient connect(IggyConnectionConfig config) {
        return connect(config, AsyncIggyTcpClient.builder());
    }

    /**
     * Like {@link #connect(IggyConnectionConfig)}, but every request goes over one connection, in
     * the order the caller issued them: the SDK holds a pooled connection from sending a request
     * until its answer and hands it to waiting requests first come, first served. A request waits
     * for the connection at most the request timeout.
     */
    public static AsyncIggyTcpClient connectWithOneConnection(IggyConnectionConfig config) {
        return connect(
                config,
                AsyncIggyTcpClient.builder()
                        .connectionPoolSize(1)
                        .acquireTimeout(config.requestTimeout()));
    }

    private static AsyncIggyTcpClient connect(
            IggyConnectionConfig config, AsyncIggyTcpClientBuilder builder) {
        builder.host(config.host())
                .port(config.port())
                .connectionTimeout(config.connectTimeout())
                .requestTimeout(config.requestTimeout())
                .tls(config.tlsEnabled());
        config.tlsCertificatePath().ifPresent(builder::tlsCertificate);
        if (config.personalAccessToken().isEmpty()) {
            builder.credentials(config.username(), config.password());
        }
        AsyncIggyTcpClient client = builder.build();
        try {
            await(
                    client.connect(),
                    config.connectTimeout(),
                    "connect to Iggy at " + config.address());
        } catch (RuntimeException e) {
            closeQuietly(client);
            throw new IggyConnectorException(
                    "Cannot connect to Iggy at "
                            + config.address()
                            + " within "
                            + config.connectTimeout()
                            + ": "
                            + describe(e)
                            + ". Check that the server is running and that the address (host:port of its TCP listener) is right.",
                    e);
        }
        try {
            CompletableFuture<?> login =
                    config.personalAccessToken()
                            .<CompletableFuture<?>>map(
                                    token ->
                                            client.personalAccessTokens()
                                                    .loginWithPersonalAccessToken(token))
                            .orElseGet(client::login);
            await(login, config.connectTimeout(), "log in to Iggy at " + config.address());
        } catch (RuntimeException e) {
            closeQuietly(client);
            String fix =
                    config.personalAccessToken().isPresent()
                            ? "Check that the personal access token exists and has not expired."
                            : "Check the username and password.";
            String reason =
                    isAuthenticationFailure(e)
                            ? "the server rejected " + config.principal()
                            : describe(e);
            throw new IggyConnectorException(
                    "Cannot log in to Iggy at "
                            + config.address()
                            + " as "
                            + config.principal()
                            + ": "
                            + reason
                            + ". "
                            + fix,
                    e);
        }
        return client;
    }

    /** Waits for an SDK future, unwrapping its failure, and fails after {@code timeout}. */
    public static <T> T await(CompletableFuture<T> future, Duration timeout, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw new IggyConnectorException("Interrupted while waiting to " + what, e);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new IggyConnectorException(
                    "Timed out after " + timeout + " waiting to " + what, e);
        } catch (ExecutionException | CompletionException e) {
            throw asRuntime(e.getCause() != null ? e.getCause() : e);
        } catch (CancellationException e) {
            throw new IggyConnectorException("Cancelled while waiting to " + what, e);
        }
    }

    /** The SDK's failure itself (an {@code IggyException} mostly), without future wrappers. */
    public static RuntimeException asRuntime(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t instanceof RuntimeException
                ? (RuntimeException) t
                : new IggyConnectorException(t.toString(), t);
    }

    /** The Iggy server's numeric error code carried by {@code t} or its causes, or -1. */
    public static int serverErrorCode(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof IggyServerException) {
                return ((IggyServerException) c).getRawErrorCode();
            }
        }
        return -1;
    }

    public static void closeQuietly(AsyncIggyTcpClient client) {
        if (client == null) {
            return;
        }
        try {
            client.close().get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception ignored) {
            // Closing is best effort: the connection may already be gone.
        }
    }

    private static boolean isAuthenticationFailure(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof IggyAuthenticationException) {
                return true;
            }
        }
        int code = serverErrorCode(t);
        // 20: unknown personal access token; 42-44: bad credentials; 47: inactive; 54: expired
        // token
        return code == 20 || (code >= 42 && code <= 44) || code == 47 || code == 54;
    }

    private static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message =
                root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        return message;
    }
}

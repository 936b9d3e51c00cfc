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
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.client.async.tcp.AsyncIggyTcpClientBuilder;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;

/**
 * Opens logged-in SDK clients and waits on SDK futures with a deadline.
 *
 * <p>The SDK accepts a request timeout but does not enforce it, so every blocking wait in the
 * connector goes through {@link #await} with the configured request timeout: an unresponsive server
 * fails the task instead of hanging it.
 */
@Internal
public final class IggyClients {

    /** The most {@link #closeAndWait} waits for the client's threads to end. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    /** The counter of reconnects in the metric group of the operator that owns a client. */
    public static final String RECONNECTS = "reconnects";

    private IggyClients() {}

    /**
     * A pooled SDK client, connected and logged in, for the benchmarks' plain SDK loops; the
     * connector itself goes through {@link IggyServerClient}.
     */
    public static AsyncIggyTcpClient connect(IggyConnectionConfig config) {
        return connect(config, AsyncIggyTcpClient.builder(), new SimpleCounter(), true);
    }

    /**
     * A client whose every request goes over one connection, in call order: the SDK hands a pooled
     * connection to waiting requests first come, first served; each waits at most the request
     * timeout.
     */
    static AsyncIggyTcpClientBuilder oneConnection(IggyConnectionConfig config) {
        return AsyncIggyTcpClient.builder()
                .connectionPoolSize(1)
                .acquireTimeout(config.requestTimeout());
    }

    /**
     * Connects and logs in, or fails within the connect timeout as {@link ConnectionFailures} says,
     * having closed the client. The caller owns (and must {@link #closeAndWait close}) the client.
     *
     * @param reconnects the {@value #RECONNECTS} metric: each connection opened to replace one that
     *     closed
     * @param replaceClosed false: once a connection closed, the requests queued behind it fail too
     *     instead of overtaking it
     */
    static AsyncIggyTcpClient connect(
            IggyConnectionConfig config,
            AsyncIggyTcpClientBuilder builder,
            Counter reconnects,
            boolean replaceClosed) {
        builder.host(config.host())
                .port(config.port())
                .connectionTimeout(config.connectTimeout())
                .requestTimeout(config.requestTimeout())
                .tls(config.tlsEnabled());
        config.tlsCertificate().ifPresent(builder::tlsCertificate);
        if (config.personalAccessToken().isEmpty()) {
            builder.credentials(config.username().orElseThrow(), config.password().orElseThrow());
        }
        AsyncIggyTcpClient client = builder.build();
        // One deadline for connecting, the TLS handshake and logging in together.
        long deadline = System.nanoTime() + config.connectTimeout().toNanos();
        String at = "Iggy at " + config.address();
        // How the step under way fails.
        BiFunction<IggyConnectionConfig, Throwable, IggyConnectorException> failure =
                ConnectionFailures::cannotConnect;
        try {
            await(client.connect(), remaining(deadline), "connect to " + at);
            failure = ConnectionFailures::tlsHandshakeFailed;
            await(
                    IggySdk.get()
                            .watchConnections(
                                    client,
                                    config.address(),
                                    config.tlsEnabled(),
                                    reconnects::inc,
                                    replaceClosed),
                    remaining(deadline),
                    "complete the TLS handshake with " + at);
            failure = ConnectionFailures::cannotLogIn;
            CompletableFuture<?> login =
                    config.personalAccessToken()
                            .<CompletableFuture<?>>map(
                                    token ->
                                            client.personalAccessTokens()
                                                    .loginWithPersonalAccessToken(token))
                            .orElseGet(client::login);
            await(login, remaining(deadline), "log in to " + at);
            IggySdk.get()
                    .awaitLoggedIn(
                            client,
                            deadline,
                            getMe ->
                                    await(
                                            getMe,
                                            remaining(deadline),
                                            "confirm the login at " + at));
        } catch (RuntimeException e) {
            closeAndWait(client);
            throw failure.apply(config, e);
        }
        return client;
    }

    /** What is left until {@code deadline}, at least a millisecond so a wait still looks once. */
    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(deadline - System.nanoTime(), 1_000_000L));
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
            // A bare TimeoutException says less than this, yet would be the root cause shown.
            throw asRootCause("Timed out after " + timeout + " waiting to " + what, e);
        } catch (ExecutionException | CompletionException e) {
            throw asRuntime(e.getCause() != null ? e.getCause() : e, what);
        } catch (CancellationException e) {
            throw new IggyConnectorException("Cancelled while waiting to " + what, e);
        }
    }

    /**
     * The SDK's failure without future wrappers; a permission the server denied as an {@link
     * IggyConfigurationException} ({@link ConnectionFailures#permissionDenied}).
     */
    public static RuntimeException asRuntime(Throwable t) {
        return asRuntime(t, null);
    }

    /** {@link #asRuntime(Throwable)} of a request that tried to {@code what}, if known. */
    private static RuntimeException asRuntime(Throwable t, @Nullable String what) {
        while ((t instanceof CompletionException || t instanceof ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        if (IggyErrorCode.UNAUTHORIZED.isCauseOf(t)) {
            return ConnectionFailures.permissionDenied(what, t);
        }
        return t instanceof RuntimeException
                ? (RuntimeException) t
                : new IggyConnectorException(t.toString(), t);
    }

    /**
     * Closes the client and returns once its threads have ended ({@link IggySdk#close}, at most
     * {@link #CLOSE_WAIT}). Never throws; does nothing for {@code null}.
     */
    public static void closeAndWait(@Nullable AsyncIggyTcpClient client) {
        if (client != null) {
            IggySdk.get().close(client, CLOSE_WAIT);
        }
    }

    /**
     * A failure that is its own root cause: Flink's SQL client prints only the root cause (the text
     * after the last {@code "Caused by: "}), so the text naming what failed and the fix must not
     * hide behind a bare {@code ConnectException}. The original's class and message belong in
     * {@code message} ({@link #describe}); the original is attached as a suppressed exception
     * without causes that loads anywhere: itself if a plain JDK exception, else a {@link
     * FailureCopy}.
     */
    public static IggyConnectorException asRootCause(String message, Throwable original) {
        return withOriginal(new IggyConnectorException(message), original);
    }

    /** {@code e} with {@code original} attached as {@link #asRootCause} does. */
    public static <E extends IggyConnectorException> E withOriginal(E e, Throwable original) {
        boolean plainJdk =
                original.getClass().getClassLoader() == null
                        && original.getCause() == null
                        && original.getSuppressed().length == 0;
        e.addSuppressed(plainJdk ? original : FailureCopy.of(original));
        return e;
    }

    /** The innermost failure as {@code ClassName: message}, without a closing period. */
    public static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? "" : root.getMessage().strip();
        while (message.endsWith(".")) {
            message = message.substring(0, message.length() - 1);
        }
        return message.isEmpty()
                ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + message;
    }
}

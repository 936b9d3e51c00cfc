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
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;

import io.netty.buffer.ByteBuf;
import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.client.async.tcp.AsyncTcpConnection;
import org.apache.iggy.exception.IggyNotConnectedException;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.serde.BytesSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Every workaround of the connector for the Iggy Java SDK, in one place; the rest of the connector
 * uses the SDK through its public API only.
 *
 * <p>For SDK {@value #CHECKED_SDK_VERSION}:
 *
 * <ul>
 *   <li>A connection that closes does not fail the requests waiting on it: they would wait for the
 *       whole request timeout. {@link #watchConnections} makes them fail at once, saying so.
 *   <li>A client counts as connected once TCP is up, so a failed TLS handshake would show as a
 *       failed login. {@link #watchConnections} hands back the handshake, to wait for and name.
 *   <li>Closing a client ends its threads after Netty's quiet period of 2 s, and does not wait for
 *       them. {@link #close} ends them in about a tenth of a second and returns only then.
 *   <li>The client is marked as logged in by a callback that can run after the login's future
 *       completed; a request sent in between fails with "not authenticated". {@link #awaitLoggedIn}
 *       waits that window out.
 *   <li>The client has no method for FLUSH_UNSAVED_BUFFER (command 102). {@link
 *       #flushUnsavedBuffer} sends it through the client's connection, whose {@code send} of a raw
 *       command is public.
 * </ul>
 *
 * <p>All but the fourth reach private members of the SDK and of Netty by reflection ({@link
 * SdkInternals}, nowhere else: an architecture test keeps it so). With an SDK that lacks one, this
 * class falls back to the plain SDK and logs what is lost. A test pins the SDK version and the
 * members, so an SDK upgrade fails the build until the workarounds have been checked.
 *
 * <p>Immutable; shared by all threads.
 */
@Internal
public final class IggySdk {

    private static final Logger LOG = LoggerFactory.getLogger(IggySdk.class);

    /** The SDK version the workarounds were written and tested for. */
    public static final String CHECKED_SDK_VERSION = "0.8.0";

    /** FLUSH_UNSAVED_BUFFER, which SDK 0.8.0 lists in no {@code CommandCode}. */
    static final int FLUSH_UNSAVED_BUFFER = 102;

    /** The pause between two looks at whether the SDK has marked a login done. */
    private static final Duration LOGIN_WINDOW_RETRY = Duration.ofNanos(100_000);

    private static final IggySdk INSTANCE = new IggySdk(resolveOrWarn());

    /** The SDK's members, or null for the fallback that works around nothing. */
    @Nullable private final SdkInternals internals;

    @VisibleForTesting
    IggySdk(@Nullable SdkInternals internals) {
        this.internals = internals;
    }

    /** The workarounds for the SDK on the class path. */
    public static IggySdk get() {
        return INSTANCE;
    }

    private static SdkInternals resolveOrWarn() {
        try {
            return SdkInternals.resolve();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.warn(
                    "The Iggy SDK on the class path is not the one the connector was built for ({})"
                            + " and lacks a member it relies on ({}). The connector runs without its"
                            + " workarounds: a connection that closes with a request in flight"
                            + " fails that request only at the request timeout, a failed TLS"
                            + " handshake shows as a failed login, and closing a client takes 2 s.",
                    CHECKED_SDK_VERSION,
                    e.toString());
            return null;
        }
    }

    /** Whether the workarounds that need the SDK's internals are active (false: the fallback). */
    public boolean active() {
        return internals != null;
    }

    /**
     * Makes every connection of {@code client}, the open one and those its pool opens later, fail
     * its requests in flight when it closes. Call right after the client connected.
     *
     * @param address the server's {@code host:port}, for messages
     * @param onReconnect runs on a client thread each time a connection replaces one that closed
     * @param replaceClosed false: once a connection closed, every later request fails
     * @return completes when the open connection's TLS handshake has (at once without TLS or in the
     *     fallback), exceptionally with its failure
     */
    public CompletableFuture<Void> watchConnections(
            AsyncIggyTcpClient client,
            String address,
            boolean tls,
            Runnable onReconnect,
            boolean replaceClosed) {
        if (internals == null) {
            LOG.warn(
                    "Iggy SDK workarounds are off (see the warning of {} before): a connection to {}"
                            + " that closes with a request in flight fails that request only at"
                            + " the request timeout, and reconnects are not counted.",
                    IggySdk.class.getName(),
                    address);
            return CompletableFuture.completedFuture(null);
        }
        return SdkChannels.watch(internals, client, address, tls, onReconnect, replaceClosed);
    }

    /**
     * Closes {@code client} and returns once its threads have ended, at most {@code timeout} later:
     * threads still running when Flink releases a job's class loader fail to load classes there.
     * For a client in any state; not cut short by an interrupt, which stays set. Never throws.
     */
    public void close(AsyncIggyTcpClient client, Duration timeout) {
        try {
            if (internals != null && SdkChannels.close(internals, client, timeout)) {
                return;
            }
            if (internals == null) {
                LOG.warn(
                        "Iggy SDK workarounds are off (see the warning of {} before): closing a"
                                + " client takes Netty's quiet period of 2 s.",
                        IggySdk.class.getName());
            }
            // The SDK's own close completes once its event loops have ended; join() waits
            // through an interrupt and sets it again.
            client.close().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).join();
        } catch (RuntimeException e) {
            LOG.debug("Closing an Iggy client failed", e);
        }
    }

    /**
     * After a successful login, asks the server who the client is (waiting with {@code await})
     * until the answer is not "not authenticated" or {@code deadlineNanos} has passed.
     */
    public void awaitLoggedIn(
            AsyncIggyTcpClient client, long deadlineNanos, Consumer<CompletableFuture<?>> await) {
        while (true) {
            try {
                await.accept(client.system().getMe());
                return;
            } catch (IggyNotConnectedException e) {
                if (System.nanoTime() - deadlineNanos >= 0) {
                    throw e;
                }
                LockSupport.parkNanos(LOGIN_WINDOW_RETRY.toNanos());
            }
        }
    }

    /**
     * Asks the server to write the partition's unsaved messages to disk, with {@code fsync} also to
     * sync them (command 102: stream and topic identifiers, the partition as u32, fsync as u8; an
     * empty answer). Queues behind the client's earlier requests; the caller bounds the wait. In
     * the fallback it fails at once with an {@link IggyConfigurationException}: no retry helps.
     */
    public CompletableFuture<Void> flushUnsavedBuffer(
            AsyncIggyTcpClient client,
            StreamId stream,
            TopicId topic,
            long partition,
            boolean fsync) {
        AsyncTcpConnection connection;
        try {
            connection = internals == null ? null : internals.connection(client);
        } catch (IllegalAccessException e) {
            connection = null;
        }
        if (connection == null) {
            return CompletableFuture.failedFuture(
                    new IggyConfigurationException(
                            "Cannot ask the Iggy server to flush a partition: the Iggy SDK on the"
                                    + " class path is not "
                                    + CHECKED_SDK_VERSION
                                    + " (see the warning of "
                                    + IggySdk.class.getName()
                                    + " before) or the client never connected. Use the SDK the"
                                    + " connector was built with, or turn the sink's fsync before"
                                    + " deleting its write-ahead files off."));
        }
        ByteBuf request = BytesSerializer.toBytes(stream);
        request.writeBytes(BytesSerializer.toBytes(topic));
        request.writeIntLE((int) partition);
        request.writeByte(fsync ? 1 : 0);
        return connection.send(FLUSH_UNSAVED_BUFFER, request).thenAccept(ByteBuf::release);
    }

    /** The SDK members reached by reflection as {@code Owner.member}; empty in the fallback. */
    @VisibleForTesting
    List<String> reflectedMembers() {
        return internals == null ? List.of() : internals.members();
    }
}

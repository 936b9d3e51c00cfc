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

import org.apache.flink.annotation.VisibleForTesting;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelHandler;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.channel.pool.SimpleChannelPool;
import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.client.async.tcp.AsyncTcpConnection;

import javax.annotation.Nullable;

import java.lang.reflect.Field;
import java.util.List;

/**
 * The SDK's private members the workarounds of {@link IggySdk} reach by reflection, looked up once
 * and type-checked, so that an SDK that renamed or retyped one is found at once. Immutable.
 */
final class SdkInternals {

    /** {@code AsyncIggyTcpClient.connection}, its {@code channelPool}, the pool's bootstrap. */
    static final String CONNECTION = "connection";

    static final String CHANNEL_POOL = "channelPool";
    static final String BOOTSTRAP = "bootstrap";

    /** The SDK's handler of answers in each connection's pipeline, nested in the connection. */
    static final String RESPONSE_HANDLER = "IggyResponseHandler";

    private final Field connection;
    private final Field channelPool;
    private final Field bootstrap;
    private final Class<? extends ChannelHandler> responseHandler;

    private SdkInternals(
            Field connection,
            Field channelPool,
            Field bootstrap,
            Class<? extends ChannelHandler> responseHandler) {
        this.connection = connection;
        this.channelPool = channelPool;
        this.bootstrap = bootstrap;
        this.responseHandler = responseHandler;
    }

    /** Looks the members of SDK 0.8.0 up; fails naming the first one missing or retyped. */
    static SdkInternals resolve() throws ReflectiveOperationException {
        return resolve(CONNECTION, CHANNEL_POOL, BOOTSTRAP, RESPONSE_HANDLER);
    }

    /** {@link #resolve()} with other names, to see what a renamed member does. */
    @VisibleForTesting
    static SdkInternals resolve(
            String connectionName,
            String channelPoolName,
            String bootstrapName,
            String responseHandlerName)
            throws ReflectiveOperationException {
        Field connection =
                field(AsyncIggyTcpClient.class, connectionName, AsyncTcpConnection.class);
        Class<?> connectionType = connection.getType();
        Field channelPool = field(connectionType, channelPoolName, FixedChannelPool.class);
        Field bootstrap = field(SimpleChannelPool.class, bootstrapName, Bootstrap.class);
        // By the connection's class, not by a name in quotes: the SQL jar relocates the SDK.
        Class<?> handler =
                Class.forName(
                        connectionType.getName() + "$" + responseHandlerName,
                        false,
                        connectionType.getClassLoader());
        if (!ChannelHandler.class.isAssignableFrom(handler)) {
            throw new ClassCastException(handler.getName() + " is not a Netty ChannelHandler");
        }
        return new SdkInternals(
                connection, channelPool, bootstrap, handler.asSubclass(ChannelHandler.class));
    }

    /** The reflected members as {@code Owner.member}, for the test that pins them. */
    List<String> members() {
        return List.of(
                name(connection),
                name(channelPool),
                name(bootstrap),
                responseHandler
                        .getName()
                        .substring(responseHandler.getName().lastIndexOf('.') + 1)
                        .replace('$', '.'));
    }

    /** The Netty pool behind {@code client}, or null if the client never tried to connect. */
    @Nullable
    FixedChannelPool pool(AsyncIggyTcpClient client) throws IllegalAccessException {
        Object c = connection.get(client);
        return c == null ? null : (FixedChannelPool) channelPool.get(c);
    }

    /** The connection of {@code client}, or null if the client never tried to connect. */
    @Nullable
    AsyncTcpConnection connection(AsyncIggyTcpClient client) throws IllegalAccessException {
        return (AsyncTcpConnection) connection.get(client);
    }

    /** How {@code pool} opens connections: its event loops and the handlers of a new one. */
    Bootstrap bootstrap(FixedChannelPool pool) throws IllegalAccessException {
        return (Bootstrap) bootstrap.get(pool);
    }

    /** The class of the SDK's answer handler, in each connection's pipeline. */
    Class<? extends ChannelHandler> responseHandler() {
        return responseHandler;
    }

    private static Field field(Class<?> owner, String name, Class<?> type)
            throws NoSuchFieldException {
        Field field = owner.getDeclaredField(name);
        if (!type.isAssignableFrom(field.getType())) {
            throw new NoSuchFieldException(
                    name(field)
                            + " is a "
                            + field.getType().getName()
                            + ", not a "
                            + type.getName());
        }
        field.setAccessible(true);
        return field;
    }

    private static String name(Field field) {
        return field.getDeclaringClass().getSimpleName() + "." + field.getName();
    }
}

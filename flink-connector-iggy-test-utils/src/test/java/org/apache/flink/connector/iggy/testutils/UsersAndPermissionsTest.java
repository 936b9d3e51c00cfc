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

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.exception.IggyAuthorizationException;
import org.apache.iggy.exception.IggyConflictException;
import org.apache.iggy.exception.IggyServerException;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.identifier.UserId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;
import org.apache.iggy.message.PollingStrategy;
import org.apache.iggy.user.GlobalPermissions;
import org.apache.iggy.user.Permissions;
import org.apache.iggy.user.StreamPermissions;
import org.apache.iggy.user.UserInfo;
import org.apache.iggy.user.UserInfoDetails;
import org.apache.iggy.user.UserStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.apache.flink.connector.iggy.testutils.IggyErrors.assertServerError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Users and permissions (docs/development/iggy-protocol.md §6.9): a second user with restricted
 * rights.
 */
class UsersAndPermissionsTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static final GlobalPermissions NO_GLOBAL_PERMISSIONS =
            new GlobalPermissions(
                    false, false, false, false, false, false, false, false, false, false);

    private final List<String> createdUsers = new ArrayList<>();
    private final List<IggyTcpClient> clients = new ArrayList<>();
    private String stream;
    private long streamId;

    @BeforeEach
    void setUp() {
        stream = IGGY.uniqueName("perm");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
        IGGY.send(stream, "t", 0, List.of("hello".getBytes()));
        streamId = IGGY.client().streams().getStream(StreamId.of(stream)).orElseThrow().id();
    }

    @AfterEach
    void cleanUp() {
        Clients.closeAll(clients);
        for (String user : createdUsers) {
            IGGY.client().users().deleteUser(UserId.of(user));
        }
    }

    @Test
    void createdUserCanBeReadListedAndDeleted() {
        String name = IGGY.uniqueName("u");
        Permissions permissions = readOnly(streamId);

        UserInfoDetails created = createUser(name, UserStatus.Active, Optional.of(permissions));

        assertThat(created.id()).isPositive();
        assertThat(created.username()).isEqualTo(name);
        assertThat(created.status()).isEqualTo(UserStatus.Active);
        assertThat(created.permissions()).contains(permissions);
        UserInfoDetails read = IGGY.client().users().getUser(UserId.of(name)).orElseThrow();
        assertThat(read.permissions()).contains(permissions);
        assertThat(IGGY.client().users().getUsers()).extracting(UserInfo::username).contains(name);

        IGGY.client().users().deleteUser(UserId.of(name));
        createdUsers.remove(name);
        assertThat(IGGY.client().users().getUser(UserId.of(name))).isEmpty();
    }

    @Test
    void userWithoutPermissionsHasNone() {
        String name = IGGY.uniqueName("u");
        UserInfoDetails created = createUser(name, UserStatus.Active, Optional.empty());

        assertThat(created.permissions()).isEmpty();
        IggyTcpClient client = loginAs(name);
        assertServerError(
                () -> client.streams().getStreams(), IggyAuthorizationException.class, 41);
        assertServerError(() -> client.system().getStats(), IggyAuthorizationException.class, 41);
        // Without any permission a user may still ask about its own connection.
        assertThat(client.system().getMe().userId()).contains(created.id());
    }

    @Test
    void restrictedUserCanPollButNotSendOrManage() {
        String name = IGGY.uniqueName("u");
        createUser(name, UserStatus.Active, Optional.of(readOnly(streamId)));
        IggyTcpClient reader = loginAs(name);

        assertThat(
                        reader.messages()
                                .pollMessages(
                                        StreamId.of(stream),
                                        TopicId.of("t"),
                                        Optional.of(0L),
                                        Consumer.of(1L),
                                        PollingStrategy.first(),
                                        10L,
                                        false)
                                .messages())
                .hasSize(1);
        assertThat(reader.streams().getStream(StreamId.of(stream))).isPresent();
        assertServerError(
                () ->
                        reader.messages()
                                .sendMessages(
                                        StreamId.of(stream),
                                        TopicId.of("t"),
                                        Partitioning.partitionId(0L),
                                        List.of(Message.of("nope"))),
                IggyAuthorizationException.class,
                41);
        assertServerError(
                () -> reader.streams().createStream(IGGY.uniqueName("nope")),
                IggyAuthorizationException.class,
                41);
        assertServerError(
                () -> reader.streams().deleteStream(StreamId.of(stream)),
                IggyAuthorizationException.class,
                41);
        assertServerError(() -> reader.users().getUsers(), IggyAuthorizationException.class, 41);
    }

    @Test
    void restrictedUserCannotTouchOtherStreams() {
        String other = IGGY.uniqueName("other");
        IGGY.createStream(other);
        IGGY.createTopic(other, "t", 1);
        IGGY.send(other, "t", 0, List.of(new byte[1]));
        String name = IGGY.uniqueName("u");
        createUser(name, UserStatus.Active, Optional.of(readOnly(streamId)));
        IggyTcpClient reader = loginAs(name);

        assertServerError(
                () ->
                        reader.messages()
                                .pollMessages(
                                        StreamId.of(other),
                                        TopicId.of("t"),
                                        Optional.of(0L),
                                        Consumer.of(1L),
                                        PollingStrategy.first(),
                                        10L,
                                        false),
                IggyAuthorizationException.class,
                41);
        assertServerError(
                () ->
                        reader.consumerOffsets()
                                .storeConsumerOffset(
                                        StreamId.of(other),
                                        TopicId.of("t"),
                                        Optional.of(0L),
                                        Consumer.of(1L),
                                        BigInteger.ZERO),
                IggyAuthorizationException.class,
                41);
    }

    @Test
    void userWithSendPermissionCanSend() {
        String name = IGGY.uniqueName("u");
        Permissions writer =
                new Permissions(
                        NO_GLOBAL_PERMISSIONS,
                        Map.of(
                                streamId,
                                new StreamPermissions(
                                        false, false, false, false, false, true, Map.of())));
        createUser(name, UserStatus.Active, Optional.of(writer));
        IggyTcpClient client = loginAs(name);

        client.messages()
                .sendMessages(
                        StreamId.of(stream),
                        TopicId.of("t"),
                        Partitioning.partitionId(0L),
                        List.of(Message.of("from writer")));

        assertThat(IGGY.readAll(stream, "t", 0)).hasSize(2);
    }

    @Test
    void userErrors() {
        String name = IGGY.uniqueName("u");
        createUser(name, UserStatus.Active, Optional.empty());

        assertServerError(
                () -> createUser(name, UserStatus.Active, Optional.empty()),
                IggyConflictException.class,
                46);
        assertServerError(
                () -> IGGY.client().users().deleteUser(UserId.of(0L)),
                IggyServerException.class,
                48);
    }

    @Test
    void updateUserPermissionsAndPassword() {
        String name = IGGY.uniqueName("u");
        String renamed = name + "-r";
        UserInfoDetails created = createUser(name, UserStatus.Active, Optional.empty());

        IGGY.client().users().updateUser(UserId.of(name), Optional.of(renamed), Optional.empty());
        createdUsers.set(createdUsers.indexOf(name), renamed);
        IGGY.client()
                .users()
                .updatePermissions(UserId.of(renamed), Optional.of(readOnly(streamId)));
        IGGY.client().users().changePassword(UserId.of(renamed), "secret-password", "new-password");

        UserInfoDetails updated = IGGY.client().users().getUser(created.id()).orElseThrow();
        assertThat(updated.username()).isEqualTo(renamed);
        assertThat(updated.permissions()).contains(readOnly(streamId));
        try (IggyTcpClient client =
                IggyTcpClient.builder()
                        .host(IGGY.host())
                        .port(IGGY.port())
                        .credentials(renamed, "new-password")
                        .buildAndLogin()) {
            assertThat(client.streams().getStream(StreamId.of(stream))).isPresent();
        }
        assertServerError(
                () -> IGGY.client().users().updatePermissions(UserId.of(0L), Optional.empty()),
                IggyServerException.class,
                49);
    }

    @Test
    void inactiveUserCannotLogIn() {
        String name = IGGY.uniqueName("u");
        createUser(name, UserStatus.Inactive, Optional.empty());

        try (IggyTcpClient client =
                IggyTcpClient.builder().host(IGGY.host()).port(IGGY.port()).build()) {
            client.connect();
            assertServerError(
                    () -> client.users().login(name, "secret-password"),
                    IggyServerException.class,
                    47);
        }
    }

    private UserInfoDetails createUser(
            String name, UserStatus status, Optional<Permissions> permissions) {
        UserInfoDetails created =
                IGGY.client().users().createUser(name, "secret-password", status, permissions);
        createdUsers.add(name);
        return created;
    }

    private IggyTcpClient loginAs(String name) {
        IggyTcpClient client =
                IggyTcpClient.builder()
                        .host(IGGY.host())
                        .port(IGGY.port())
                        .credentials(name, "secret-password")
                        .buildAndLogin();
        clients.add(client);
        return client;
    }

    /** May read the stream and poll its messages, nothing else. */
    private static Permissions readOnly(long streamId) {
        return new Permissions(
                NO_GLOBAL_PERMISSIONS,
                Map.of(
                        streamId,
                        new StreamPermissions(false, true, false, true, true, false, Map.of())));
    }
}

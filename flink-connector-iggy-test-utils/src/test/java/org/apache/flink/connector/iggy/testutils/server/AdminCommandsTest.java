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

import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.RawFrames;
import org.apache.flink.connector.iggy.testutils.RawFrames.Response;

import org.apache.iggy.identifier.UserId;
import org.apache.iggy.user.UserStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static org.apache.flink.connector.iggy.testutils.RawFrames.name;
import static org.apache.flink.connector.iggy.testutils.RawFrames.request;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commands SDK 0.8.0 has no method for but other Iggy 0.8 clients send: GET_SNAPSHOT (11),
 * GET_CLUSTER_METADATA (12), FLUSH_UNSAVED_BUFFER (102) and DELETE_SEGMENTS (503), as raw frames
 * (docs/development/iggy-protocol.md §6.10, §6.11, §7.3 and §7.4). Runs against a real server too,
 * where it checks what both answer alike.
 */
class AdminCommandsTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static final String TOPIC = "t";
    private static final int STORED = 1;
    private static final int DEFLATED = 2;
    private static final int ZSTD = 4;
    private static final int TYPE_TEST = 4;
    private static final int TYPE_SERVER_CONFIG = 6;
    private static final int TYPE_ALL = 100;

    private final List<String> createdUsers = new ArrayList<>();
    private String stream;

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("admin");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, TOPIC, 2);
        IGGY.send(stream, TOPIC, 0, List.of("a".getBytes(), "b".getBytes(), "c".getBytes()));
    }

    @AfterEach
    void deleteUsers() {
        createdUsers.forEach(user -> IGGY.client().users().deleteUser(UserId.of(user)));
    }

    @Test
    void clusterMetadataDescribesASingleHealthyLeader() throws IOException {
        try (Socket socket = connect()) {
            assertThat(request(socket, CommandCodes.GET_CLUSTER_METADATA, new byte[0]).status())
                    .isEqualTo(ErrorCodes.UNAUTHENTICATED);
            login(socket);

            Response response = request(socket, CommandCodes.GET_CLUSTER_METADATA, new byte[0]);

            assertThat(response.status()).isZero();
            ByteBuffer in = response.payload();
            assertThat(str32(in)).isEqualTo("single-node");
            assertThat(in.getInt()).as("nodes").isEqualTo(1);
            assertThat(str32(in)).isEqualTo("iggy-node");
            String ip = str32(in);
            int tcp = Short.toUnsignedInt(in.getShort());
            int[] otherPorts = {
                Short.toUnsignedInt(in.getShort()),
                Short.toUnsignedInt(in.getShort()),
                Short.toUnsignedInt(in.getShort())
            };
            assertThat(in.get()).as("role: leader").isEqualTo((byte) 0);
            assertThat(in.get()).as("status: healthy").isEqualTo((byte) 0);
            assertThat(in.remaining()).as("bytes after the only node").isZero();
            assertThat(tcp).isEqualTo(IGGY.port());
            if (IGGY.embeddedServer().isPresent()) {
                assertThat(ip).isEqualTo(IGGY.host());
                assertThat(otherPorts).as("QUIC, HTTP, WebSocket: not served").containsOnly(0);
            }
        }
    }

    @Test
    void snapshotIsAZipWithOneEntryPerRequestedType() throws IOException {
        try (Socket socket = connect()) {
            login(socket);

            Map<String, String> deflated =
                    snapshot(socket, DEFLATED, TYPE_TEST, TYPE_SERVER_CONFIG);
            assertThat(deflated).containsOnlyKeys("test.txt", "server_config.txt");
            assertThat(deflated.get("test.txt")).isEqualTo("test\n");
            assertThat(snapshot(socket, STORED, TYPE_TEST))
                    .containsExactly(Map.entry("test.txt", "test\n"));
            assertThat(snapshot(socket, DEFLATED, TYPE_ALL))
                    .containsOnlyKeys(
                            "filesystem_overview.txt",
                            "process_list.txt",
                            "resource_usage.txt",
                            "server_logs.txt",
                            "server_config.txt");

            assertThat(snapshotStatus(socket, DEFLATED, TYPE_ALL, TYPE_TEST))
                    .as("'all' with another type")
                    .isEqualTo(ErrorCodes.INVALID_COMMAND);
            assertThat(snapshotStatus(socket, DEFLATED, 7))
                    .as("unknown type")
                    .isEqualTo(ErrorCodes.INVALID_COMMAND);
            assertThat(snapshotStatus(socket, 9, TYPE_TEST))
                    .as("unknown compression")
                    .isEqualTo(ErrorCodes.INVALID_COMMAND);
            if (IGGY.embeddedServer().isPresent()) {
                assertThat(snapshotStatus(socket, ZSTD, TYPE_TEST))
                        .as("a compression the JDK cannot write")
                        .isEqualTo(ErrorCodes.FEATURE_UNAVAILABLE);
            }
        }
    }

    @Test
    void flushUnsavedBufferIsAcceptedAndLosesNothing() throws IOException {
        try (Socket socket = connect()) {
            login(socket);

            assertThat(flush(socket, stream, TOPIC, 0)).isZero();
            assertThat(flush(socket, stream, TOPIC, 1)).as("an empty partition").isZero();
            assertThat(IGGY.readAll(stream, TOPIC, 0)).hasSize(3);

            assertThat(flush(socket, stream, TOPIC, 2)).isEqualTo(ErrorCodes.PARTITION_NOT_FOUND);
            assertThat(flush(socket, stream, "missing", 0))
                    .isEqualTo(ErrorCodes.TOPIC_ID_NOT_FOUND);
            assertThat(flush(socket, "missing-" + stream, TOPIC, 0))
                    .isEqualTo(ErrorCodes.STREAM_ID_NOT_FOUND);
        }
        try (Socket socket = connectAsUserWithoutPermissions()) {
            assertThat(flush(socket, stream, TOPIC, 0)).isEqualTo(ErrorCodes.UNAUTHORIZED);
        }
    }

    @Test
    void deleteSegmentsIsAcceptedAndKeepsTheActiveSegment() throws IOException {
        try (Socket socket = connect()) {
            login(socket);

            assertThat(deleteSegments(socket, stream, TOPIC, 0, 1)).isZero();
            assertThat(IGGY.readAll(stream, TOPIC, 0))
                    .as("the only segment is the active one, which Iggy never deletes")
                    .hasSize(3);

            assertThat(deleteSegments(socket, stream, TOPIC, 2, 1))
                    .isEqualTo(ErrorCodes.PARTITION_NOT_FOUND);
            assertThat(deleteSegments(socket, stream, "missing", 0, 1))
                    .isEqualTo(ErrorCodes.TOPIC_ID_NOT_FOUND);
            assertThat(deleteSegments(socket, "missing-" + stream, TOPIC, 0, 1))
                    .isEqualTo(ErrorCodes.STREAM_ID_NOT_FOUND);
        }
        try (Socket socket = connectAsUserWithoutPermissions()) {
            assertThat(deleteSegments(socket, stream, TOPIC, 0, 1))
                    .isEqualTo(ErrorCodes.UNAUTHORIZED);
        }
    }

    private static int flush(Socket socket, String stream, String topic, int partition)
            throws IOException {
        byte[] s = name(stream);
        byte[] t = name(topic);
        ByteBuffer payload =
                ByteBuffer.allocate(s.length + t.length + 5).order(ByteOrder.LITTLE_ENDIAN);
        payload.put(s).put(t).putInt(partition).put((byte) 1); // fsync
        return request(socket, CommandCodes.FLUSH_UNSAVED_BUFFER, payload.array()).status();
    }

    private static int deleteSegments(
            Socket socket, String stream, String topic, int partition, int segments)
            throws IOException {
        byte[] s = name(stream);
        byte[] t = name(topic);
        ByteBuffer payload =
                ByteBuffer.allocate(s.length + t.length + 8).order(ByteOrder.LITTLE_ENDIAN);
        payload.put(s).put(t).putInt(partition).putInt(segments);
        return request(socket, CommandCodes.DELETE_SEGMENTS, payload.array()).status();
    }

    private static Response snapshotResponse(Socket socket, int compression, int... types)
            throws IOException {
        byte[] payload = new byte[2 + types.length];
        payload[0] = (byte) compression;
        payload[1] = (byte) types.length;
        for (int i = 0; i < types.length; i++) {
            payload[2 + i] = (byte) types[i];
        }
        return request(socket, CommandCodes.GET_SNAPSHOT, payload);
    }

    private static int snapshotStatus(Socket socket, int compression, int... types)
            throws IOException {
        return snapshotResponse(socket, compression, types).status();
    }

    /** The archive's entries and their text, in archive order. */
    private static Map<String, String> snapshot(Socket socket, int compression, int... types)
            throws IOException {
        Response response = snapshotResponse(socket, compression, types);
        assertThat(response.status()).isZero();
        byte[] zip = new byte[response.payload().remaining()];
        response.payload().get(zip);
        Map<String, String> entries = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                entries.put(entry.getName(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return entries;
    }

    private static String str32(ByteBuffer in) {
        byte[] bytes = new byte[in.getInt()];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static Socket connect() throws IOException {
        Assumptions.assumeFalse(IGGY.isTls(), "raw frames are plain TCP");
        Socket socket = new Socket(IGGY.host(), IGGY.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static void login(Socket socket) throws IOException {
        assertThat(RawFrames.login(socket, IGGY.username(), IGGY.password())).isZero();
    }

    /** A connection logged in as a fresh user without any permission. */
    private Socket connectAsUserWithoutPermissions() throws IOException {
        String user = IGGY.uniqueName("nobody");
        IGGY.client()
                .users()
                .createUser(user, "secret-password", UserStatus.Active, Optional.empty());
        createdUsers.add(user);
        Socket socket = connect();
        assertThat(RawFrames.login(socket, user, "secret-password")).isZero();
        return socket;
    }
}

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

import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code send}, {@code poll} and {@code topic create} against the in-JVM server, or the real one of
 * IGGY_TCP_ADDRESS.
 */
class IggyCliTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    @Test
    void sendsArgumentsAndPollPrintsOffsetKeyAndPayload() {
        String stream = IGGY.uniqueName("cli");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "latest", 1);

        assertThat(
                        run(
                                "send",
                                stream + "/latest",
                                "--partition",
                                "0",
                                "--header",
                                "flink.key=k1",
                                "v1",
                                "v1b"))
                .isZero();
        assertThat(run("send", stream + "/latest", "--partition", "0", "plain")).isZero();
        printed.reset();

        assertThat(run("poll", stream + "/latest", "--offset", "1")).isZero();
        assertThat(lines())
                .containsExactly("offset=1 key=k1 payload=v1b", "offset=2 payload=plain");
        List<Message> stored = IGGY.readAll(stream, "latest", 0);
        assertThat(stored).hasSize(3);
        assertThat(stored.get(0).userHeaders()).containsKey(HeaderKey.fromString("flink.key"));
        IGGY.deleteStream(stream);
    }

    @Test
    void sendsOneMessagePerLineOfStandardInput() {
        String stream = IGGY.uniqueName("cli-lines");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "events", 1);

        int exit =
                IggyCli.run(
                        new String[] {"send", stream + "/events"},
                        env(),
                        input("k1=v1\nk2=v2\n"),
                        new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertThat(exit).isZero();
        assertThat(lines()).containsExactly("Sent 2 messages to " + stream + "/events");
        assertThat(IGGY.readAll(stream, "events", 0))
                .extracting(m -> new String(m.payload(), StandardCharsets.UTF_8))
                .containsExactly("k1=v1", "k2=v2");
        IGGY.deleteStream(stream);
    }

    @Test
    void aMissingTopicFailsWithItsNameAndTheAddress() {
        String stream = IGGY.uniqueName("cli-missing");

        assertThat(run("poll", stream + "/nothing")).isEqualTo(1);
    }

    @Test
    void addressAndCredentialsComeFromTheEnvironmentUnlessGiven() {
        IggyCli.Options fromEnv =
                IggyCli.Options.parse(
                        Map.of(
                                "IGGY_TCP_ADDRESS", "iggy.example:9000",
                                "IGGY_USERNAME", "u",
                                "IGGY_PASSWORD", "p"),
                        "poll",
                        "shop/latest");
        assertThat(fromEnv.host()).isEqualTo("iggy.example");
        assertThat(fromEnv.port()).isEqualTo(9000);
        assertThat(fromEnv.username()).isEqualTo("u");
        assertThat(fromEnv.password()).isEqualTo("p");
        assertThat(fromEnv.offset()).isZero();
        assertThat(fromEnv.count()).isEqualTo(100);

        IggyCli.Options defaults =
                IggyCli.Options.parse(Map.of(), "send", "shop/events", "--address", "h:1");
        assertThat(defaults.address()).isEqualTo("h:1");
        assertThat(defaults.username()).isEqualTo("iggy");
        assertThat(defaults.partition()).isEmpty();
    }

    @Test
    void badArgumentsAreRefusedWithTheFix() {
        assertThatThrownBy(() -> IggyCli.Options.parse(Map.of(), "poll", "shop"))
                .hasMessageContaining("STREAM/TOPIC");
        assertThatThrownBy(() -> IggyCli.Options.parse(Map.of(), "poll", "shop/t", "x"))
                .hasMessageContaining("poll takes no messages");
        assertThatThrownBy(() -> IggyCli.Options.parse(Map.of(), "send", "shop/t", "--header", "x"))
                .hasMessageContaining("NAME=VALUE");
        assertThatThrownBy(
                        () -> IggyCli.Options.parse(Map.of(), "poll", "shop/t", "--offset", "-1"))
                .hasMessageContaining("--offset must be a number");
        assertThat(run("send", "shop")).isEqualTo(2);
    }

    @Test
    void topicCreateCreatesTheTopicAndItsStreamOnce() {
        String stream = IGGY.uniqueName("cli-create");

        assertThat(run("topic", "create", stream + "/large-orders", "3")).isZero();
        assertThat(lines())
                .containsExactly(
                        "Created stream " + stream,
                        "Created topic " + stream + "/large-orders with 3 partition(s)");
        assertThat(IGGY.client().topics().getTopic(StreamId.of(stream), TopicId.of("large-orders")))
                .hasValueSatisfying(t -> assertThat(t.partitionsCount()).isEqualTo(3L));
        printed.reset();

        assertThat(run("topic", "create", stream + "/other")).isZero();
        assertThat(lines())
                .containsExactly("Created topic " + stream + "/other with 1 partition(s)");
        assertThat(run("topic", "create", stream + "/other")).as("exists already").isEqualTo(1);
        IGGY.deleteStream(stream);
    }

    @Test
    void topicCreateRefusesWhatItDoesNotTake() {
        assertThatThrownBy(() -> IggyCli.Options.parse(Map.of(), "topic", "delete", "s/t"))
                .hasMessageContaining("topic create STREAM/TOPIC [PARTITIONS]");
        assertThatThrownBy(() -> IggyCli.Options.parse(Map.of(), "topic", "create", "s/t", "0"))
                .hasMessageContaining("a number of partitions, 1..1000");
        assertThatThrownBy(
                        () -> IggyCli.Options.parse(Map.of(), "topic", "create", "s/t", "2", "3"))
                .hasMessageContaining("a number of partitions");
        assertThatThrownBy(
                        () ->
                                IggyCli.Options.parse(
                                        Map.of(), "topic", "create", "s/t", "--count", "2"))
                .hasMessageContaining("--count is not an option of topic create");
        IggyCli.Options options =
                IggyCli.Options.parse(Map.of(), "topic", "create", "s/t", "2", "--address", "h:1");
        assertThat(options.partitions()).isEqualTo(2);
        assertThat(options.address()).isEqualTo("h:1");
        assertThat(options.messages()).isEmpty();
    }

    @Test
    void nonTextPayloadsPrintAsHex() {
        assertThat(IggyCli.text(new byte[] {(byte) 0xff, 0x01})).isEqualTo("0xff01");
        assertThat(IggyCli.text("grün".getBytes(StandardCharsets.UTF_8))).isEqualTo("grün");
    }

    private int run(String... args) {
        return IggyCli.run(
                args, env(), input(""), new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    private static Map<String, String> env() {
        return Map.of(
                "IGGY_TCP_ADDRESS", IGGY.address(),
                "IGGY_USERNAME", IGGY.username(),
                "IGGY_PASSWORD", IGGY.password());
    }

    private static InputStream input(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    private List<String> lines() {
        return printed.toString(StandardCharsets.UTF_8).lines().toList();
    }
}

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

import org.apache.flink.connector.iggy.testutils.TestClients;

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.topic.TopicDetails;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the packaged jar exactly as docs/testing.md says ({@code java -jar <jar> --port 0 --stream
 * ... --topic ...}) and checks through the SDK that the streams and topics exist.
 */
class EmbeddedIggyServerJarIT {
    private static final String LISTENING = "Embedded Iggy server listening on ";

    @Test
    void jarStartsAServerWithTheRequestedStreamsAndTopics() throws Exception {
        Path jar = Paths.get(System.getProperty("testUtilsJar", "missing"));
        assertThat(jar).as("the packaged test-utils jar (run with mvn verify)").isRegularFile();
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        Process process =
                startJar(
                        java,
                        jar,
                        "--port",
                        "0",
                        "--stream",
                        "audit",
                        "--topic",
                        "shop/orders:3",
                        "--topic",
                        "shop/payments");
        try {
            String address = awaitAddress(process);
            String[] hostPort = address.split(":");
            try (IggyTcpClient client =
                    TestClients.buildAndLogin(
                            IggyTcpClient.builder()
                                    .host(hostPort[0])
                                    .port(Integer.parseInt(hostPort[1]))
                                    .credentials("iggy", "iggy"))) {
                assertThat(client.streams().getStream(StreamId.of("audit"))).isPresent();
                TopicDetails orders =
                        client.topics()
                                .getTopic(StreamId.of("shop"), TopicId.of("orders"))
                                .orElseThrow();
                assertThat(orders.partitionsCount()).isEqualTo(3L);
                TopicDetails payments =
                        client.topics()
                                .getTopic(StreamId.of("shop"), TopicId.of("payments"))
                                .orElseThrow();
                assertThat(payments.partitionsCount()).isEqualTo(1L);
            }
        } finally {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /** The jar's {@code send} and {@code poll} commands against the server the jar started. */
    @Test
    void jarSendsAndPollsMessages() throws Exception {
        Path jar = Paths.get(System.getProperty("testUtilsJar", "missing"));
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        Process server = startJar(java, jar, "--port", "0", "--topic", "shop/latest");
        try {
            String address = awaitAddress(server);
            assertThat(
                            runJar(
                                    java,
                                    jar,
                                    "send",
                                    "shop/latest",
                                    "--address",
                                    address,
                                    "--header",
                                    "flink.key=k1",
                                    "v1"))
                    .contains("Sent 1 messages to shop/latest");
            assertThat(runJar(java, jar, "poll", "shop/latest", "--address", address))
                    .contains("offset=0 key=k1 payload=v1");
        } finally {
            server.destroy();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    private static Process startJar(Path java, Path jar, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(java.toString(), "-jar", jar.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** Runs the jar with {@code args} to its end (at most 60 s); what it printed. */
    private static String runJar(Path java, Path jar, String... args) throws Exception {
        String command = String.join(" ", args);
        Process process = startJar(java, jar, args);
        CompletableFuture<String> output =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return new String(
                                        process.getInputStream().readAllBytes(),
                                        StandardCharsets.UTF_8);
                            } catch (IOException e) {
                                return e.toString();
                            }
                        });
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s ended", command).isTrue();
        String printed = output.get(10, TimeUnit.SECONDS);
        assertThat(process.exitValue()).as("exit of %s; printed %s", command, printed).isZero();
        return printed;
    }

    @Test
    void helpPrintsTheUsageAndExits() throws Exception {
        Path jar = Paths.get(System.getProperty("testUtilsJar", "missing"));
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        Process process =
                new ProcessBuilder(java.toString(), "-jar", jar.toString(), "--help")
                        .redirectErrorStream(true)
                        .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        assertThat(output).contains("--topic STREAM/TOPIC[:PARTITIONS]");
    }

    /** Reads the process's output until the address line, for at most 60 s. */
    private static String awaitAddress(Process process) throws Exception {
        List<String> seen = new ArrayList<>();
        CompletableFuture<String> address =
                CompletableFuture.supplyAsync(
                        () -> {
                            try (BufferedReader out =
                                    new BufferedReader(
                                            new InputStreamReader(
                                                    process.getInputStream(),
                                                    StandardCharsets.UTF_8))) {
                                String line;
                                while ((line = out.readLine()) != null) {
                                    synchronized (seen) {
                                        seen.add(line);
                                    }
                                    if (line.startsWith(LISTENING)) {
                                        return line.substring(LISTENING.length()).trim();
                                    }
                                }
                                return null;
                            } catch (IOException e) {
                                return null;
                            }
                        });
        String result = address.get(60, TimeUnit.SECONDS);
        synchronized (seen) {
            assertThat(result).as("address line; output was %s", seen).isNotNull();
        }
        return result;
    }
}

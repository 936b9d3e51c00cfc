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

import org.apache.flink.connector.iggy.testutils.server.EmbeddedIggyServerMain.Options;
import org.apache.flink.connector.iggy.testutils.server.EmbeddedIggyServerMain.TopicSpec;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The command line of the standalone server. */
class EmbeddedIggyServerMainTest {

    @Test
    void defaultsAreTheRealServersPortAndCredentials() {
        Options options = Options.parse();

        assertThat(options.help()).isFalse();
        assertThat(options.config().host()).isEqualTo("127.0.0.1");
        assertThat(options.config().port()).isEqualTo(8090);
        assertThat(options.config().rootUsername()).isEqualTo("iggy");
        assertThat(options.config().rootPassword()).isEqualTo("iggy");
        assertThat(options.config().deduplication().enabled()).isFalse();
        assertThat(options.config().segmentSize()).isEqualTo(1L << 30);
        assertThat(options.config().deleteOldestSegments()).isFalse();
        assertThat(options.streams()).isEmpty();
        assertThat(options.topics()).isEmpty();
    }

    @Test
    void everyOptionIsApplied() {
        Options options =
                Options.parse(
                        "--host",
                        "0.0.0.0",
                        "--port",
                        "0",
                        "--username",
                        "admin",
                        "--password",
                        "s3cret",
                        "--deduplication",
                        "--segment-size",
                        "268435456",
                        "--delete-oldest-segments",
                        "--stream",
                        "audit",
                        "--topic",
                        "shop/orders:3",
                        "--topic",
                        "shop/payments");

        assertThat(options.config().host()).isEqualTo("0.0.0.0");
        assertThat(options.config().port()).isZero();
        assertThat(options.config().rootUsername()).isEqualTo("admin");
        assertThat(options.config().rootPassword()).isEqualTo("s3cret");
        assertThat(options.config().deduplication().enabled()).isTrue();
        assertThat(options.config().segmentSize()).isEqualTo(256L << 20);
        assertThat(options.config().deleteOldestSegments()).isTrue();
        assertThat(options.streams()).containsExactly("audit", "shop");
        assertThat(options.topics())
                .containsExactly(
                        new TopicSpec("shop", "orders", 3), new TopicSpec("shop", "payments", 1));
    }

    @Test
    void aStreamNamedTwiceIsCreatedOnce() {
        assertThat(Options.parse("--stream", "shop", "--topic", "shop/orders").streams())
                .containsExactly("shop");
    }

    @Test
    void helpWins() {
        assertThat(Options.parse("--port", "1", "--help").help()).isTrue();
        assertThat(EmbeddedIggyServerMain.USAGE).contains("--stream", "--topic", "--port");
    }

    @Test
    void badInputNamesTheOptionAndTheFix() {
        assertThatThrownBy(() -> Options.parse("--topic", "orders"))
                .hasMessageContaining("STREAM/TOPIC[:PARTITIONS]")
                .hasMessageContaining("'orders'");
        assertThatThrownBy(() -> Options.parse("--topic", "shop/orders:zero"))
                .hasMessageContaining("partition count")
                .hasMessageContaining("1..1000");
        assertThatThrownBy(() -> Options.parse("--topic", "shop/orders:1001"))
                .hasMessageContaining("1..1000");
        assertThatThrownBy(
                        () -> Options.parse("--topic", "shop/orders", "--topic", "shop/orders:2"))
                .hasMessageContaining("shop/orders twice");
        assertThatThrownBy(() -> Options.parse("--port", "70000"))
                .hasMessageContaining("--port must be 0..65535");
        assertThatThrownBy(() -> Options.parse("--segment-size", "0"))
                .hasMessageContaining("--segment-size must be a positive number of bytes");
        assertThatThrownBy(() -> Options.parse("--segment-size", "1GiB"))
                .hasMessageContaining("got '1GiB'");
        assertThatThrownBy(() -> Options.parse("--stream"))
                .hasMessageContaining("--stream needs a value");
        assertThatThrownBy(() -> Options.parse("--stream", "--topic"))
                .hasMessageContaining("--stream needs a name");
        assertThatThrownBy(() -> Options.parse("--topics", "a/b"))
                .hasMessageContaining("Unknown option '--topics'");
    }
}

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
package org.apache.flink.connector.iggy.table;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.table.api.ValidationException;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

/** The options both sides of a table share: connection, stream and topic. */
class IggyConnectorOptionsUtilTest {

    private static IggyConnectionConfig connection(Map<String, String> options) {
        return IggyConnectorOptionsUtil.connectionConfig(
                Configuration.fromMap(options), new Configuration());
    }

    @Test
    void theConnectionIsBuiltFromTheOptions() {
        IggyConnectionConfig config =
                connection(
                        Map.of(
                                "address", "[::1]:9000",
                                "username", "reader",
                                "password", "secret",
                                "tls.certificate", "/ca.pem",
                                "request.timeout", "7 s"));

        assertThat(config.host()).isEqualTo("::1");
        assertThat(config.port()).isEqualTo(9000);
        assertThat(config.username()).contains("reader");
        assertThat(config.password()).contains("secret");
        assertThat(config.tlsEnabled()).isTrue();
        assertThat(config.tlsCertificate()).contains("/ca.pem");
        assertThat(config.requestTimeout()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void aMissingAddressIsNamedAsTheSqlOptionNotTheSetter() {
        assertThatThrownBy(() -> connection(Map.of("username", "u", "password", "p")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("address is missing")
                .hasMessageContaining("option 'address'")
                .hasMessageNotContaining("setAddress");
    }

    @Test
    void missingCredentialsAreNamedAsTheSqlOptions() {
        assumeThat(System.getenv(IggyConnectionConfig.USERNAME_ENV)).isNull();
        assumeThat(System.getenv(IggyConnectionConfig.PERSONAL_ACCESS_TOKEN_ENV)).isNull();

        assertThatThrownBy(() -> connection(Map.of("address", "localhost:8090")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("no credentials")
                .hasMessageContaining("options 'username'/'password'")
                .hasMessageContaining("option 'personal-access-token'")
                .hasMessageContaining("iggy.username")
                .hasMessageNotContaining("setCredentials");
    }

    @Test
    void aMissingPasswordIsNamedAsTheSqlOption() {
        assumeThat(System.getenv(IggyConnectionConfig.PASSWORD_ENV)).isNull();

        assertThatThrownBy(
                        () -> connection(Map.of("address", "localhost:8090", "username", "reader")))
                .hasMessageContaining("password for user 'reader' is missing")
                .hasMessageContaining("option 'password'");
    }

    @Test
    void aPasswordWithoutUsernameIsRefusedWithoutShowingIt() {
        assertThatThrownBy(
                        () -> connection(Map.of("address", "localhost:8090", "password", "hidden")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'password' is set but 'username' is not")
                .hasMessageNotContaining("hidden");
    }

    @Test
    void streamAndTopicNamesAreCheckedAsIggyChecksThem() {
        Configuration valid = Configuration.fromMap(Map.of("stream", "orders", "topic", "eu"));
        IggyScanOptions.validateTopics(valid);
        IggySinkOptions.validateSinkTopics(valid, false);

        Configuration invalid =
                Configuration.fromMap(Map.of("stream", "s".repeat(256), "topic", ""));
        assertThatThrownBy(() -> IggyScanOptions.validateTopics(invalid))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("option 'stream'")
                .hasMessageContaining("at most 255 bytes")
                .hasMessageContaining("option 'topic'")
                .hasMessageContaining("must not be empty");
        assertThatThrownBy(() -> IggySinkOptions.validateSinkTopics(invalid, false))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("option 'stream'")
                .hasMessageContaining("at most 255 bytes")
                .hasMessageContaining("option 'topic'")
                .hasMessageContaining("must not be empty");
    }

    @Test
    void aDurationMustBePositiveAndEveryProblemIsNamedAtOnce() {
        List<String> problems = new ArrayList<>();
        IggyConnectorOptionsUtil.positive(
                IggyConnectorOptions.SCAN_POLL_INTERVAL,
                Optional.of(Duration.ofMillis(1)),
                problems);
        assertThat(problems).isEmpty();
        IggyConnectorOptionsUtil.positive(
                IggyConnectorOptions.SCAN_POLL_INTERVAL, Optional.of(Duration.ZERO), problems);
        IggyConnectorOptionsUtil.positive(
                IggyConnectorOptions.SINK_STATE_TTL, Optional.of(Duration.ofSeconds(-1)), problems);
        assertThatThrownBy(() -> IggyConnectorOptionsUtil.failOnProblems("", problems))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Option 'scan.poll.interval' must be positive, but is PT0S; Option"
                                + " 'sink.state-ttl' must be positive, but is PT-1S.");
    }
}

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

import org.apache.flink.configuration.Configuration;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggyConnectionConfigTest {

    private static final Map<String, String> NO_ENVIRONMENT = Map.of();

    /** A builder that sees {@code environment} instead of the process's environment variables. */
    private static IggyConnectionConfig.Builder builder(Map<String, String> environment) {
        return IggyConnectionConfig.builder().setEnvironment(environment::get);
    }

    private static IggyConnectionConfig.Builder withAddress() {
        return builder(NO_ENVIRONMENT).setAddress("localhost:8090");
    }

    @Test
    void theAddressIsRequiredAndNamedWithItsSetter() {
        assertThatThrownBy(() -> builder(NO_ENVIRONMENT).setCredentials("iggy", "iggy").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("address is missing")
                .hasMessageContaining("setAddress");
    }

    @Test
    void noCredentialsAnywhereIsAnErrorNamingEveryWayToSetThem() {
        assertThatThrownBy(() -> withAddress().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no credentials")
                .hasMessageContaining("setCredentials")
                .hasMessageContaining("setPersonalAccessToken")
                .hasMessageContaining("iggy.password")
                .hasMessageContaining("IGGY_USERNAME")
                .hasMessageContaining("IGGY_PERSONAL_ACCESS_TOKEN");
    }

    @Test
    void everyProblemIsNamedAtOnce() {
        assertThatThrownBy(
                        () ->
                                builder(NO_ENVIRONMENT)
                                        .setConnectTimeout(Duration.ZERO)
                                        .setRequestTimeout(Duration.ofSeconds(-1))
                                        .build())
                .hasMessageContaining("address is missing")
                .hasMessageContaining("no credentials")
                .hasMessageContaining("connect timeout")
                .hasMessageContaining("request timeout");
    }

    @Test
    void credentialsComeFromTheEnvironmentWhenNotSet() {
        IggyConnectionConfig config =
                builder(Map.of("IGGY_USERNAME", "env-user", "IGGY_PASSWORD", "env-pw"))
                        .setAddress("localhost:8090")
                        .build();

        assertThat(config.username()).contains("env-user");
        assertThat(config.password()).contains("env-pw");
        assertThat(config.personalAccessToken()).isEmpty();
    }

    @Test
    void aTokenFromTheEnvironmentWinsOverAUsernameFromTheEnvironment() {
        IggyConnectionConfig config =
                builder(
                                Map.of(
                                        "IGGY_USERNAME", "env-user",
                                        "IGGY_PASSWORD", "env-pw",
                                        "IGGY_PERSONAL_ACCESS_TOKEN", "env-token"))
                        .setAddress("localhost:8090")
                        .build();

        assertThat(config.personalAccessToken()).contains("env-token");
        assertThat(config.username()).isEmpty();
    }

    @Test
    void theBuilderWinsOverTheFlinkConfigurationWhichWinsOverTheEnvironment() {
        Map<String, String> environment =
                Map.of("IGGY_USERNAME", "env-user", "IGGY_PASSWORD", "env-pw");
        Configuration flinkConfiguration = new Configuration();
        flinkConfiguration.setString("iggy.username", "config-user");
        flinkConfiguration.setString("iggy.password", "config-pw");

        IggyConnectionConfig fromBuilder =
                builder(environment)
                        .setAddress("localhost:8090")
                        .setFlinkConfiguration(flinkConfiguration)
                        .setCredentials("builder-user", "builder-pw")
                        .build();
        IggyConnectionConfig fromConfiguration =
                builder(environment)
                        .setAddress("localhost:8090")
                        .setFlinkConfiguration(flinkConfiguration)
                        .build();

        assertThat(fromBuilder.username()).contains("builder-user");
        assertThat(fromBuilder.password()).contains("builder-pw");
        assertThat(fromConfiguration.username()).contains("config-user");
        assertThat(fromConfiguration.password()).contains("config-pw");
    }

    @Test
    void aUsernameWithoutPasswordTakesThePasswordFromTheEnvironment() {
        IggyConnectionConfig config =
                builder(Map.of("IGGY_PASSWORD", "env-pw"))
                        .setAddress("localhost:8090")
                        .setCredentials("reader", null)
                        .build();

        assertThat(config.username()).contains("reader");
        assertThat(config.password()).contains("env-pw");
    }

    @Test
    void aUsernameWithoutAnyPasswordNamesWhereToSetIt() {
        assertThatThrownBy(() -> withAddress().setCredentials("reader", null).build())
                .hasMessageContaining("password for user 'reader' is missing")
                .hasMessageContaining("iggy.password")
                .hasMessageContaining("IGGY_PASSWORD");
    }

    @Test
    void parsesHostAndPortIncludingIpv6() {
        assertThat(
                        withAddress()
                                .setAddress("10.0.0.7:9000")
                                .setCredentials("u", "p")
                                .build()
                                .address())
                .isEqualTo("10.0.0.7:9000");
        IggyConnectionConfig v6 =
                withAddress().setAddress("[::1]:8090").setCredentials("u", "p").build();
        assertThat(v6.host()).isEqualTo("::1");
        assertThat(v6.port()).isEqualTo(8090);
    }

    @Test
    void rejectsAddressesWithoutAValidPortNamingTheAddress() {
        assertThatThrownBy(() -> withAddress().setAddress("localhost").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'localhost'")
                .hasMessageContaining("host:port");
        assertThatThrownBy(() -> withAddress().setAddress("h:70000").build())
                .hasMessageContaining("port");
        assertThatThrownBy(() -> withAddress().setAddress(" ").build())
                .hasMessageContaining("address is missing");
    }

    @Test
    void secretsNeverAppearInToStringOrErrors() {
        IggyConnectionConfig withPassword =
                withAddress().setCredentials("alice", "s3cr3t-pw").build();
        IggyConnectionConfig withToken = withAddress().setPersonalAccessToken("tok-123456").build();

        assertThat(withPassword.toString()).contains("alice").doesNotContain("s3cr3t-pw");
        assertThat(withToken.toString())
                .contains("personal access token")
                .doesNotContain("tok-123456");
        assertThatThrownBy(
                        () ->
                                withAddress()
                                        .setAddress("no-port")
                                        .setCredentials("alice", "s3cr3t-pw")
                                        .build())
                .message()
                .doesNotContain("s3cr3t-pw");
    }

    @Test
    void aCertificateImpliesTls() {
        IggyConnectionConfig config =
                withAddress()
                        .setCredentials("u", "p")
                        .setTlsCertificate("/etc/iggy/ca.pem")
                        .build();
        assertThat(config.tlsEnabled()).isTrue();
    }
}

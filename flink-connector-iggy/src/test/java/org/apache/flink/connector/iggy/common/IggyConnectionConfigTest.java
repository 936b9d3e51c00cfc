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

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggyConnectionConfigTest {

    @Test
    void defaultsPointAtALocalServerWithTheDefaultUser() {
        IggyConnectionConfig config = IggyConnectionConfig.builder().build();

        assertThat(config.host()).isEqualTo("localhost");
        assertThat(config.port()).isEqualTo(8090);
        assertThat(config.username()).isEqualTo("iggy");
        assertThat(config.personalAccessToken()).isEmpty();
        assertThat(config.tlsEnabled()).isFalse();
    }

    @Test
    void parsesHostAndPortIncludingIpv6() {
        assertThat(IggyConnectionConfig.builder().setAddress("10.0.0.7:9000").build().address())
                .isEqualTo("10.0.0.7:9000");
        IggyConnectionConfig v6 = IggyConnectionConfig.builder().setAddress("[::1]:8090").build();
        assertThat(v6.host()).isEqualTo("::1");
        assertThat(v6.port()).isEqualTo(8090);
    }

    @Test
    void rejectsAddressesWithoutAValidPortNamingTheAddress() {
        assertThatThrownBy(() -> IggyConnectionConfig.builder().setAddress("localhost").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'localhost'")
                .hasMessageContaining("host:port");
        assertThatThrownBy(() -> IggyConnectionConfig.builder().setAddress("h:70000").build())
                .hasMessageContaining("port");
        assertThatThrownBy(() -> IggyConnectionConfig.builder().setAddress(" ").build())
                .hasMessageContaining("address is missing");
    }

    @Test
    void rejectsNonPositiveTimeouts() {
        assertThatThrownBy(
                        () ->
                                IggyConnectionConfig.builder()
                                        .setConnectTimeout(Duration.ZERO)
                                        .build())
                .hasMessageContaining("connect timeout");
    }

    @Test
    void secretsNeverAppearInToString() {
        IggyConnectionConfig withPassword =
                IggyConnectionConfig.builder().setCredentials("alice", "s3cr3t-pw").build();
        IggyConnectionConfig withToken =
                IggyConnectionConfig.builder().setPersonalAccessToken("tok-123456").build();

        assertThat(withPassword.toString()).contains("alice").doesNotContain("s3cr3t-pw");
        assertThat(withToken.toString())
                .contains("personal access token")
                .doesNotContain("tok-123456");
    }

    @Test
    void aCertificateImpliesTls() {
        IggyConnectionConfig config =
                IggyConnectionConfig.builder().setTlsCertificatePath("/etc/iggy/ca.pem").build();
        assertThat(config.tlsEnabled()).isTrue();
    }
}

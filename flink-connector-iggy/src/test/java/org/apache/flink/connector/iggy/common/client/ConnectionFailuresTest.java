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

import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectionSettingNames;

import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLException;

import java.security.cert.CertificateException;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/** The fixes a connection failure names are the settings of the API that built the connection. */
class ConnectionFailuresTest {

    /** Names as a connector with options of its own (the SQL connectors) gives them. */
    private static final IggyConnectionSettingNames OPTIONS =
            new IggyConnectionSettingNames(
                    "option 'a'",
                    "options 'u'/'p'",
                    "option 'p'",
                    "option 't'",
                    "'tls'='on'",
                    "'tls'='off'",
                    "option 'ca'");

    private static IggyConnectionConfig.Builder builder(IggyConnectionSettingNames names) {
        return names.newBuilder().setAddress("localhost:8090").setCredentials("u", "secret");
    }

    @Test
    void aLoginNotAnsweredSuggestsTurningTlsOnAsTheUserWouldSetIt() {
        TimeoutException timeout = new TimeoutException("no answer");

        assertThat(
                        ConnectionFailures.cannotLogIn(
                                        builder(IggyConnectionSettingNames.BUILDER).build(),
                                        timeout)
                                .getMessage())
                .contains("whether the server expects TLS (setTlsEnabled(true))")
                .doesNotContain("'tls");
        assertThat(ConnectionFailures.cannotLogIn(builder(OPTIONS).build(), timeout).getMessage())
                .contains("whether the server expects TLS ('tls'='on')")
                .doesNotContain("setTls");
    }

    @Test
    void aServerWithoutTlsSuggestsTurningItOffAsTheUserWouldSetIt() {
        SSLException plain = new SSLException("not an SSL/TLS record: 0000");

        assertThat(
                        ConnectionFailures.tlsHandshakeFailed(
                                        builder(IggyConnectionSettingNames.BUILDER)
                                                .setTlsEnabled(true)
                                                .build(),
                                        plain)
                                .getMessage())
                .contains("turn TLS off (setTlsEnabled(false))");
        assertThat(
                        ConnectionFailures.tlsHandshakeFailed(
                                        builder(OPTIONS).setTlsEnabled(true).build(), plain)
                                .getMessage())
                .contains("turn TLS off ('tls'='off')");
    }

    @Test
    void anUntrustedCertificateNamesTheCertificateSettingOrTheFileSet() {
        CertificateException untrusted = new CertificateException("PKIX path building failed");

        assertThat(
                        ConnectionFailures.tlsHandshakeFailed(
                                        builder(IggyConnectionSettingNames.BUILDER)
                                                .setTlsEnabled(true)
                                                .build(),
                                        untrusted)
                                .getMessage())
                .contains("set the PEM certificate of the CA that signed it (setTlsCertificate)");
        assertThat(
                        ConnectionFailures.tlsHandshakeFailed(
                                        builder(OPTIONS).setTlsEnabled(true).build(), untrusted)
                                .getMessage())
                .contains("set the PEM certificate of the CA that signed it (option 'ca')");
        assertThat(
                        ConnectionFailures.tlsHandshakeFailed(
                                        builder(OPTIONS).setTlsCertificate("/ca.pem").build(),
                                        untrusted)
                                .getMessage())
                .contains("check that /ca.pem is the PEM certificate of the CA");
    }

    @Test
    void anyOtherHandshakeFailureNamesEveryTlsSetting() {
        SSLException other = new SSLException("handshake_failure");

        assertThat(
                        ConnectionFailures.tlsHandshakeFailed(
                                        builder(OPTIONS).setTlsEnabled(true).build(), other)
                                .getMessage())
                .contains("('tls'='on' or 'tls'='off')")
                .contains("the CA certificate (option 'ca')");
    }

    @Test
    void aConnectionKeepsTheNamesItWasBuiltWithButEqualsOneBuiltOtherwise() {
        IggyConnectionConfig viaOptions = builder(OPTIONS).build();
        IggyConnectionConfig viaBuilder = builder(IggyConnectionSettingNames.BUILDER).build();

        assertThat(viaOptions.settingNames()).isEqualTo(OPTIONS);
        assertThat(viaOptions).isEqualTo(viaBuilder).hasSameHashCodeAs(viaBuilder);
    }
}

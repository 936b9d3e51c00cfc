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

import org.apache.flink.annotation.PublicEvolving;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach and authenticate with one Iggy server over TCP: shared by the source, the sink and
 * the table factories.
 *
 * <p>Immutable and validated once by {@link Builder#build()}. Secrets (password, personal access
 * token) never appear in {@link #toString()}.
 */
@PublicEvolving
public final class IggyConnectionConfig implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final String DEFAULT_ADDRESS = "localhost:8090";
    public static final String DEFAULT_USERNAME = "iggy";
    public static final String DEFAULT_PASSWORD = "iggy";
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final String host;
    private final int port;
    private final String username;
    private final String password;
    @Nullable private final String personalAccessToken;
    private final boolean tlsEnabled;
    @Nullable private final String tlsCertificatePath;
    private final Duration connectTimeout;
    private final Duration requestTimeout;

    private IggyConnectionConfig(Builder builder, String host, int port) {
        this.host = host;
        this.port = port;
        this.username = builder.username;
        this.password = builder.password;
        this.personalAccessToken = builder.personalAccessToken;
        this.tlsEnabled = builder.tlsEnabled;
        this.tlsCertificatePath = builder.tlsCertificatePath;
        this.connectTimeout = builder.connectTimeout;
        this.requestTimeout = builder.requestTimeout;
    }

    public static Builder builder() {
        return new Builder();
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /** {@code host:port}, for messages. */
    public String address() {
        return host + ":" + port;
    }

    public String username() {
        return username;
    }

    public String password() {
        return password;
    }

    /** The personal access token to log in with instead of username and password, if any. */
    public Optional<String> personalAccessToken() {
        return Optional.ofNullable(personalAccessToken);
    }

    public boolean tlsEnabled() {
        return tlsEnabled;
    }

    public Optional<String> tlsCertificatePath() {
        return Optional.ofNullable(tlsCertificatePath);
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** Bound on every single request; the SDK itself does not enforce one. */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** Who logs in, for messages: the user name, or that a token is used. Never a secret. */
    public String principal() {
        return personalAccessToken != null ? "a personal access token" : "user '" + username + "'";
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof IggyConnectionConfig)) {
            return false;
        }
        IggyConnectionConfig that = (IggyConnectionConfig) o;
        return port == that.port
                && tlsEnabled == that.tlsEnabled
                && host.equals(that.host)
                && username.equals(that.username)
                && password.equals(that.password)
                && Objects.equals(personalAccessToken, that.personalAccessToken)
                && Objects.equals(tlsCertificatePath, that.tlsCertificatePath)
                && connectTimeout.equals(that.connectTimeout)
                && requestTimeout.equals(that.requestTimeout);
    }

    @Override
    public int hashCode() {
        return Objects.hash(host, port, username, tlsEnabled, connectTimeout, requestTimeout);
    }

    @Override
    public String toString() {
        return "IggyConnectionConfig{address="
                + address()
                + ", principal="
                + principal()
                + ", tls="
                + tlsEnabled
                + (tlsCertificatePath != null ? ", tlsCertificate=" + tlsCertificatePath : "")
                + ", connectTimeout="
                + connectTimeout
                + ", requestTimeout="
                + requestTimeout
                + '}';
    }

    /** Builds an {@link IggyConnectionConfig}; {@link #build()} names any invalid property. */
    @PublicEvolving
    public static final class Builder {
        private String address = DEFAULT_ADDRESS;
        private String username = DEFAULT_USERNAME;
        private String password = DEFAULT_PASSWORD;
        @Nullable private String personalAccessToken;
        private boolean tlsEnabled;
        @Nullable private String tlsCertificatePath;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;

        private Builder() {}

        /** The server's TCP address as {@code host:port}; default {@value #DEFAULT_ADDRESS}. */
        public Builder setAddress(String address) {
            this.address = address;
            return this;
        }

        public Builder setCredentials(String username, String password) {
            this.username = username;
            this.password = password;
            return this;
        }

        /** Log in with this personal access token instead of username and password. */
        public Builder setPersonalAccessToken(@Nullable String personalAccessToken) {
            this.personalAccessToken = personalAccessToken;
            return this;
        }

        public Builder setTlsEnabled(boolean tlsEnabled) {
            this.tlsEnabled = tlsEnabled;
            return this;
        }

        /** A PEM CA certificate to trust; implies TLS. */
        public Builder setTlsCertificatePath(@Nullable String tlsCertificatePath) {
            this.tlsCertificatePath = tlsCertificatePath;
            if (tlsCertificatePath != null) {
                this.tlsEnabled = true;
            }
            return this;
        }

        public Builder setConnectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        public Builder setRequestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
            return this;
        }

        public IggyConnectionConfig build() {
            if (address == null || address.isBlank()) {
                throw new IllegalArgumentException(
                        "Iggy address is missing: set it as host:port, e.g. " + DEFAULT_ADDRESS);
            }
            int colon = address.lastIndexOf(':');
            if (colon <= 0 || colon == address.length() - 1) {
                throw new IllegalArgumentException(
                        "Iggy address '" + address + "' is not host:port, e.g. " + DEFAULT_ADDRESS);
            }
            String host = address.substring(0, colon).trim();
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(address.substring(colon + 1).trim());
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException(
                        "Iggy address '"
                                + address
                                + "' has no valid port (1-65535), e.g. "
                                + DEFAULT_ADDRESS);
            }
            if (personalAccessToken != null && personalAccessToken.isBlank()) {
                throw new IllegalArgumentException(
                        "Iggy personal access token is blank: set a token or leave it unset to log in with username and password");
            }
            if (personalAccessToken == null) {
                if (username == null || username.isEmpty()) {
                    throw new IllegalArgumentException(
                            "Iggy username is missing: set credentials or a personal access token");
                }
                if (password == null) {
                    throw new IllegalArgumentException(
                            "Iggy password is missing for user '" + username + "'");
                }
            }
            requirePositive("connect timeout", connectTimeout);
            requirePositive("request timeout", requestTimeout);
            if (username == null) {
                username = DEFAULT_USERNAME;
            }
            if (password == null) {
                password = "";
            }
            return new IggyConnectionConfig(this, host, port);
        }

        private static void requirePositive(String what, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(
                        "Iggy " + what + " must be positive, but is " + value);
            }
        }
    }
}

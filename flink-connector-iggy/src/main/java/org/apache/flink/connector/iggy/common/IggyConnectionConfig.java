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
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.configuration.ReadableConfig;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * How to reach and authenticate with one Iggy server over TCP, for the source, the sink and the
 * table factories. Immutable, validated once by {@link Builder#build()}, which can take credentials
 * from the Flink configuration or the environment. Secrets never appear in {@link #toString()}.
 */
@PublicEvolving
public final class IggyConnectionConfig implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Environment variables with the credentials when none are set otherwise. */
    public static final String USERNAME_ENV = "IGGY_USERNAME";

    public static final String PASSWORD_ENV = "IGGY_PASSWORD";
    public static final String PERSONAL_ACCESS_TOKEN_ENV = "IGGY_PERSONAL_ACCESS_TOKEN";

    /** Flink configuration keys with the credentials when none are set otherwise. */
    public static final String USERNAME_CONFIG_KEY = "iggy.username";

    public static final String PASSWORD_CONFIG_KEY = "iggy.password";
    public static final String PERSONAL_ACCESS_TOKEN_CONFIG_KEY = "iggy.personal-access-token";

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final String host;
    private final int port;
    @Nullable private final String username;
    @Nullable private final String password;
    @Nullable private final String personalAccessToken;
    private final boolean tlsEnabled;
    @Nullable private final String tlsCertificate;
    private final Duration connectTimeout;
    private final Duration requestTimeout;

    /** How the user set these properties, for messages; not part of equality. */
    private final IggyConnectionSettingNames settingNames;

    private IggyConnectionConfig(
            Builder builder, IggyAddress address, IggyCredentials credentials) {
        this.host = address.host();
        this.port = address.port();
        this.username = credentials.username();
        this.password = credentials.password();
        this.personalAccessToken = credentials.token();
        this.tlsEnabled = builder.tlsEnabled;
        this.tlsCertificate = builder.tlsCertificate;
        this.connectTimeout = builder.connectTimeout;
        this.requestTimeout = builder.requestTimeout;
        this.settingNames = builder.settingNames;
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

    /** The user to log in as; empty when a personal access token is used. */
    public Optional<String> username() {
        return Optional.ofNullable(username);
    }

    /** The user's password; empty when a personal access token is used. */
    public Optional<String> password() {
        return Optional.ofNullable(password);
    }

    /** The personal access token to log in with instead of username and password, if any. */
    public Optional<String> personalAccessToken() {
        return Optional.ofNullable(personalAccessToken);
    }

    public boolean tlsEnabled() {
        return tlsEnabled;
    }

    public Optional<String> tlsCertificate() {
        return Optional.ofNullable(tlsCertificate);
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** Bound on every single request; the SDK itself does not enforce one. */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** How the user set these properties, for messages that name a setting and its fix. */
    public IggyConnectionSettingNames settingNames() {
        return settingNames;
    }

    /** Who logs in, for messages: the user name, or that a token is used. Never a secret. */
    public String principal() {
        return personalAccessToken != null ? "a personal access token" : "user '" + username + "'";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IggyConnectionConfig that
                && port == that.port
                && tlsEnabled == that.tlsEnabled
                && host.equals(that.host)
                && Objects.equals(username, that.username)
                && Objects.equals(password, that.password)
                && Objects.equals(personalAccessToken, that.personalAccessToken)
                && Objects.equals(tlsCertificate, that.tlsCertificate)
                && connectTimeout.equals(that.connectTimeout)
                && requestTimeout.equals(that.requestTimeout);
    }

    @Override
    public int hashCode() {
        return Objects.hash(host, port, username, tlsEnabled, connectTimeout, requestTimeout);
    }

    @Override
    public String toString() {
        return ("IggyConnectionConfig{address=%s, principal=%s, tls=%s%s, connectTimeout=%s,"
                        + " requestTimeout=%s}")
                .formatted(
                        address(),
                        principal(),
                        tlsEnabled,
                        tlsCertificate != null ? ", tlsCertificate=" + tlsCertificate : "",
                        connectTimeout,
                        requestTimeout);
    }

    /** Builds an {@link IggyConnectionConfig}; the address is required. */
    @PublicEvolving
    public static final class Builder {
        @Nullable private String address;
        @Nullable private String username;
        @Nullable private String password;
        @Nullable private String personalAccessToken;
        private boolean tlsEnabled;
        @Nullable private String tlsCertificate;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        @Nullable private ReadableConfig flinkConfiguration;
        private Function<String, String> environment = System::getenv;
        private IggyConnectionSettingNames settingNames = IggyConnectionSettingNames.BUILDER;

        private Builder() {}

        /**
         * The server's TCP address as {@code host:port} ({@code [::1]:8090} for IPv6). Required.
         */
        public Builder setAddress(String address) {
            this.address = address;
            return this;
        }

        /** Log in as this user; a {@code null} password is looked up as {@link #build()} says. */
        public Builder setCredentials(String username, @Nullable String password) {
            this.username = username;
            this.password = password;
            return this;
        }

        /** Log in with this personal access token instead of username and password. */
        public Builder setPersonalAccessToken(@Nullable String personalAccessToken) {
            this.personalAccessToken = personalAccessToken;
            return this;
        }

        /** The Flink configuration to take credentials from when they are not set here. */
        public Builder setFlinkConfiguration(@Nullable ReadableConfig flinkConfiguration) {
            this.flinkConfiguration = flinkConfiguration;
            return this;
        }

        /** Where environment variables come from; tests replace {@link System#getenv}. */
        @VisibleForTesting
        Builder setEnvironment(Function<String, String> environment) {
            this.environment = Objects.requireNonNull(environment);
            return this;
        }

        /** How the user sets each property, for messages: the SQL connectors name their options. */
        Builder setSettingNames(IggyConnectionSettingNames settingNames) {
            this.settingNames = Objects.requireNonNull(settingNames);
            return this;
        }

        public Builder setTlsEnabled(boolean tlsEnabled) {
            this.tlsEnabled = tlsEnabled;
            return this;
        }

        /** A PEM CA certificate to trust; implies TLS. */
        public Builder setTlsCertificate(@Nullable String tlsCertificate) {
            this.tlsCertificate = tlsCertificate;
            if (tlsCertificate != null) {
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

        /**
         * Validates and builds. Credentials come from the first source that names a personal access
         * token or a username: this builder, the {@link #setFlinkConfiguration Flink
         * configuration}, the environment; a token wins over a username of the same source, and the
         * password is the first one set in that order. They are resolved here and travel with the
         * job.
         *
         * @throws IllegalArgumentException naming every missing or invalid property and its fix
         */
        public IggyConnectionConfig build() {
            List<String> problems = new ArrayList<>();
            IggyAddress parsedAddress =
                    IggyAddress.parse(address, settingNames.address(), problems);
            IggyCredentials credentials =
                    IggyCredentials.resolve(
                            new IggyCredentials(username, password, personalAccessToken),
                            flinkConfiguration,
                            environment,
                            settingNames,
                            problems);
            if (!isPositive(connectTimeout)) {
                problems.add("the connect timeout must be positive, but is " + connectTimeout);
            }
            if (!isPositive(requestTimeout)) {
                problems.add("the request timeout must be positive, but is " + requestTimeout);
            }
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException(
                        "Invalid Iggy connection: " + String.join("; ", problems) + ".");
            }
            return new IggyConnectionConfig(this, parsedAddress, credentials);
        }

        private static boolean isPositive(@Nullable Duration value) {
            return value != null && !value.isNegative() && !value.isZero();
        }
    }
}

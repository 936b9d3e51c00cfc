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

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import static org.apache.flink.connector.iggy.common.IggyConnectionConfig.PASSWORD_CONFIG_KEY;
import static org.apache.flink.connector.iggy.common.IggyConnectionConfig.PASSWORD_ENV;
import static org.apache.flink.connector.iggy.common.IggyConnectionConfig.PERSONAL_ACCESS_TOKEN_CONFIG_KEY;
import static org.apache.flink.connector.iggy.common.IggyConnectionConfig.PERSONAL_ACCESS_TOKEN_ENV;
import static org.apache.flink.connector.iggy.common.IggyConnectionConfig.USERNAME_CONFIG_KEY;
import static org.apache.flink.connector.iggy.common.IggyConnectionConfig.USERNAME_ENV;

/**
 * Who logs in: a username with its password, or a personal access token (the others {@code null}).
 * Its {@link #toString()} names who logs in, never a secret.
 */
@Internal
record IggyCredentials(
        @Nullable String username, @Nullable String password, @Nullable String token) {

    private static final ConfigOption<String> USERNAME_CONFIG =
            ConfigOptions.key(USERNAME_CONFIG_KEY).stringType().noDefaultValue();
    private static final ConfigOption<String> PASSWORD_CONFIG =
            ConfigOptions.key(PASSWORD_CONFIG_KEY).stringType().noDefaultValue();
    private static final ConfigOption<String> PERSONAL_ACCESS_TOKEN_CONFIG =
            ConfigOptions.key(PERSONAL_ACCESS_TOKEN_CONFIG_KEY).stringType().noDefaultValue();

    @Override
    public String toString() {
        return token != null ? "a personal access token" : "user '" + username + "'";
    }

    /**
     * The credentials as {@link IggyConnectionConfig.Builder#build()} resolves them from {@code
     * given}, then {@code flinkConfiguration}, then {@code environment}; {@code null} after adding
     * a problem.
     */
    @Nullable
    static IggyCredentials resolve(
            IggyCredentials given,
            @Nullable ReadableConfig flinkConfiguration,
            Function<String, String> environment,
            IggyConnectionSettingNames names,
            List<String> problems) {
        List<Source> sources = new ArrayList<>(3);
        sources.add(new Source("the builder", given));
        if (flinkConfiguration != null) {
            sources.add(
                    new Source(
                            "the Flink configuration",
                            new IggyCredentials(
                                    flinkConfiguration.get(USERNAME_CONFIG),
                                    flinkConfiguration.get(PASSWORD_CONFIG),
                                    flinkConfiguration.get(PERSONAL_ACCESS_TOKEN_CONFIG))));
        }
        sources.add(
                new Source(
                        "the environment",
                        new IggyCredentials(
                                environment.apply(USERNAME_ENV),
                                environment.apply(PASSWORD_ENV),
                                environment.apply(PERSONAL_ACCESS_TOKEN_ENV))));
        for (Source source : sources) {
            IggyCredentials found = source.credentials;
            if (found.token != null) {
                if (found.token.isBlank()) {
                    problems.add(
                            "the personal access token from "
                                    + source.name
                                    + " is blank: set a token, or leave it unset to log in"
                                    + " with username and password");
                    return null;
                }
                return new IggyCredentials(null, null, found.token);
            }
            if (found.username != null) {
                if (found.username.isBlank()) {
                    problems.add("the username from " + source.name + " is blank");
                    return null;
                }
                String password =
                        sources.stream()
                                .map(s -> s.credentials.password)
                                .filter(Objects::nonNull)
                                .findFirst()
                                .orElse(null);
                if (password == null) {
                    problems.add(
                            ("the password for user '%s' is missing: set it with %s, as %s in the"
                                            + " Flink configuration, or as %s in the environment")
                                    .formatted(
                                            found.username,
                                            names.password(),
                                            PASSWORD_CONFIG_KEY,
                                            PASSWORD_ENV));
                    return null;
                }
                return new IggyCredentials(found.username, password, null);
            }
        }
        problems.add(
                ("no credentials: set them with %s or %s, in the Flink configuration (%s/%s or %s),"
                                + " or in the environment (%s/%s or %s)")
                        .formatted(
                                names.credentials(),
                                names.personalAccessToken(),
                                USERNAME_CONFIG_KEY,
                                PASSWORD_CONFIG_KEY,
                                PERSONAL_ACCESS_TOKEN_CONFIG_KEY,
                                USERNAME_ENV,
                                PASSWORD_ENV,
                                PERSONAL_ACCESS_TOKEN_ENV));
        return null;
    }

    private record Source(String name, IggyCredentials credentials) {}
}

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

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.iggy.common.DidYouMean;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectionSettingNames;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.factories.FactoryUtil;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.ADDRESS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.CONNECT_TIMEOUT;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.PASSWORD;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.PERSONAL_ACCESS_TOKEN;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.REQUEST_TIMEOUT;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.TLS_CERTIFICATE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.TLS_ENABLED;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.TOPIC;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.TOPIC_PATTERN;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.USERNAME;

/**
 * Reads the connection of a table and holds the checks both sides share, Flink's check for unknown
 * options with suggestions ({@link #validate}) among them. Every failure is a {@link
 * ValidationException} at planning time naming the option, and never showing a secret.
 */
@Internal
public final class IggyConnectorOptionsUtil {

    /** The connection options: the tables' and the catalog's. */
    public static final List<ConfigOption<?>> CONNECTION_OPTIONS =
            List.of(
                    ADDRESS,
                    USERNAME,
                    PASSWORD,
                    PERSONAL_ACCESS_TOKEN,
                    TLS_ENABLED,
                    TLS_CERTIFICATE,
                    CONNECT_TIMEOUT,
                    REQUEST_TIMEOUT);

    /** How SQL users set the connection, for the messages of the connection's builder. */
    private static final IggyConnectionSettingNames SETTING_NAMES =
            new IggyConnectionSettingNames(
                    "option '" + ADDRESS.key() + "'",
                    "options '" + USERNAME.key() + "'/'" + PASSWORD.key() + "'",
                    "option '" + PASSWORD.key() + "'",
                    "option '" + PERSONAL_ACCESS_TOKEN.key() + "'",
                    "'" + TLS_ENABLED.key() + "'='true'",
                    "'" + TLS_ENABLED.key() + "'='false'",
                    "option '" + TLS_CERTIFICATE.key() + "'");

    private IggyConnectorOptionsUtil() {}

    /**
     * The connection of a table. Credentials missing from the table's options come from {@code
     * flinkConfiguration} (the session's) or the environment, so they can stay out of DDL.
     */
    public static IggyConnectionConfig connectionConfig(
            ReadableConfig options, ReadableConfig flinkConfiguration) {
        IggyConnectionConfig.Builder builder =
                SETTING_NAMES
                        .newBuilder()
                        .setAddress(options.getOptional(ADDRESS).orElse(null))
                        .setPersonalAccessToken(
                                options.getOptional(PERSONAL_ACCESS_TOKEN).orElse(null))
                        .setFlinkConfiguration(flinkConfiguration)
                        .setTlsEnabled(options.get(TLS_ENABLED))
                        .setConnectTimeout(options.get(CONNECT_TIMEOUT))
                        .setRequestTimeout(options.get(REQUEST_TIMEOUT));
        if (options.getOptional(USERNAME).isPresent()) {
            builder.setCredentials(
                    options.get(USERNAME), options.getOptional(PASSWORD).orElse(null));
        } else if (options.getOptional(PASSWORD).isPresent()) {
            throw new ValidationException(
                    "Option '"
                            + PASSWORD.key()
                            + "' is set but '"
                            + USERNAME.key()
                            + "' is not: set both, or neither and take the credentials from the"
                            + " Flink configuration or the environment.");
        }
        options.getOptional(TLS_CERTIFICATE).ifPresent(builder::setTlsCertificate);
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            // The builder's messages name the property and never contain a secret.
            throw new ValidationException(e.getMessage());
        }
    }

    /** The topics of option 'topic': one, or several separated by ';'. */
    static List<String> topics(ReadableConfig options) {
        List<String> topics = new ArrayList<>();
        for (String topic : options.get(TOPIC).split(";", -1)) {
            topics.add(topic.trim());
        }
        return topics;
    }

    /**
     * Adds the problems of 'topic' and 'topic-pattern' (both set, an invalid name or regular
     * expression, a topic listed twice); returns the topics of 'topic', none when it is unset.
     */
    static List<String> checkTopics(ReadableConfig options, List<String> problems) {
        if (options.getOptional(TOPIC).isPresent()
                && options.getOptional(TOPIC_PATTERN).isPresent()) {
            problems.add("both 'topic' and 'topic-pattern' are set: choose one");
        }
        checkPattern(options, TOPIC_PATTERN, problems);
        if (options.getOptional(TOPIC).isEmpty()) {
            return List.of();
        }
        List<String> topics = topics(options);
        topics.forEach(topic -> checkName(TOPIC.key(), topic, problems));
        if (new HashSet<>(topics).size() < topics.size()) {
            problems.add("'topic' = '" + options.get(TOPIC) + "' names a topic twice");
        }
        return topics;
    }

    /** Adds a problem if {@code name}, the value of option {@code key}, is no valid Iggy name. */
    static void checkName(String key, String name, List<String> problems) {
        try {
            IggyId.of(name);
        } catch (IllegalArgumentException e) {
            problems.add("option '" + key + "': " + e.getMessage());
        }
    }

    /** Adds a problem if {@code option} is set to no valid regular expression. */
    static void checkPattern(
            ReadableConfig options, ConfigOption<String> option, List<String> problems) {
        options.getOptional(option)
                .ifPresent(
                        regex -> {
                            try {
                                Pattern.compile(regex);
                            } catch (PatternSyntaxException e) {
                                problems.add(
                                        "option '"
                                                + option.key()
                                                + "' is not a regular expression: "
                                                + e.getDescription());
                            }
                        });
    }

    /** Adds a problem if {@code option} is set below 1. */
    public static void atLeastOne(
            ReadableConfig options, ConfigOption<? extends Number> option, List<String> problems) {
        options.getOptional(option)
                .filter(value -> value.longValue() < 1)
                .ifPresent(
                        value ->
                                problems.add(
                                        "Option '"
                                                + option.key()
                                                + "' must be at least 1, but is "
                                                + value));
    }

    /** Adds a problem if {@code duration}, the value of {@code option}, is zero or negative. */
    static void positive(
            ConfigOption<Duration> option, Optional<Duration> duration, List<String> problems) {
        duration.filter(d -> d.isNegative() || d.isZero())
                .ifPresent(
                        d ->
                                problems.add(
                                        "Option '"
                                                + option.key()
                                                + "' must be positive, but is "
                                                + d));
    }

    /** Adds a problem if the operator uid {@code option} is set but blank. */
    static void notBlankUid(
            ReadableConfig options, ConfigOption<String> option, List<String> problems) {
        if (options.getOptional(option).filter(String::isBlank).isPresent()) {
            problems.add(
                    "Option '"
                            + option.key()
                            + "' must not be blank: set an operator uid, or leave the option out"
                            + " for one derived from the table's identifier");
        }
    }

    /** Fails with {@code prefix} and every problem, if there is any, joined on one line. */
    static void failOnProblems(String prefix, List<String> problems) {
        if (!problems.isEmpty()) {
            throw new ValidationException(prefix + String.join("; ", problems) + ".");
        }
    }

    private static final String UNSUPPORTED = "\n\nUnsupported options:\n\n";
    private static final String SUPPORTED = "\n\nSupported options:\n\n";

    /**
     * {@code helper.validate()}, whose failure for unknown options says, for each, the supported
     * option it is most likely a misspelling of.
     */
    public static void validate(FactoryUtil.FactoryHelper<?> helper) {
        try {
            helper.validate();
        } catch (ValidationException e) {
            throw withSuggestions(e);
        }
    }

    /**
     * {@code e} with "did you mean" added to each unknown option close to a supported one, without
     * cause (the SQL client prints only the root cause); {@code e} itself for other failures.
     */
    @VisibleForTesting
    static ValidationException withSuggestions(ValidationException e) {
        String message = e.getMessage();
        int unsupportedAt = message == null ? -1 : message.indexOf(UNSUPPORTED);
        int supportedAt = unsupportedAt < 0 ? -1 : message.indexOf(SUPPORTED, unsupportedAt);
        if (supportedAt < 0) {
            return e;
        }
        List<String> supported = new ArrayList<>();
        for (String line : message.substring(supportedAt + SUPPORTED.length()).split("\n")) {
            // Flink marks deprecated keys: "old.key (deprecated)".
            String key = line.strip().split(" ", 2)[0];
            if (!key.isEmpty()) {
                supported.add(key);
            }
        }
        StringBuilder unsupported = new StringBuilder();
        boolean suggested = false;
        for (String key :
                message.substring(unsupportedAt + UNSUPPORTED.length(), supportedAt).split("\n")) {
            if (unsupported.length() > 0) {
                unsupported.append('\n');
            }
            unsupported.append(key);
            String hint = DidYouMean.hint(key.strip(), supported);
            unsupported.append(hint);
            suggested |= !hint.isEmpty();
        }
        if (!suggested) {
            return e;
        }
        ValidationException withSuggestions =
                new ValidationException(
                        message.substring(0, unsupportedAt + UNSUPPORTED.length())
                                + unsupported
                                + message.substring(supportedAt));
        withSuggestions.setStackTrace(e.getStackTrace());
        return withSuggestions;
    }
}

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

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyConnectionSettingNames;
import org.apache.flink.connector.iggy.common.IggyConnectorException;

import org.apache.iggy.exception.IggyAuthenticationException;

import javax.annotation.Nullable;
import javax.net.ssl.SSLException;

import java.nio.channels.ClosedChannelException;
import java.security.cert.CertificateException;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * The failures of connecting and logging in, each saying what failed and the likely fix, naming
 * each setting as the user set it ({@link IggyConnectionSettingNames}). Each is its own root cause
 * ({@link IggyClients#asRootCause}), as Flink's SQL client prints only that.
 *
 * <p>What no retry mends (rejected credentials, a denied permission, a failed TLS handshake, a
 * server that closes the connection at the login) is an {@link IggyConfigurationException}, which
 * fails the job without a restart; what may pass (no server listening, no answer in time) is a
 * plain {@link IggyConnectorException}, retried by the job's restart strategy.
 */
@Internal
final class ConnectionFailures {

    /** The server's answers to a login with credentials or a token it does not accept. */
    private static final Set<IggyErrorCode> LOGIN_REJECTED =
            EnumSet.of(
                    IggyErrorCode.RESOURCE_NOT_FOUND, // an unknown personal access token
                    IggyErrorCode.INVALID_CREDENTIALS,
                    IggyErrorCode.INVALID_USERNAME,
                    IggyErrorCode.INVALID_PASSWORD,
                    IggyErrorCode.USER_INACTIVE,
                    IggyErrorCode.PERSONAL_ACCESS_TOKEN_EXPIRED);

    private ConnectionFailures() {}

    /** TCP did not come up: nothing listens, a firewall, a wrong host. */
    static IggyConnectorException cannotConnect(IggyConnectionConfig config, Throwable failure) {
        return IggyClients.asRootCause(
                ("Cannot connect to Iggy at %s within %s: %s. Check that the server is running and"
                                + " that the address (host:port of its TCP listener) is right.")
                        .formatted(
                                config.address(),
                                config.connectTimeout(),
                                IggyClients.describe(failure)),
                failure);
    }

    /** TCP is up, the TLS handshake failed or did not finish. */
    static IggyConnectorException tlsHandshakeFailed(
            IggyConnectionConfig config, Throwable failure) {
        IggyConnectionSettingNames names = config.settingNames();
        String failed = "failed: " + IggyClients.describe(failure) + ". ";
        String noTls =
                "speak TLS on this port: turn TLS off (%s) or use the server's TLS port."
                        .formatted(names.tlsOff());
        String ca = "the PEM certificate of the CA that signed it";
        String fix;
        if (isTimeout(failure)) {
            fix =
                    "did not complete within %s. The server may not %s"
                            .formatted(config.connectTimeout(), noTls);
        } else if (has(failure, CertificateException.class)
                && message(failure).contains("subject alternative")) {
            fix =
                    failed
                            + ("The server's certificate does not name '%s': connect by a host name"
                                            + " or IP address the certificate names.")
                                    .formatted(config.host());
        } else if (message(failure).contains("PKIX")
                || message(failure).contains("certification path")
                || has(failure, CertificateException.class)) {
            fix =
                    failed
                            + "The server's certificate is not trusted: "
                            + config.tlsCertificate()
                                    .map(path -> "check that " + path + " is " + ca)
                                    .orElse("set " + ca + " (" + names.tlsCertificate() + ")")
                            + ".";
        } else if (isNotTls(failure) || isClosed(failure)) {
            fix = failed + "The server does not seem to " + noTls;
        } else {
            fix =
                    failed
                            + ("Check the TLS settings against the server's: whether it expects"
                                            + " TLS (%s or %s) and the CA certificate (%s).")
                                    .formatted(
                                            names.tlsOn(), names.tlsOff(), names.tlsCertificate());
        }
        String message =
                "Cannot connect to Iggy at " + config.address() + ": the TLS handshake " + fix;
        return IggyClients.withOriginal(new IggyConfigurationException(message), failure);
    }

    /** Connected (and TLS done, if on); the login was rejected or not answered. */
    static IggyConnectorException cannotLogIn(IggyConnectionConfig config, Throwable failure) {
        IggyConnectionSettingNames names = config.settingNames();
        String address = config.address();
        String reason;
        boolean transientFailure = false;
        if (isAuthenticationFailure(failure)) {
            reason =
                    config.personalAccessToken().isPresent()
                            ? "Check that the personal access token exists and has not expired."
                            : "Check the username and password.";
            reason = "the server rejected " + config.principal() + ". " + reason;
        } else if (isTimeout(failure)) {
            transientFailure = true;
            reason =
                    ("the server accepted the connection but did not answer the login request"
                                    + " within %s. Check that %s is the TCP port of an Iggy server"
                                    + " (not its HTTP or QUIC port)%s")
                            .formatted(
                                    config.connectTimeout(),
                                    address,
                                    config.tlsEnabled()
                                            ? "."
                                            : " and whether the server expects TLS ("
                                                    + names.tlsOn()
                                                    + ").");
        } else if (isClosed(failure)) {
            reason =
                    "the server closed the connection without answering the login request. "
                            + (config.tlsEnabled()
                                    ? "Check that %s is an Iggy server.".formatted(address)
                                    : ("If the server expects TLS, turn it on (%s); otherwise"
                                                    + " check that %s is an Iggy server's TCP"
                                                    + " port.")
                                            .formatted(names.tlsOn(), address));
        } else {
            transientFailure = true;
            reason = IggyClients.describe(failure) + ". Check the server's log.";
        }
        String message =
                "Cannot log in to Iggy at %s as %s: %s"
                        .formatted(address, config.principal(), reason);
        return transientFailure
                ? IggyClients.asRootCause(message, failure)
                : IggyClients.withOriginal(new IggyConfigurationException(message), failure);
    }

    /** The server denied the user the permission a request needs, to {@code what} if known. */
    static IggyConfigurationException permissionDenied(@Nullable String what, Throwable failure) {
        return IggyClients.withOriginal(
                new IggyConfigurationException(
                        ("The Iggy server denied the permission %s (%s). Grant the user the"
                                        + " permission on the stream or topic (reading a source's"
                                        + " topic, sending messages to a sink's), or connect as a"
                                        + " user that has it.")
                                .formatted(
                                        what == null ? "for a request" : "to " + what,
                                        IggyErrorCode.UNAUTHORIZED)),
                failure);
    }

    private static boolean isAuthenticationFailure(Throwable t) {
        return has(t, IggyAuthenticationException.class)
                || IggyErrorCode.of(t).filter(LOGIN_REJECTED::contains).isPresent();
    }

    private static boolean isTimeout(Throwable t) {
        return has(t, TimeoutException.class);
    }

    private static boolean isClosed(Throwable t) {
        String message = message(t);
        return message.contains("closed") || has(t, ClosedChannelException.class);
    }

    /** Plain bytes where TLS records were expected (Netty's NotSslRecordException is one). */
    private static boolean isNotTls(Throwable t) {
        return has(t, SSLException.class)
                && (message(t).contains("not an SSL/TLS record")
                        || message(t).contains("Unrecognized SSL message")
                        || message(t).contains("Unsupported or unrecognized SSL message"));
    }

    /** Whether {@code t}, its causes or what they suppressed is a {@code type}. */
    private static boolean has(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
            for (Throwable suppressed : c.getSuppressed()) {
                if (has(suppressed, type)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** All messages of {@code t} and its causes, for matching. */
    private static String message(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append('\n');
        }
        return all.toString();
    }
}

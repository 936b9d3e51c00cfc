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

import org.apache.flink.annotation.PublicEvolving;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

/**
 * A self-signed certificate for {@code localhost} and {@code 127.0.0.1}, made fresh for a test (by
 * BouncyCastle), with its key: the server side of {@link EmbeddedIggyServer.Config.Builder#tls}.
 * Clients trust it through {@link #writeCertificatePem}, the file a connector's {@code
 * tls.certificate} names. A second instance is a "wrong CA" for the first.
 */
@PublicEvolving
public final class SelfSignedCertificate {

    private static final char[] KEY_PASSWORD = "embedded-iggy".toCharArray();

    private final KeyPair keyPair;
    private final X509Certificate certificate;

    private SelfSignedCertificate(KeyPair keyPair, X509Certificate certificate) {
        this.keyPair = keyPair;
        this.certificate = certificate;
    }

    /** A new key pair (EC P-256) and a certificate valid for a day. */
    public static SelfSignedCertificate generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            KeyPair keyPair = generator.generateKeyPair();
            X500Name subject = new X500Name("CN=localhost, O=Embedded Iggy server for tests");
            Instant now = Instant.now();
            X509v3CertificateBuilder builder =
                    new JcaX509v3CertificateBuilder(
                            subject,
                            new BigInteger(64, new SecureRandom()),
                            Date.from(now.minus(Duration.ofMinutes(5))),
                            Date.from(now.plus(Duration.ofDays(1))),
                            subject,
                            keyPair.getPublic());
            builder.addExtension(
                    Extension.subjectAlternativeName,
                    false,
                    new GeneralNames(
                            new GeneralName[] {
                                new GeneralName(GeneralName.dNSName, "localhost"),
                                new GeneralName(GeneralName.iPAddress, "127.0.0.1")
                            }));
            // Its own CA: clients use it as the trust anchor.
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            ContentSigner signer =
                    new JcaContentSignerBuilder("SHA256withECDSA").build(keyPair.getPrivate());
            X509Certificate certificate =
                    new JcaX509CertificateConverter().getCertificate(builder.build(signer));
            return new SelfSignedCertificate(keyPair, certificate);
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("Cannot generate a self-signed certificate", e);
        }
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** The certificate in PEM, the form clients are given as the CA to trust. */
    public String certificatePem() {
        try {
            String base64 =
                    Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                            .encodeToString(certificate.getEncoded());
            return "-----BEGIN CERTIFICATE-----\n" + base64 + "\n-----END CERTIFICATE-----\n";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@link #certificatePem()} to a new file in {@code directory} and returns its path. */
    public Path writeCertificatePem(Path directory) {
        try {
            Path file = Files.createTempFile(directory, "iggy-ca-", ".pem");
            Files.writeString(file, certificatePem(), StandardCharsets.US_ASCII);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A server-side TLS context presenting this certificate. */
    public SSLContext serverContext() {
        try {
            KeyStore keyStore = KeyStore.getInstance("PKCS12");
            keyStore.load(null, null);
            keyStore.setKeyEntry(
                    "server",
                    keyPair.getPrivate(),
                    KEY_PASSWORD,
                    new X509Certificate[] {certificate});
            KeyManagerFactory keyManagers =
                    KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(keyStore, KEY_PASSWORD);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers.getKeyManagers(), null, new SecureRandom());
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("Cannot build a TLS context", e);
        }
    }
}

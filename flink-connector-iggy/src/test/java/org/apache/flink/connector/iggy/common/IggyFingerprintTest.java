package org.apache.flink.connector.iggy.common;

import org.apache.commons.codec.binary.Hex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class IggyFingerprintTest {

    /** The vectors of semantics.md §2.2. */
    @ParameterizedTest
    @CsvSource({
        "'', cae66941d9efbd404e4d88758ea67670",
        "v1, 32813478dd927a4c2415bc5464568e9d",
        "k1=v1, d6c302e2c58f1160b37fdd94ac1ea839",
        "héllo, 249a5c7589499a8866064c0d58459744"
    })
    void matchesTheReferenceVectors(String input, String hex) {
        assertThat(Hex.encodeHexString(IggyFingerprint.of(input))).isEqualTo(hex);
        assertThat(Hex.encodeHexString(IggyFingerprint.of(input.getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(hex);
    }

    @Test
    void messageIdsAreDeterministicAndSeparateTheirInputs() {
        byte[] sink = "sink".getBytes(StandardCharsets.UTF_8);
        BigInteger id = IggyFingerprint.messageId(sink, bytes("k1"), 0);
        assertThat(IggyFingerprint.messageId(sink, bytes("k1"), 0)).isEqualTo(id);
        assertThat(IggyFingerprint.messageId(sink, bytes("k1"), 1)).isNotEqualTo(id);
        assertThat(IggyFingerprint.messageId(sink, bytes("k2"), 0)).isNotEqualTo(id);
        assertThat(IggyFingerprint.messageId(bytes("other"), bytes("k1"), 0)).isNotEqualTo(id);
        // length prefixes: moving a byte from sink id to key changes the id
        assertThat(IggyFingerprint.messageId(bytes("sin"), bytes("kk1"), 0))
                .isNotEqualTo(IggyFingerprint.messageId(bytes("sink"), bytes("k1"), 0));
        assertThat(id.signum()).isPositive();
        assertThat(id.bitLength()).isLessThanOrEqualTo(128);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
